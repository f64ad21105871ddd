"""kernlint's built-in rules, registered through the `kernlint` entry point like any plugin.

One sub-package per family of rules (`data`, `launch`, `prefetch`, `divergence`, `transfers`, `suppression`), each
holding its rules, the helpers they share and their cost builders. Every `kl*.py` module of a family is
a rule module, whose `Rule` subclasses are registered: adding a rule is adding a module to its family,
adding a family is adding a folder. `catalog.json` holds every rule's metadata, so that `kernlint rule`
imports no rule module; it is generated from the modules (tests/test_rule_catalog.py checks it and
regenerates it with KERNLINT_UPDATE_SNAPSHOTS=1). A family imports kernlint's core and itself, never another family
(the import-linter contracts in pyproject.toml say so).
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from pathlib import Path
from typing import Any

from kernlint.hookspecs import hookimpl
from kernlint.rule import Rule, catalog_entry

CATALOG = Path(__file__).resolve().with_name("catalog.json")


def rule_modules() -> list[str]:
    """The rule modules of every family, by name: `kernlint_rules.<family>.kl…`."""
    names = []
    for family in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not family.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{family.name}")
        names += [
            f"{package.__name__}.{module.name}"
            for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
            if module.name.startswith("kl") and not module.ispkg
        ]
    return names


def builtin_rules() -> list[type[Rule]]:
    rules: list[type[Rule]] = []
    for name in rule_modules():
        module = importlib.import_module(name)
        rules.extend(
            obj
            for _name, obj in inspect.getmembers(module, inspect.isclass)
            if issubclass(obj, Rule) and obj.__module__ == module.__name__ and hasattr(obj, "code")
        )
    return sorted(rules, key=lambda r: r.code)


@hookimpl
def kernlint_rules() -> list[type[Rule]]:
    return builtin_rules()


def catalog() -> list[dict[str, Any]]:
    """What `catalog.json` must hold: every built-in rule's metadata, read off the rule modules."""
    return [catalog_entry(rule) for rule in builtin_rules()]


@hookimpl
def kernlint_rule_catalog() -> list[dict[str, Any]] | None:
    """The rules' metadata from `catalog.json`; None (import the rules instead) where it is missing."""
    try:
        entries: list[dict[str, Any]] = json.loads(CATALOG.read_text("utf-8"))
    except FileNotFoundError:
        return None
    return entries
