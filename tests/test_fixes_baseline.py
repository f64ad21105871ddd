"""--fix / --unsafe-fixes / --diff, baselines, and the unused-suppression rule (KL001)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_kernlint
from kernlint.cache import digest
from kernlint.diagnostics import Diagnostic, Edit, Fix, Severity
from kernlint.fixes import apply_edits, write_source
from kernlint.output import WriteError

STALE = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  q.wait(); // kernlint: ignore[KL101]
  // kernlint: ignore-next-line
  int x = 0;
  q.wait(); /* kernlint: ignore[KL101] */ q.wait();
  q.wait(); // kernlint: ignore[KL101] because reasons
}
"""
LOOP = """#include <sycl/sycl.hpp>
void g(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""


def diag(line: int, fix: Fix) -> Diagnostic:
    return Diagnostic("a.cpp", line, 1, line, 1, "KL999", "x", Severity.INFO, "m", fix=fix)


def test_apply_edits_in_order_and_skips_overlaps() -> None:
    text = "abc\ndef\nghi\n"
    fixes = [
        Fix("f1", (Edit(1, 2, 1, 3, "B"),)),
        Fix("f2", (Edit(3, 1, 3, 4, "GHI"), Edit(1, 1, 1, 1, ">"))),
        Fix("f3", (Edit(1, 1, 1, 4, "zzz"),)),
        Fix("f4", (Edit(2, 1, 3, 1, ""),)),
    ]
    first, second, overlapping, deleting = (diag(line, fix) for line, fix in zip((1, 3, 1, 2), fixes))
    out, applied, skipped = apply_edits(text, list(zip((first, second, overlapping, deleting), fixes)))
    assert out == ">aBc\nGHI\n"
    assert applied == [first, second, deleting] and skipped == [overlapping]


def test_diff_changes_nothing_and_fix_rewrites_then_reports_the_rest(tmp_path: Path) -> None:
    source = tmp_path / "a.cpp"
    source.write_text(STALE)
    untouched = tmp_path / "b.cpp"
    untouched.write_text(LOOP)
    before_mtime = untouched.stat().st_mtime_ns
    diff = run_kernlint(".", "--diff", "--no-cache", cwd=tmp_path)
    assert diff.returncode == 1 and source.read_text() == STALE
    assert "-  // kernlint: ignore-next-line" in diff.stdout.decode() and "+++ b/a.cpp" in diff.stdout.decode()
    fixed = run_kernlint(".", "--fix", "--no-cache", "--format", "json", cwd=tmp_path)
    assert b"fixed 3 finding(s) in a.cpp" in fixed.stderr
    assert source.read_text() == (
        "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q, float *p) {\n  q.wait();\n"
        "  int x = 0;\n  q.wait(); q.wait();\n"
        "  q.wait(); // kernlint: ignore[KL101] because reasons\n}\n"
    )
    remaining = json.loads(fixed.stdout)["diagnostics"]
    assert [(Path(d["path"]).name, d["line"], d["code"]) for d in remaining] == [
        ("a.cpp", 6, "KL001"),
        ("b.cpp", 4, "KL101"),
    ]
    assert untouched.stat().st_mtime_ns == before_mtime  # a file without fixes is never rewritten
    assert not list(tmp_path.glob(".*.tmp"))


FIXED = STALE.replace(" // kernlint: ignore[KL101]\n  // kernlint: ignore-next-line\n", "\n").replace(
    " /* kernlint: ignore[KL101] */", ""
)


def test_fix_writes_through_a_symbolic_link_to_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "k.cpp").write_text(STALE)
    os.symlink("real/k.cpp", tmp_path / "link.cpp")
    proc = run_kernlint("link.cpp", "--fix", "--no-cache", cwd=tmp_path)
    assert b"fixed 3 finding(s) in link.cpp" in proc.stderr, proc.stderr.decode()
    assert (tmp_path / "link.cpp").is_symlink() and os.readlink(tmp_path / "link.cpp") == "real/k.cpp"
    assert (real / "k.cpp").read_text() == FIXED
    assert not list(tmp_path.rglob(".*.tmp"))


def test_fix_keeps_hard_links_and_refuses_a_changed_file(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(STALE)
    os.link(tmp_path / "a.cpp", tmp_path / "b.hpp")  # a header name kernlint is not asked about
    inode = (tmp_path / "a.cpp").stat().st_ino
    proc = run_kernlint("a.cpp", "--fix", "--no-cache", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    assert (tmp_path / "a.cpp").stat().st_ino == inode and (tmp_path / "a.cpp").stat().st_nlink == 2
    assert (tmp_path / "b.hpp").read_text() == FIXED
    with pytest.raises(WriteError, match="changed while it was being fixed"):
        write_source(str(tmp_path / "a.cpp"), STALE, digest(STALE.encode()))  # it holds FIXED now
    assert (tmp_path / "b.hpp").read_text() == FIXED


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs patch(1)")
@pytest.mark.parametrize("how", ["relative", "absolute", "outside"])
def test_diff_is_a_patch_that_patch_p1_applies(tmp_path: Path, how: str) -> None:
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "a.cpp").write_text(STALE)
    (tmp_path / "elsewhere.cpp").write_text(STALE)
    target = {
        "relative": "src/a.cpp",
        "absolute": str(work / "src" / "a.cpp"),
        "outside": str(tmp_path / "elsewhere.cpp"),
    }[how]
    diff = run_kernlint(target, "--diff", "--no-cache", cwd=work)
    assert diff.returncode == 1, diff.stderr.decode()
    header = diff.stdout.decode().splitlines()[0]
    expected = "src/a.cpp" if how != "outside" else str(tmp_path / "elsewhere.cpp").lstrip("/")
    assert header == f"--- a/{expected}"
    patch_from = work if how != "outside" else Path("/")  # outside the working directory: from the root
    applied = subprocess.run(
        ["patch", "-p1", "--dry-run"], input=diff.stdout, cwd=patch_from, capture_output=True, timeout=60
    )
    assert applied.returncode == 0, applied.stdout.decode() + applied.stderr.decode()


def test_baseline_survives_line_shifts_and_reports_new_findings(tmp_path: Path) -> None:
    source = tmp_path / "k.cpp"
    source.write_text(LOOP)
    recorded = run_kernlint("k.cpp", "--baseline", "kl-baseline.json", "--update-baseline", "--no-cache", cwd=tmp_path)
    assert recorded.returncode == 0 and b"recorded 1 finding" in recorded.stderr
    baseline = json.loads((tmp_path / "kl-baseline.json").read_text())
    assert baseline["findings"][0]["code"] == "KL101" and baseline["findings"][0]["path"] == "k.cpp"
    # Lines added above: the old finding moved but is still the same finding.
    source.write_text("// a new header comment\n\n" + LOOP)
    same = run_kernlint("k.cpp", "--baseline", "kl-baseline.json", "--no-cache", "--format", "json", cwd=tmp_path)
    assert same.returncode == 0 and json.loads(same.stdout)["diagnostics"] == []
    # A second copy of the problem is new.
    source.write_text("// a new header comment\n\n" + LOOP + LOOP.replace("void g(", "void h("))
    new = run_kernlint("k.cpp", "--baseline", "kl-baseline.json", "--no-cache", "--format", "json", cwd=tmp_path)
    assert new.returncode == 1 and len(json.loads(new.stdout)["diagnostics"]) == 1


def test_baseline_errors(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text(LOOP)
    missing = run_kernlint("k.cpp", "--baseline", "nope.json", cwd=tmp_path)
    assert missing.returncode == 2 and b"baseline not found" in missing.stderr
    (tmp_path / "bad.json").write_text("{}")
    bad = run_kernlint("k.cpp", "--baseline", "bad.json", cwd=tmp_path)
    assert bad.returncode == 2 and b"not a kernlint baseline" in bad.stderr
    lonely = run_kernlint("k.cpp", "--update-baseline", cwd=tmp_path)
    assert lonely.returncode == 2 and b"needs --baseline" in lonely.stderr
