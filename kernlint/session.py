"""Turning configurations into engine setups: plugins loaded, codes and devices checked, rules picked.

The command line and the language server both start here, so a project is set up the same way in
CI and in an editor, and neither front door depends on the other. Each file is analysed with the
setup of its own configuration (`kernlint.projects`); a run over several projects analyses each
project's files with its setup and reports them as one run.
"""

from __future__ import annotations

import os
import posixpath
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from kernlint import __version__
from kernlint.config import Config, ConfigError, validate_codes, validate_rule_options
from kernlint.diagnostics import Diagnostic, FileResult, RuleInfo, RunResult
from kernlint.discovery import SourceEntry
from kernlint.engine import PARSE_ERROR_RULE, EngineSetup, analyse_files, described
from kernlint.limits import DEFAULT_TIMEOUT_S
from kernlint.plugins import PluginSet, load_plugins
from kernlint.projects import ConfigResolver


def known_codes(plugins: PluginSet) -> frozenset[str]:
    """Every code a selection may name: the plugins' rules and KL000."""
    return frozenset({PARSE_ERROR_RULE.code, *plugins.rules})


def make_setup(
    config: Config,
    use_cache: bool = True,
    *,
    plugins: PluginSet | None = None,
    timeout_s: float | None = DEFAULT_TIMEOUT_S,
    cache_dir: str | None = None,
) -> EngineSetup:
    """Load plugins (unless given) and devices and pick the rules to run; problems with plugins are
    warnings, problems with the configuration a `ConfigError`."""
    if plugins is None:
        plugins = load_plugins()
    for error in plugins.errors:
        print(f"kernlint: warning: {error}", file=sys.stderr)
    validate_rule_options(config, plugins.rules)
    validate_codes(config, known_codes(plugins))
    # The command line's --device names were checked before they replaced the file's (check_devices).
    where = f"{config.path}: key 'device'" if config.path else "--device"
    devices = check_devices(config.devices, plugins, where)
    rules = tuple(
        rule for code, rule in sorted(plugins.rules.items()) if config.is_selected(code, rule.enabled_by_default)
    )
    known = known_codes(plugins)
    return EngineSetup(config, rules, tuple(devices), use_cache, tuple(plugins.errors), timeout_s, cache_dir, known)


def check_devices(ids: tuple[str, ...] | list[str], plugins: PluginSet, where: str) -> list[Any]:
    """The device profiles `ids` name (plugins' devices first), each once: a device named twice is
    one target, or every per-device finding would be reported twice. A `ConfigError` says where an
    unknown name was written, or that two different profiles (a file and a built-in) share an id."""
    from kernlint.occupancy import DeviceError, load_device

    provided = {getattr(d, "id", None): d for d in plugins.devices if not isinstance(d, (str, os.PathLike))}
    devices: dict[str, Any] = {}
    for device_id in dict.fromkeys(ids):
        if device_id in provided:
            device = provided[device_id]
        else:
            try:
                device = load_device(device_id)
            except DeviceError as exc:
                raise ConfigError(f"{where}: {exc}") from None
        key = getattr(device, "id", device_id)
        known = devices.get(key)
        if known is not None and known != device:
            raise ConfigError(f"{where}: two different device profiles have the id {key!r}")
        devices[key] = device
    return list(devices.values())


