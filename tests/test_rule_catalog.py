"""`kernlint rule` reads the rules' metadata from the plugins' catalogs, so it imports no rule module
(nor the fact model, the front-ends or the engine they would bring): the built-in catalog
(`rules/kernlint_rules/catalog.json`) must say exactly what the rule modules say.

After adding or changing a rule, regenerate it:

    KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_rule_catalog.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from kernlint.diagnostics import Severity
from kernlint.hookspecs import hookimpl
from kernlint.plugins import load_plugins, load_rule_catalog
from kernlint.rule import Rule, catalog_entry
from kernlint_rules import CATALOG, catalog

# Imported by a check, never by `kernlint rule`: what the catalog exists to avoid.
HEAVY = ("kernlint_rules.", "kernlint.facts", "kernlint.frontends", "kernlint.engine", "kernlint.analysis")


def test_builtin_catalog_is_current() -> None:
    expected = json.dumps(catalog(), indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("KERNLINT_UPDATE_SNAPSHOTS") == "1":
        CATALOG.write_text(expected, "utf-8")
        return
    assert CATALOG.exists() and CATALOG.read_text("utf-8") == expected, (
        "rules/kernlint_rules/catalog.json is out of date: regenerate it with "
        "KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_rule_catalog.py"
    )


def test_catalog_of_every_plugin_matches_the_rule_classes() -> None:
    entries, errors = load_rule_catalog()
    assert not errors
    assert entries == [catalog_entry(rule) for _code, rule in sorted(load_plugins().rules.items())]


def _modules_after(*argv: str) -> list[str]:
    script = (
        "import sys\nfrom kernlint.cli import main\n"
        f"code = main({list(argv)!r})\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return done.stderr.splitlines()


def test_rule_command_imports_no_rule_module() -> None:
    for argv in (["rule"], ["rule", "KL501"], ["rule", "--output-format", "json"]):
        loaded = _modules_after(*argv)
        assert "kernlint_rules" in loaded  # the entry point was loaded ...
        assert [m for m in loaded if m.startswith(HEAVY)] == []  # ... and nothing behind it


class _Late(Rule):
    """A plugin's rule without a catalog (its summary line)."""

    code = "KL977"
    name = "late-rule"
    severity = Severity.INFO


class _WithoutCatalog:
    @hookimpl
    def kernlint_rules(self) -> list[type]:
        return [_Late]


class _DeclinedCatalog(_WithoutCatalog):
    @hookimpl
    def kernlint_rule_catalog(self) -> None:
        return None


class _RaisingCatalog(_WithoutCatalog):
    @hookimpl
    def kernlint_rule_catalog(self) -> None:
        raise RuntimeError("catalog failed")


def test_a_plugin_without_a_catalog_has_its_rules_read_off_the_classes() -> None:
    for plugin in (_WithoutCatalog(), _DeclinedCatalog(), _RaisingCatalog()):
        entries, errors = load_rule_catalog(extra=(plugin,))
        late = [entry for entry in entries if entry["code"] == "KL977"]
        assert late == [catalog_entry(_Late)]
        assert "KL101" in {entry["code"] for entry in entries}
        assert bool(errors) is isinstance(plugin, _RaisingCatalog)


def test_a_code_two_plugins_give_is_kept_once() -> None:
    class Duplicate:
        @hookimpl
        def kernlint_rule_catalog(self) -> list[dict]:
            return [{**catalog_entry(_Late), "code": "KL101"}]

    entries, errors = load_rule_catalog(extra=(Duplicate(),))
    assert [entry["name"] for entry in entries if entry["code"] == "KL101"] == ["buffer-in-loop"]
    assert any("KL101 is already provided" in error for error in errors)
