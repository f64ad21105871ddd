"""kernlint's built-in rules, registered through the `kernlint` entry point like any plugin.

One sub-package per family of rules (`data`, `launch`, `prefetch`, `divergence`, `transfers`, `suppression`), each
holding its rules, the helpers they share and their cost builders. Every `kl*.py` module of a family is
a rule module, whose `Rule` subclasses are registered: adding a rule is adding a module to its family,
adding a family is adding a folder. A family imports kernlint's core and itself, never another family
(the import-linter contracts in pyproject.toml say so).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from kernlint.hookspecs import hookimpl
from kernlint.rule import Rule


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