class ProjectSetups:
    """The engine setup of each configuration a run meets, made once (and so checked) per config."""

    def __init__(
        self,
        resolver: ConfigResolver,
        *,
        plugins: PluginSet | None = None,
        use_cache: bool = True,
        timeout_s: float | None = DEFAULT_TIMEOUT_S,
        cache_dir: str | None = None,
    ) -> None:
        self.resolver = resolver
        self._plugins = plugins
        self._use_cache = use_cache
        self._timeout_s = timeout_s
        self._cache_dir = cache_dir
        self._setups: dict[str | None, EngineSetup] = {}
        self._clang_warned = False

    @property
    def plugins(self) -> PluginSet:
        """The plugins every setup uses (loaded on first use)."""
        if self._plugins is None:
            self._plugins = load_plugins()
        return self._plugins

    def for_config(self, config: Config) -> EngineSetup:
        if config.path not in self._setups:
            self._setups[config.path] = make_setup(
                self._loadable(config),
                self._use_cache,
                plugins=self.plugins,
                timeout_s=self._timeout_s,
                cache_dir=self._cache_dir,
            )
        return self._setups[config.path]

    def _loadable(self, config: Config) -> Config:
        """`config` with the tree-sitter front-end when it asks for clang and libclang does not load
        here: said once (on the first such config), and every file then reads as in a default run
        instead of each becoming a KL000."""
        if config.frontend != "clang":
            return config
        from kernlint.frontends import clang_unavailable

        problem = clang_unavailable()
        if problem is None:
            return config
        if not self._clang_warned:
            print(f"kernlint: warning: {problem}", file=sys.stderr)
            self._clang_warned = True
        return replace(config, frontend="tree-sitter")

    def for_file(self, path: str) -> EngineSetup:
        """The setup `path` is analysed with (a `ConfigError` when its config is broken)."""
        return self.for_config(self.resolver.for_file(path))

    def forget(self) -> None:
        """Start again from the config files on disk (one of them changed)."""
        self.resolver.forget()
        self._setups.clear()


def run_projects(
    entries: list[SourceEntry],
    setups: ProjectSetups,
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    extra_files: Iterable[FileResult] = (),
) -> RunResult:
    """Analyse `entries`, each with its own project's setup, as one run.

    Files keep their discovery order. The run-level `devices` are the union of the projects'
    devices in order of first appearance (projects ordered by their first file), so one project
    reports exactly its own list; `rules` are the union by code, KL000 first.
    """
    started = time.perf_counter()
    groups: dict[str | None, list[int]] = {}
    group_setup: dict[str | None, EngineSetup] = {}
    by_directory: dict[str, EngineSetup] = {}  # a file's setup is its directory's
    directory, group = None, []
    for index, entry in enumerate(entries):
        if _folder(entry.path) != directory:  # (discovery lists a folder's files together)
            directory = _folder(entry.path)
            if directory not in by_directory:  # every config is loaded and checked before any analysis
                by_directory[directory] = setups.for_file(entry.path)
            setup = by_directory[directory]
            group = groups.setdefault(setup.config.path, [])
            group_setup[setup.config.path] = setup
        group.append(index)
    if not groups:  # nothing to analyse: still a run, described by the working directory's setup
        fallback = setups.for_config(setups.resolver.for_directory("."))
        group_setup[fallback.config.path] = fallback
        groups[fallback.config.path] = []
    analysed: dict[int, FileResult] = {}
    devices: dict[str, None] = {}
    rules: dict[str, RuleInfo] = {}
    for key, indices in groups.items():
        setup = group_setup[key]
        analysed.update(zip(indices, analyse_files([entries[i] for i in indices], setup, jobs, progress)))
        part_devices, part_rules = described(setup)
        devices.update(dict.fromkeys(part_devices))
        rules.update((rule.code, rule) for rule in part_rules)
    files = (*extra_files, *(analysed[i] for i in range(len(entries))))
    diagnostics = sorted((d for f in files for d in f.diagnostics), key=Diagnostic.sort_key)
    ordered_rules = (PARSE_ERROR_RULE, *(rules[code] for code in sorted(rules) if code != PARSE_ERROR_RULE.code))
    return RunResult(
        files, tuple(diagnostics), tuple(devices), ordered_rules, round(time.perf_counter() - started, 4), __version__
    )


def _folder(path: str) -> str:
    """What groups the files of one folder: on POSIX the path up to its last `/` (a folder spelt two
    ways is only looked up twice), elsewhere `os.path.dirname`."""
    return path[: path.rfind("/") + 1] if os.path is posixpath else os.path.dirname(path)
