"""Loading plugins (built-in and third-party alike) through the `kernlint` entry-point group."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pluggy

from kernlint import hookspecs
from kernlint.rule import Rule


@dataclass
class PluginSet:
    """The rules and devices plugins provided, and what went wrong loading them."""

    rules: dict[str, type[Rule]] = field(default_factory=dict)
    devices: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def plugin_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    return manager


def load_plugins(extra: tuple[object, ...] = ()) -> PluginSet:
    """Import every `kernlint` entry point (plus `extra` plugin objects) and collect what they give."""
    from importlib.metadata import entry_points  # on use: `kernlint --version` never pays for it

    result = PluginSet()
    manager = plugin_manager()
    for entry_point in sorted(entry_points(group=hookspecs.PROJECT), key=lambda e: e.name):
        try:
            plugin = entry_point.load()
            manager.register(plugin, name=entry_point.name)
        except Exception as exc:  # a broken plugin must not take the linter down
            result.errors.append(f"plugin {entry_point.name!r} ({entry_point.value}) failed to load: {exc!r}")
    for plugin in extra:
        try:
            manager.register(plugin)
        except Exception as exc:
            result.errors.append(f"plugin {plugin!r} failed to register: {exc!r}")
    _collect(manager, result)
    return result


def _collect(manager: pluggy.PluginManager, result: PluginSet) -> None:
    """Call each plugin's hooks separately, so one raising hook loses only its own plugin's rules."""
    for plugin in manager.get_plugins():
        name = manager.get_name(plugin) or repr(plugin)
        for hook_name, sink in (("kernlint_rules", _add_rules), ("kernlint_devices", _add_devices)):
            impls = [i for i in getattr(manager.hook, hook_name).get_hookimpls() if i.plugin is plugin]
            for impl in impls:
                try:
                    provided = impl.function()
                except Exception as exc:
                    result.errors.append(f"plugin {name!r}: {hook_name}() raised {exc!r}; skipped")
                    continue
                sink(name, provided or [], result)


def _add_rules(plugin: str, provided: Any, result: PluginSet) -> None:
    for rule in provided:
        if not (isinstance(rule, type) and issubclass(rule, Rule) and isinstance(getattr(rule, "code", None), str)):
            result.errors.append(f"plugin {plugin!r}: {rule!r} is not a kernlint Rule class; skipped")
        elif rule.code in result.rules:
            result.errors.append(
                f"plugin {plugin!r}: rule code {rule.code} is already provided by "
                f"{result.rules[rule.code].__module__}; skipped"
            )
        else:
            result.rules[rule.code] = rule


def _add_devices(plugin: str, provided: Any, result: PluginSet) -> None:
    result.devices.extend(provided)
