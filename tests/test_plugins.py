"""Plugins: a third-party package registers rules through the `kernlint` entry point exactly like the
built-in rules do; a broken plugin is reported and skipped while everything else still runs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from conftest import run_kernlint
from kernlint.cli import main
from kernlint.config import Config
from kernlint.diagnostics import FixAvailability
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_source
from kernlint.plugins import load_plugins
from kernlint.session import make_setup

SAMPLE_PLUGIN = '''
"""A sample third-party rule: flags every single_task launch."""
from kernlint.diagnostics import Severity
from kernlint.hookspecs import hookimpl
from kernlint.rule import Rule


class NoSingleTask(Rule):
    """Prefer parallel_for over single_task (sample plugin)."""
    code = "KL901"
    name = "no-single-task"
    severity = Severity.INFO
    languages = frozenset({"sycl"})

    def check(self, facts, ctx):
        for launch in facts.launches:
            if launch.api == "single_task":
                yield ctx.diagnostic(launch.span, "single_task runs one work-item", kernel=launch.name)


@hookimpl
def kernlint_rules():
    return [NoSingleTask]
'''


def install_distribution(site: Path, dist: str, module: str, source: str, entry_name: str) -> None:
    """Install a distribution the way pip leaves it: the module plus a dist-info with entry points."""
    (site / f"{module}.py").write_text(source)
    info = site / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[kernlint]\n{entry_name} = {module}\n")


def test_external_plugin_and_broken_plugin(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    install_distribution(site, "kernlint_sample", "kernlint_sample_plugin", SAMPLE_PLUGIN, "sample")
    install_distribution(site, "kernlint_broken", "kernlint_broken_plugin", "raise RuntimeError('boom')\n", "broken")
    install_distribution(
        site,
        "kernlint_raising",
        "kernlint_raising_plugin",
        "from kernlint.hookspecs import hookimpl\n@hookimpl\ndef kernlint_rules():\n"
        "    raise ValueError('hook failed')\n",
        "raising",
    )
    source = tmp_path / "k.cpp"
    source.write_text(
        "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q) {\n  q.single_task([=]() {});\n"
        "  for (;;) { sycl::buffer<int> b(sycl::range<1>(4)); }\n}\n"
    )
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    proc = run_kernlint(str(source), "--format", "json", "--no-cache", env=env)
    report = json.loads(proc.stdout)
    codes = sorted(d["code"] for d in report["diagnostics"])
    assert codes == ["KL101", "KL901"]  # built-in and third-party rules both ran
    stderr = proc.stderr.decode()
    assert "plugin 'broken'" in stderr and "boom" in stderr
    assert "plugin 'raising'" in stderr and "hook failed" in stderr
    listing = run_kernlint("rule", "KL901", env=env).stdout.decode()
    assert "A sample third-party rule" in listing  # the module docstring is the documentation


def test_builtin_rules_come_through_the_entry_point() -> None:
    plugins = load_plugins()
    assert plugins.rules["KL101"].__module__.startswith("kernlint_rules.")
    assert not plugins.errors


def test_non_rule_and_duplicate_codes_are_rejected() -> None:
    from kernlint.hookspecs import hookimpl

    class Plugin:
        @hookimpl
        def kernlint_rules(self):
            from kernlint_rules.data.kl101_buffer_in_loop import BufferInLoop

            return [BufferInLoop, object]

    plugins = load_plugins(extra=(Plugin(),))
    assert any("already provided" in e for e in plugins.errors)
    assert any("is not a kernlint Rule class" in e for e in plugins.errors)
    assert "KL101" in plugins.rules


PACKAGE_INIT = '''
"""A third-party family of rules, laid out as the built-in families are: a package of rule modules."""
from kernlint.hookspecs import hookimpl


@hookimpl
def kernlint_rules():
    from kernlint_family_sample.kl950_single_task import SingleTaskComment

    return [SingleTaskComment]
'''

PACKAGE_RULE = '''
"""Marks every single_task launch with a comment (sample plugin).

Fix safety
    The fix is always marked safe: it adds a comment, which is not code.
"""
from kernlint.diagnostics import Fix, FixAvailability, Severity
from kernlint.rule import Rule


class SingleTaskComment(Rule):
    code = "KL950"
    name = "single-task-comment"
    severity = Severity.INFO
    languages = frozenset({"sycl"})
    fix_availability = FixAvailability.ALWAYS

    def check(self, facts, ctx):
        for launch in facts.launches:
            if launch.api == "single_task":
                fix = Fix("mark it", (ctx.insert_after(launch.span, " /* one work-item */"),))
                yield ctx.diagnostic(launch.span, f"single_task in {ctx.language}", fix=fix)
'''


def test_a_plugin_package_registers_its_rules_through_the_entry_point(tmp_path: Path, monkeypatch, capsys) -> None:
    """A package (not a lone module) installed as a distribution with a `kernlint` entry point, found on
    the import path: its rule is loaded, runs in the engine next to the built-in ones, offers its fix,
    and `kernlint rule` shows its fix availability."""
    site = tmp_path / "site"
    package = site / "kernlint_family_sample"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(PACKAGE_INIT)
    (package / "kl950_single_task.py").write_text(PACKAGE_RULE)
    info = site / "kernlint_family_sample-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kernlint-family-sample\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[kernlint]\nfamily-sample = kernlint_family_sample\n")
    monkeypatch.syspath_prepend(str(site))
    try:
        plugins = load_plugins()
        assert not plugins.errors
        rule = plugins.rules["KL950"]
        assert rule.__module__ == "kernlint_family_sample.kl950_single_task"
        assert rule.info().fix_availability is FixAvailability.ALWAYS and "KL101" in plugins.rules
        setup = make_setup(Config(), use_cache=False, plugins=plugins)
        source = (
            b"void f(sycl::queue &q) {\n  q.single_task([=]() {});\n"
            b"  for (;;) { sycl::buffer<int> b(sycl::range<1>(4)); }\n}\n"
        )
        result = analyse_source(SourceEntry("k.cpp", "cpp", False), source, setup)
        by_code = {d.code: d for d in result.diagnostics}
        assert sorted(by_code) == ["KL101", "KL950"]  # built-in and third-party rules both ran
        assert by_code["KL950"].message == "single_task in sycl" and by_code["KL950"].fix is not None
        assert main(["rule", "KL950"]) == 0
        shown = capsys.readouterr().out
        assert shown.startswith("KL950 single-task-comment (info)\n\nFix is always available.\n")
    finally:
        for name in [m for m in sys.modules if m.startswith("kernlint_family_sample")]:
            monkeypatch.delitem(sys.modules, name)
