"""What a ruff user looks for on the command line (issue 19): listing the files and settings of a run,
excludes on the command line, the fixes a run offers, machine formats for CI, a run that checked
nothing, and the small things that make a report trustworthy (no duplicates, reproducible JSON)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from xml.etree import ElementTree

from conftest import run_kernlint
from kernlint.report.text import headline
from kernlint.rule_docs import RULES_URL

LOOP = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
  q.wait(); // kernlint: ignore[KL207]
}
"""
WIDE = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(sycl::range<1>(4096), sycl::range<1>(2048)), [=](sycl::nd_item<1> it) {});
  });
}
"""


def tree(root: Path) -> Path:
    for relative, data in {
        "src/a.cpp": LOOP,
        "src/gen/b.cpp": LOOP,
        "src/notes.txt": b"not source\n",
        "third/c.cpp": LOOP,
    }.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(data)
    return root


def lines(proc: subprocess.CompletedProcess) -> list[str]:
    return proc.stdout.decode().splitlines()


def test_show_files_lists_what_would_be_checked_and_analyses_nothing(tmp_path: Path) -> None:
    tree(tmp_path)
    proc = run_kernlint("--show-files", cwd=tmp_path)
    assert proc.returncode == 0 and lines(proc) == ["src/a.cpp", "src/gen/b.cpp", "third/c.cpp"]
    assert not (tmp_path / ".kernlint_cache").exists()  # nothing was analysed
    (tmp_path / "kernlint.toml").write_text('exclude = ["third"]\n')
    assert lines(run_kernlint("--show-files", cwd=tmp_path)) == ["src/a.cpp", "src/gen/b.cpp"]
    missing = run_kernlint("src", "gone.cpp", "--show-files", cwd=tmp_path)
    assert lines(missing) == ["src/a.cpp", "src/gen/b.cpp"]
    assert missing.stderr.decode() == "kernlint: warning: gone.cpp: no such file or directory\n"


def test_show_partial_parses_is_the_old_show_files(tmp_path: Path) -> None:
    (tmp_path / "bad.cpp").write_text("void f( {\n")
    proc = run_kernlint("bad.cpp", "--no-cache", "--show-partial-parses", cwd=tmp_path)
    assert "partial: bad.cpp: syntax errors near line(s) 1" in proc.stdout.decode()


def test_show_settings_prints_each_configuration_with_the_command_line_applied(tmp_path: Path) -> None:
    tree(tmp_path)
    (tmp_path / "kernlint.toml").write_text(
        'device = ["xe-lp"]\nignore = ["KL104"]\n[rules.KL202]\nmin-occupancy-pct = 50\n'
    )
    proc = run_kernlint("src", "--show-settings", "--device", "h100", "--extend-exclude", "gen", cwd=tmp_path)
    out = lines(proc)
    assert proc.returncode == 0
    assert out[0] == "# Settings for 1 file(s), the first src/a.cpp"
    assert out[1].startswith(f"# config file: {tmp_path / 'kernlint.toml'}")
    assert 'device = ["h100"]' in out and 'ignore = ["KL104"]' in out and 'extend-exclude = ["gen"]' in out
    assert 'rules = {"KL202": {"min-occupancy-pct": 50}}' in out
    assert "# select: not set (every rule enabled by default runs)" in out
    rules = next(line for line in out if line.startswith("# rules that run: "))
    assert "KL101" in rules and "KL104" not in rules
    assert "# devices: h100" in out


def test_exclude_and_extend_exclude_on_the_command_line(tmp_path: Path) -> None:
    tree(tmp_path)
    (tmp_path / "kernlint.toml").write_text('exclude = ["third"]\n')
    listed = lambda *args: lines(run_kernlint("--show-files", *args, cwd=tmp_path))  # noqa: E731
    assert listed("--extend-exclude", "gen") == ["src/a.cpp"]
    assert listed("--exclude", "gen") == ["src/a.cpp", "third/c.cpp"]  # replaces the config's list
    assert listed("--exclude", "src/gen,third") == ["src/a.cpp"]
    assert listed("--exclude", "gen", "--exclude", "third") == ["src/a.cpp"]
    # A pattern with a slash is relative to the working directory, wherever the config file is.
    (tmp_path / "src" / "kernlint.toml").write_text("")
    assert listed("--extend-exclude", "src/gen/*.cpp") == ["src/a.cpp"]
    # An explicitly named file is checked unless --force-exclude (as for config patterns).
    assert lines(run_kernlint("src/gen/b.cpp", "--show-files", "--exclude", "gen", cwd=tmp_path)) == ["src/gen/b.cpp"]
    forced = run_kernlint("src/gen/b.cpp", "--show-files", "--exclude", "gen", "--force-exclude", cwd=tmp_path)
    assert lines(forced) == []


def test_the_same_file_named_twice_is_analysed_once(tmp_path: Path) -> None:
    tree(tmp_path)
    proc = run_kernlint("src", "src/a.cpp", "./src/a.cpp", str(tmp_path / "src" / "a.cpp"), "--format", "json",
                        "--no-cache", cwd=tmp_path)  # fmt: skip
    report = json.loads(proc.stdout)
    assert [f["path"] for f in report["files"]] == ["src/a.cpp", "src/gen/b.cpp"]
    assert report["summary"]["by_code"] == {"KL001": 2, "KL101": 2}


def test_a_device_named_twice_is_one_target(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(WIDE)
    once = json.loads(run_kernlint("k.cpp", "--device", "h100", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    twice = run_kernlint(
        "k.cpp", "--device", "h100", "--device", "h100", "--format", "json", "--no-cache", cwd=tmp_path
    )
    assert json.loads(twice.stdout)["diagnostics"] == once["diagnostics"]
    assert json.loads(twice.stdout)["devices"] == ["h100"] and once["summary"]["by_code"] == {"KL201": 1}
    (tmp_path / "kernlint.toml").write_text('device = ["h100", "xe-lp", "h100"]\n')
    configured = json.loads(run_kernlint("k.cpp", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    assert configured["devices"] == ["h100", "xe-lp"]
    assert sorted(d["device"] for d in configured["diagnostics"] if d["code"] == "KL201") == ["h100", "xe-lp"]


def test_a_run_that_checked_no_file_warns_instead_of_passing(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "README.md").write_text("nothing to lint\n")
    proc = run_kernlint("docs", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 0
    assert lines(proc) == ["No files were checked."]
    assert proc.stderr.decode() == (
        "kernlint: warning: no file was checked under docs (no C, C++ or Fortran source found there, "
        "or every one is excluded)\n"
    )
    named = run_kernlint("docs/README.md", "--no-cache", cwd=tmp_path)
    assert "no file was checked" in named.stderr.decode()
    # a file kernlint does not read is an info in the summary, not an "error:"
    assert "info: docs/README.md: not a C, C++ or Fortran source file (by extension); skipped" in lines(named)


def test_fixable_count_and_show_fixes(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    proc = run_kernlint("k.cpp", "--no-cache", "--show-fixes", cwd=tmp_path)
    out = lines(proc)
    assert out[-5:] == [
        "Found 1 diagnostic (0 errors, 1 warning) in 1 of 1 file, and 1 info (--show-infos lists it).",
        "[*] 1 fixable with `--fix`",
        "1 fix(es) available (--fix applies the safe ones, --unsafe-fixes the others):",
        "- k.cpp:",
        "    1 × KL001 (unused-suppression)",
    ]
    fixed = run_kernlint("k.cpp", "--no-cache", "--fix", "--show-fixes", cwd=tmp_path)
    assert lines(fixed)[-4:] == [
        "Found 1 diagnostic (0 errors, 1 warning, 0 infos) in 1 of 1 file.",
        "Fixed 1 finding(s):",
        "- k.cpp:",
        "    1 × KL001 (unused-suppression)",
    ]


def test_json_lines_and_junit(tmp_path: Path) -> None:
    tree(tmp_path)
    proc = run_kernlint("src", "--format", "json-lines", "--no-cache", cwd=tmp_path)
    records = [json.loads(line) for line in lines(proc)]
    full = json.loads(run_kernlint("src", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    assert records == full["diagnostics"] and len(records) == 4
    junit = ElementTree.fromstring(run_kernlint(".", "--format", "junit", "--no-cache", cwd=tmp_path).stdout)
    assert junit.tag == "testsuites" and junit.get("failures") == "6" and junit.get("tests") == "6"
    suites = {suite.get("name", ""): suite for suite in junit}
    assert sorted(suites) == ["src/a.cpp", "src/gen/b.cpp", "third/c.cpp"]
    cases = {case.get("name", ""): case for case in suites["src/a.cpp"]}
    assert sorted(cases) == ["KL001 unused-suppression", "KL101 buffer-in-loop"]
    case = cases["KL001 unused-suppression"]
    assert case.get("line") == "6" and case.get("classname") == "src/a.cpp"
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "info" and "unused suppression" in (failure.text or "")


def test_no_timings_makes_json_byte_reproducible(tmp_path: Path) -> None:
    tree(tmp_path)
    runs = [run_kernlint("src", "--format", "json", "--no-cache", "--no-timings", cwd=tmp_path).stdout for _ in "ab"]
    assert runs[0] == runs[1] and "elapsed_s" not in json.loads(runs[0])["summary"]
    assert (
        "elapsed_s" in json.loads(run_kernlint("src", "--format", "json", "--no-cache", cwd=tmp_path).stdout)["summary"]
    )


def test_explain_a_file_that_does_not_exist(tmp_path: Path) -> None:
    proc = run_kernlint("explain", "missing.cpp:3", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.decode() == "kernlint: error: missing.cpp: no such file\n"
    (tmp_path / "dir").mkdir()
    assert "a directory, not a file" in run_kernlint("explain", "dir:3", cwd=tmp_path).stderr.decode()


def test_rule_as_json(tmp_path: Path) -> None:
    one = json.loads(run_kernlint("rule", "KL202", "--output-format", "json", cwd=tmp_path).stdout)
    assert one["code"] == "KL202" and one["name"] == "low-occupancy" and one["per_device"] is True
    assert one["fix"] == "never" and one["languages"] == ["sycl"]
    assert one["options"] == {"min-occupancy-pct": 75.0} and one["url"] == f"{RULES_URL}#kl202-low-occupancy"
    assert one["explanation"].startswith("A work-group that must live on one Xe-core/SM")
    every = json.loads(run_kernlint("rule", "--output-format", "json", cwd=tmp_path).stdout)
    assert [r["code"] for r in every][:3] == ["KL000", "KL001", "KL101"] and every[3]["code"] == "KL102"
    assert run_kernlint("rule", "--format", "json", "KL999", cwd=tmp_path).returncode == 2


def test_text_report_links_each_finding_to_its_rule_documentation(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    out = lines(run_kernlint("k.cpp", "--no-cache", "--show-infos", cwd=tmp_path))
    assert f"  docs: {RULES_URL}#kl101-buffer-in-loop" in out and f"  docs: {RULES_URL}#kl001-unused-suppression" in out
    sarif = json.loads(run_kernlint("k.cpp", "--format", "sarif", "--no-cache", cwd=tmp_path).stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert all(rule["helpUri"] == f"{RULES_URL}#{rule['id'].lower()}-{rule['name']}" for rule in rules)


# --------------------------------------------------------------------------- the terminal's width


LONG = (
    "work-group barrier `group_barrier` runs inside a loop whose trip count differs between work-items "
    "(`i < n`, line 71, from `it.get_global_id(0)`), so work-items reach the barrier a different number of times"
)


def test_a_message_is_never_cut_inside_parentheses() -> None:
    head, rest = headline(LONG)
    assert head == "work-group barrier `group_barrier` runs inside a loop whose trip count differs between work-items …"
    assert rest.startswith("… (`i < n`, line 71")
    bracket = "a finding whose message runs on and on before its cost " + "[" + "x " * 60 + "]: and then a clause"
    head, rest = headline(bracket)
    assert head == "a finding whose message runs on and on before its cost …" and rest.startswith("… [x x")
    assert headline("short (but unbalanced") == ("short (but unbalanced", "")


def test_columns_is_honoured(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)

    def first_line(columns: str) -> str:
        proc = run_kernlint("k.cpp", "--no-cache", "--format", "concise", cwd=tmp_path, env={"COLUMNS": columns})
        return next(line for line in lines(proc) if ": KL101 " in line)

    message = json.loads(run_kernlint("k.cpp", "--no-cache", "--format", "json", cwd=tmp_path).stdout)
    whole = next(d["message"] for d in message["diagnostics"] if d["code"] == "KL101")
    assert len(whole) > 120  # a pipe keeps 120 characters of it ...
    assert len(first_line("")) < len("k.cpp:4:5: KL101 [warning] ") + 125
    assert first_line("400").endswith(whole)  # ... a wide terminal all of it
    assert len(first_line("80")) <= 80


def test_the_text_report_counts_infos_and_lists_them_on_request(tmp_path: Path) -> None:
    """A first run shows errors and warnings; infos are counted, listed with `--show-infos` or the
    `show-infos` config key (`--no-show-infos` wins over it), and always in JSON."""
    (tmp_path / "k.cpp").write_bytes(LOOP)
    default = lines(run_kernlint("k.cpp", "--no-cache", cwd=tmp_path))
    assert not any("KL001" in line for line in default)
    assert default[-2] == "Found 1 diagnostic (0 errors, 1 warning) in 1 of 1 file, and 1 info (--show-infos lists it)."
    shown = lines(run_kernlint("k.cpp", "--no-cache", "--show-infos", cwd=tmp_path))
    assert any(line.startswith("k.cpp:6:") and "KL001 [info]" in line for line in shown)
    assert shown[-2] == "Found 2 diagnostics (0 errors, 1 warning, 1 info) in 1 of 1 file."
    (tmp_path / "kernlint.toml").write_text("show-infos = true\n")
    assert any("KL001 [info]" in line for line in lines(run_kernlint("k.cpp", "--no-cache", cwd=tmp_path)))
    overridden = lines(run_kernlint("k.cpp", "--no-cache", "--no-show-infos", cwd=tmp_path))
    assert not any("KL001" in line for line in overridden)
    (tmp_path / "kernlint.toml").write_text('show-infos = "yes"\n')
    broken = run_kernlint("k.cpp", "--no-cache", cwd=tmp_path)
    assert broken.returncode == 2 and b"'show-infos' must be true or false" in broken.stderr
    (tmp_path / "kernlint.toml").unlink()
    failing = run_kernlint("k.cpp", "--no-cache", "--fail-on", "info", cwd=tmp_path)  # what fails the run is shown
    assert any("KL001 [info]" in line for line in lines(failing))
    report = json.loads(run_kernlint("k.cpp", "--no-cache", "--format", "json", cwd=tmp_path).stdout)
    assert sorted(d["code"] for d in report["diagnostics"]) == ["KL001", "KL101"]
    statistics = lines(run_kernlint("k.cpp", "--no-cache", "--statistics", cwd=tmp_path))
    assert statistics[-1] == "and 1 info not counted here (--show-infos counts them)"


def test_a_run_with_only_infos_passes_and_says_how_many(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP.replace(b"    sycl::buffer<float> b(p, sycl::range<1>(16));\n", b""))
    proc = run_kernlint("k.cpp", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 0
    assert lines(proc)[-2:] == [
        "All checks passed (1 file; no kernel was found in it), with 1 info (--show-infos lists it).",
        "[*] 1 fixable with `--fix`",
    ]
