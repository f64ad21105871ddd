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
