"""Loading plugins (built-in and third-party alike) through the `kernlint` entry-point group."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pluggy

from kernlint import hookspecs
from kernlint.rule import Rule, catalog_entry


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
    result = PluginSet()
    manager = _registered(extra, result)
    _collect(manager, result)
    return result


def load_rule_catalog(extra: tuple[object, ...] = ()) -> tuple[list[dict[str, Any]], list[str]]:
    """Every plugin's rules as catalog entries (`kernlint.rule.catalog_entry`), sorted by code, and what
    went wrong: from a plugin's `kernlint_rule_catalog` where it has one (no rule module is imported),
    else from the rules its `kernlint_rules` returns. A code two plugins give is kept from the first."""
    errors: list[str] = []
    manager = _registered(extra, PluginSet(errors=errors))
    entries: dict[str, dict[str, Any]] = {}
    for name, plugin in manager.list_name_plugin():  # in the order registered
        for entry in _plugin_catalog(manager, plugin, name, errors):
            if entry["code"] in entries:
                errors.append(f"plugin {name!r}: rule code {entry['code']} is already provided; skipped")
            else:
                entries[entry["code"]] = entry
    return [entries[code] for code in sorted(entries)], errors


def _plugin_catalog(
    manager: pluggy.PluginManager, plugin: object, name: str, errors: list[str]
) -> list[dict[str, Any]]:
    """One plugin's catalog: declared, or else read off its rule classes."""
    for impl in _impls(manager, "kernlint_rule_catalog", plugin):
        try:
            declared = impl.function()
        except Exception as exc:
            errors.append(f"plugin {name!r}: kernlint_rule_catalog() raised {exc!r}; its rules are imported instead")
            continue
        if declared is not None:
            return list(declared)
    result = PluginSet()
    for impl in _impls(manager, "kernlint_rules", plugin):
        try:
            _add_rules(name, impl.function() or [], result)
        except Exception as exc:
            errors.append(f"plugin {name!r}: kernlint_rules() raised {exc!r}; skipped")
    errors.extend(result.errors)
    return [catalog_entry(rule) for rule in result.rules.values()]


def _impls(manager: pluggy.PluginManager, hook_name: str, plugin: object) -> list[Any]:
    return [i for i in getattr(manager.hook, hook_name).get_hookimpls() if i.plugin is plugin]


def _registered(extra: tuple[object, ...], result: PluginSet) -> pluggy.PluginManager:
    """A plugin manager with every `kernlint` entry point and `extra` registered (imported, so far as
    that imports anything); what fails goes to `result.errors`."""
    from kernlint.entry_points import entry_points  # on use: `kernlint --version` never pays for it

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
    return manager


def _collect(manager: pluggy.PluginManager, result: PluginSet) -> None:
    """Call each plugin's hooks separately, so one raising hook loses only its own plugin's rules."""
    for plugin in manager.get_plugins():
        name = manager.get_name(plugin) or repr(plugin)
        for hook_name, sink in (("kernlint_rules", _add_rules), ("kernlint_devices", _add_devices)):
            for impl in _impls(manager, hook_name, plugin):
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
