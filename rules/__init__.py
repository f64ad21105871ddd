"""kernlint's built-in rules, registered through the `kernlint` entry point like any plugin.

Every `kl*.py` module in this package is a rule module; its `Rule` subclasses are registered. Adding a
rule is adding a module. Other modules hold logic several rules share (`launch_checks`: launch
configuration against a device; `omp_maps`, `omp_launch`: the OpenMP halves of KL102 and KL201).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from kernlint.hookspecs import hookimpl
from kernlint.rule import Rule


def builtin_rules() -> list[type[Rule]]:
    rules: list[type[Rule]] = []
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not module_info.name.startswith("kl"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        rules.extend(
            obj
            for _name, obj in inspect.getmembers(module, inspect.isclass)
            if issubclass(obj, Rule) and obj.__module__ == module.__name__ and hasattr(obj, "code")
        )
    return sorted(rules, key=lambda r: r.code)


@hookimpl
def kernlint_rules() -> list[type[Rule]]:
    return builtin_rules()
