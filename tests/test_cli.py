"""The command line end to end, through a real subprocess: formats, exit codes, options, cache."""

from __future__ import annotations

import json
import marshal
from pathlib import Path

from conftest import REPO, cache_folder, run_json, run_kernlint

BAD = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""
GOOD = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  sycl::buffer<float> b(p, sycl::range<1>(16));
  for (int i = 0; i < 4; ++i) { }
}
"""


def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.cpp").write_bytes(BAD)
    (tmp_path / "src" / "good.cpp").write_bytes(GOOD)
    return tmp_path


def test_exit_codes(tmp_path: Path) -> None:
    project(tmp_path)
    assert run_kernlint("src/good.cpp", "--no-cache", cwd=tmp_path).returncode == 0
    assert run_kernlint("src/bad.cpp", "--no-cache", cwd=tmp_path).returncode == 1
    assert run_kernlint("src/bad.cpp", "--no-cache", "--exit-zero", cwd=tmp_path).returncode == 0
    assert run_kernlint("src/bad.cpp", "--no-cache", "--fail-on", "error", cwd=tmp_path).returncode == 0
    usage = run_kernlint("check", "--format", "yaml", cwd=tmp_path)
    assert usage.returncode == 2 and b"invalid choice" in usage.stderr
    bad_device = run_kernlint("src", "--device", "no-such-gpu", cwd=tmp_path)
    assert bad_device.returncode == 2 and b"no-such-gpu" in bad_device.stderr
    bad_select = run_kernlint("src", "--select", "E501", cwd=tmp_path)
    assert bad_select.returncode == 2 and b"not a rule code" in bad_select.stderr


def test_default_command_and_path(tmp_path: Path) -> None:
    project(tmp_path)
    proc = run_kernlint("--no-cache", cwd=tmp_path)
    text = proc.stdout.decode()
    assert proc.returncode == 1
    assert "src/bad.cpp:4:5: KL101" in text and "good.cpp" not in text.split("Found")[0]
    assert "Found 1 diagnostic" in text


def test_json_output_matches_spec_shape(tmp_path: Path) -> None:
    project(tmp_path)
    _code, report = run_json("src", cwd=tmp_path)
    assert list(report) == ["version", "tool", "devices", "files", "diagnostics", "summary"]
    assert report["version"] == 1 and report["tool"]["name"] == "kernlint" and report["devices"] == ["xe-hpc"]
    assert [f["path"] for f in report["files"]] == ["src/bad.cpp", "src/good.cpp"]
    (diag,) = report["diagnostics"]
    assert (diag["path"], diag["line"], diag["column"], diag["code"], diag["name"], diag["severity"]) == (
        "src/bad.cpp",
        4,
        5,
        "KL101",
        "buffer-in-loop",
        "warning",
    )
    assert diag["device"] is None and diag["language"] == "sycl" and diag["evidence"]["loop_line"] == 3
    assert report["summary"]["by_code"] == {"KL101": 1} and report["summary"]["files"] == 2


def test_select_ignore_and_statistics(tmp_path: Path) -> None:
    project(tmp_path)
    _, ignored = run_json("src", "--ignore", "KL1", cwd=tmp_path)
    assert ignored["diagnostics"] == []
    _, selected = run_json("src", "--select", "KL101", cwd=tmp_path)
    assert len(selected["diagnostics"]) == 1
    stats = run_kernlint("src", "--no-cache", "--statistics", "--quiet", cwd=tmp_path).stdout.decode()
    table = [line for line in stats.splitlines() if "buffer-in-loop" in line and "KL101" in line]
    assert len(table) == 1 and table[0].split()[-1] == "1"
    # without --quiet, still only the table: not the listing before it, nor the summary
    assert run_kernlint("src", "--no-cache", "--statistics", cwd=tmp_path).stdout.decode() == stats


def test_concise_output_and_its_ruff_spelling(tmp_path: Path) -> None:
    project(tmp_path)
    concise = run_kernlint("src", "--no-cache", "--output-format", "concise", cwd=tmp_path)
    assert concise.returncode == 1
    lines = concise.stdout.decode().splitlines()
    assert lines[0].startswith("src/bad.cpp:4:5: KL101 [warning] ") and "\n" not in lines[0]
    assert lines[1:] == ["", "Found 1 diagnostic (0 errors, 1 warning, 0 infos) in 1 of 2 files."]
    assert run_kernlint("src", "--no-cache", "--format", "concise", cwd=tmp_path).stdout == concise.stdout


def test_config_file_is_honoured_and_overridden(tmp_path: Path) -> None:
    project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.kernlint]\nignore = ["KL101"]\n')
    _, report = run_json("src", cwd=tmp_path)
    assert report["diagnostics"] == []
    _, report = run_json("src", "--select", "KL101", cwd=tmp_path)
    assert len(report["diagnostics"]) == 1  # the more specific selection on the command line wins
    (tmp_path / "pyproject.toml").write_text("[tool.kernlint]\nbogus = 1\n")
    proc = run_kernlint("src", cwd=tmp_path)
    assert proc.returncode == 2 and b"unknown key 'bogus'" in proc.stderr


def test_sarif_and_github_formats(tmp_path: Path) -> None:
    project(tmp_path)
    sarif = json.loads(run_kernlint("src", "--format", "sarif", "--no-cache", cwd=tmp_path).stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    assert any(r["id"] == "KL101" for r in run["tool"]["driver"]["rules"])
    (result,) = run["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "src/bad.cpp" and location["region"]["startLine"] == 4
    assert result["partialFingerprints"]
    github = run_kernlint("src", "--format", "github", "--no-cache", cwd=tmp_path).stdout.decode()
    assert github.startswith("::warning file=src/bad.cpp,line=4,col=5,")
    assert "title=KL101::" in github


def test_output_file_and_stdin_filename(tmp_path: Path) -> None:
    project(tmp_path)
    (tmp_path / "out").mkdir()
    proc = run_kernlint("src", "--format", "json", "--no-cache", "--output", "out/report.json", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == b""
    assert json.loads((tmp_path / "out" / "report.json").read_text())["summary"]["diagnostics"] == 1
    piped = run_kernlint("--stdin-filename", "editor/buffer.cpp", "--format", "json", cwd=tmp_path, stdin=BAD)
    report = json.loads(piped.stdout)
    assert [(d["path"], d["line"]) for d in report["diagnostics"]] == [("editor/buffer.cpp", 4)]


STALE = b"#include <sycl/sycl.hpp>\nvoid g(sycl::queue &q) {\n  q.wait(); // kernlint: ignore[KL101]\n}\n"


def test_stdin_dash_names_and_code_frames(tmp_path: Path) -> None:
    """`-` reads stdin (named `-`, or as --stdin-filename says), and code frames quote stdin, not a file
    of the same name on disk."""
    (tmp_path / "buffer.cpp").write_bytes(b"// what is on disk\n" * 10)
    for args, name in (
        (("-",), "-"),
        (("-", "--stdin-filename", "buffer.cpp"), "buffer.cpp"),
        (("--stdin-filename", "buffer.cpp"), "buffer.cpp"),
    ):
        proc = run_kernlint(*args, "--no-cache", cwd=tmp_path, stdin=BAD)
        out = proc.stdout.decode()
        assert proc.returncode == 1 and out.startswith(f"{name}:4:5: KL101"), out
        assert " 4 |     sycl::buffer<float> b(p, sycl::range<1>(16));" in out and "what is on disk" not in out
    mixed = run_kernlint("-", "buffer.cpp", cwd=tmp_path, stdin=BAD)
    assert mixed.returncode == 2 and b"cannot be combined" in mixed.stderr


def test_fix_and_diff_on_stdin_write_to_stdout(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(b"// on disk: must not change\n")
    diff = run_kernlint("-", "--stdin-filename", "k.cpp", "--diff", "--no-cache", cwd=tmp_path, stdin=STALE)
    assert diff.returncode == 1
    assert diff.stdout.decode().splitlines()[:2] == ["--- a/k.cpp", "+++ b/k.cpp"]
    assert "-  q.wait(); // kernlint: ignore[KL101]" in diff.stdout.decode()
    fixed = run_kernlint("-", "--stdin-filename", "k.cpp", "--fix", "--no-cache", cwd=tmp_path, stdin=STALE)
    assert fixed.stdout == STALE.replace(b" // kernlint: ignore[KL101]", b"")
    assert fixed.returncode == 0 and b"All checks passed" in fixed.stderr
    unfixable = run_kernlint("-", "--fix", "--no-cache", cwd=tmp_path, stdin=BAD)
    assert unfixable.stdout == BAD and unfixable.returncode == 1 and b"-:4:5: KL101" in unfixable.stderr
    clean = run_kernlint("-", "--diff", "--no-cache", cwd=tmp_path, stdin=BAD)
    assert clean.returncode == 0 and clean.stdout == b""
    assert (tmp_path / "k.cpp").read_bytes() == b"// on disk: must not change\n"


def test_cache_is_used_and_invalidated(tmp_path: Path) -> None:
    project(tmp_path)
    first = json.loads(run_kernlint("src", "--format", "json", cwd=tmp_path).stdout)
    assert list(cache_folder(tmp_path).rglob("index-*.bin"))
    second = json.loads(run_kernlint("src", "--format", "json", cwd=tmp_path).stdout)
    assert first["diagnostics"] == second["diagnostics"]
    (tmp_path / "src" / "good.cpp").write_bytes(BAD)  # content change: new key
    third = json.loads(run_kernlint("src", "--format", "json", cwd=tmp_path).stdout)
    assert len(third["diagnostics"]) == 2


def test_cache_follows_included_headers(tmp_path: Path) -> None:
    (tmp_path / "sizes.h").write_text("#define STEPS 4\n")
    kernel = b"void g(sycl::queue &q, int *p) { q.parallel_for(sycl::range<1>(STEPS), [=](sycl::id<1> i) {}); }\n"
    (tmp_path / "k.cpp").write_bytes(b'#include "sizes.h"\n' + BAD + kernel)
    first = json.loads(run_kernlint("k.cpp", "--format", "json", cwd=tmp_path).stdout)
    assert len(first["diagnostics"]) == 1
    index = next(cache_folder(tmp_path).rglob("index-*.bin"))
    [entry] = marshal.loads(index.read_bytes().partition(b"\n")[2])[
        "files"
    ].values()  # how a change is noticed: tests/test_cache.py
    assert entry["dependencies"] and entry["dependencies"][0][0].endswith("sizes.h")


def test_rule_command(tmp_path: Path) -> None:
    listing = run_kernlint("rule").stdout.decode()
    assert "KL101" in listing and "buffer-in-loop" in listing
    lines = {line.split()[0]: line for line in listing.splitlines()}
    assert "  fix: never  " in lines["KL101"] and "  fix: sometimes  " in lines["KL102"]
    doc = run_kernlint("rule", "KL101").stdout.decode()
    for section in ("What it does", "Why it matters", "Example", "Fix", "Occupancy basis"):
        assert section in doc
    assert doc.startswith("KL101 buffer-in-loop (warning)\n\nNo fix is available.\n\n")
    fixing = run_kernlint("rule", "KL102").stdout.decode()
    assert fixing.startswith("KL102 accessor-mode (warning)\n\nFix is sometimes available.\n\n")
    assert "\nFix safety\n" in fixing
    assert run_kernlint("rule", "buffer-in-loop").stdout.decode() == doc
    assert run_kernlint("rule", "KL999").returncode == 2


def test_python_dash_m_and_version() -> None:
    proc = run_kernlint("--version", cwd=REPO)
    assert proc.returncode == 0 and proc.stdout.decode().startswith("kernlint ")
