"""Turning a configuration into an engine setup: plugins loaded, codes and devices checked, rules picked.

The command line and the language server both start here, so a project is set up the same way in
CI and in an editor, and neither front door depends on the other.
"""

from __future__ import annotations

import os
import sys

from kernlint.config import Config, ConfigError, validate_codes, validate_rule_options
from kernlint.engine import PARSE_ERROR_RULE, EngineSetup
from kernlint.limits import DEFAULT_TIMEOUT_S
from kernlint.plugins import PluginSet, load_plugins


def known_codes(plugins: PluginSet) -> frozenset[str]:
    """Every code a selection may name: the plugins' rules and KL000."""
    return frozenset({PARSE_ERROR_RULE.code, *plugins.rules})


def make_setup(config: Config, use_cache: bool = True, *, plugins: PluginSet | None = None,
               timeout_s: float | None = DEFAULT_TIMEOUT_S) -> EngineSetup:
    """Load plugins (unless given) and devices and pick the rules to run; problems with plugins are
    warnings, problems with the configuration a `ConfigError`."""
    from kernlint.occupancy import DeviceError, load_device

    if plugins is None:
        plugins = load_plugins()
    for error in plugins.errors:
        print(f"kernlint: warning: {error}", file=sys.stderr)
    validate_rule_options(config, plugins.rules)
    validate_codes(config, known_codes(plugins))
    provided = {getattr(d, "id", None): d for d in plugins.devices if not isinstance(d, (str, os.PathLike))}
    devices = []
    for device_id in config.devices:
        if device_id in provided:
            devices.append(provided[device_id])
            continue
        try:
            devices.append(load_device(device_id))
        except DeviceError as exc:
            raise ConfigError(str(exc)) from None
    rules = tuple(rule for code, rule in sorted(plugins.rules.items())
                  if config.is_selected(code, rule.enabled_by_default))
    return EngineSetup(config, rules, tuple(devices), use_cache, tuple(plugins.errors), timeout_s)
