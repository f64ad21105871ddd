"""KL001 unused-suppression: stale directives reported, with a safe fix where the comment holds nothing else."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_kernlint

STALE = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  q.wait(); // kernlint: ignore[KL101]
  // kernlint: ignore-next-line
  int x = 0;
  q.wait(); /* kernlint: ignore[KL101] */ q.wait();
  q.wait(); // kernlint: ignore[KL101] because reasons
}
"""


def test_unused_suppressions_reported_with_safe_fixes(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(STALE)
    report = json.loads(run_kernlint("a.cpp", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    found = [(d["line"], d["code"], d["fix"] is not None) for d in report["diagnostics"]]
    assert found == [(3, "KL001", True), (4, "KL001", True), (6, "KL001", True), (7, "KL001", False)]
    assert all(d["severity"] == "info" for d in report["diagnostics"])


LISTS = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p, int n) {
  for (int i = 0; i < n; ++i) {
    sycl::buffer<float, 1> b(p, sycl::range<1>(n)); // kernlint: ignore[KL101, KL501]
    sycl::buffer<float, 1> c(p, sycl::range<1>(n)); // kernlint: ignore[KL101,KL999]
    q.wait(); // kernlint: ignore[KL999]
    sycl::buffer<float, 1> d(p, sycl::range<1>(n)); // kernlint: ignore[KL1, KL101]
  }
}
"""

LOOKALIKES = """#include <sycl/sycl.hpp>
// kernlint reports buffers made in loops (prose, not a directive)
void f(sycl::queue &q, float *p, int n) {
  for (int i = 0; i < n; ++i) {
    sycl::buffer<float, 1> d(p, sycl::range<1>(n)); // kernlint ignore[KL101]
    sycl::buffer<float, 1> e(p, sycl::range<1>(n)); // kernlint: ignroe[KL101]
    // kernlint:ignore-nextline
    sycl::buffer<float, 1> g(p, sycl::range<1>(n)); /* kernlint: ignore-fiel */
  }
}
"""


def _report(tmp_path: Path, text: str, *extra: str) -> list[dict]:
    (tmp_path / "a.cpp").write_text(text)
    out = run_kernlint("a.cpp", "--format", "json", "--no-cache", "--exit-zero", *extra, cwd=tmp_path).stdout
    return [d for d in json.loads(out)["diagnostics"] if d["code"] == "KL001"]


def test_a_code_of_a_list_that_suppressed_nothing_or_names_no_rule_is_reported_and_dropped(tmp_path: Path) -> None:
    """As ruff's RUF100: the used code stays, the unused or unknown one goes; a list of unknown codes
    only is an unused directive."""
    found = {d["line"]: d for d in _report(tmp_path, LISTS)}
    assert sorted(found) == [4, 5, 6]  # line 7: KL1 and KL101 both hide the KL101 finding
    assert "`KL501` suppresses nothing on this line; remove it from the list" in found[4]["message"]
    assert found[4]["evidence"]["unused"] == ["KL501"] and found[4]["fix"]["safe"]
    assert "`KL999` names no rule" in found[5]["message"] and found[5]["evidence"]["unknown"] == ["KL999"]
    assert found[6]["message"].startswith("unused suppression: `kernlint: ignore[KL999]`")
    assert "(`KL999` names no rule)" in found[6]["message"]
    run_kernlint("a.cpp", "--fix", "--no-cache", "--exit-zero", cwd=tmp_path)
    fixed = (tmp_path / "a.cpp").read_text().splitlines()
    assert fixed[3].endswith("// kernlint: ignore[KL101]") and fixed[4].endswith("// kernlint: ignore[KL101]")
    assert fixed[5] == "    q.wait();"


def test_a_comment_written_like_a_directive_is_a_warning_naming_the_directive_meant(tmp_path: Path) -> None:
    found = [(d["line"], d["severity"], d["evidence"]["meant"], d["fix"]) for d in _report(tmp_path, LOOKALIKES)]
    assert found == [
        (5, "warning", "kernlint: ignore[KL101]", None),
        (6, "warning", "kernlint: ignore[KL101]", None),
        (7, "warning", "kernlint: ignore-next-line", None),
        (8, "warning", "kernlint: ignore-file", None),
    ]


def test_ignore_nextline_is_not_read_as_a_bare_ignore() -> None:
    """`ignore-nextline` was read as `ignore` (every code on its own line) followed by text."""
    from kernlint.suppression import parse_suppressions

    parsed = parse_suppressions("x; // kernlint: ignore-nextline\n")
    assert parsed.directives == [] and [m.meant for m in parsed.near_misses] == ["kernlint: ignore-next-line"]
