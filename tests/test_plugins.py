"""Plugins: a third-party package registers rules through the `kernlint` entry point exactly like the
built-in rules do; a broken plugin is reported and skipped while everything else still runs."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import run_kernlint
from kernlint.plugins import load_plugins

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
