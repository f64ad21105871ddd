"""`benchmarks/typed_redundancy.py` counts the device-code facts a statement typed into host code changes,
spans aside: none for a statement no kernel reads, and the new kernel's for one that launches a kernel."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import typed_redundancy

PROGRAM = b"""\
#include <sycl/sycl.hpp>
constexpr int N = 1024;

int main() {
  sycl::queue q;
  float *out = sycl::malloc_device<float>(N, q);
  int unused = 0;
  q.parallel_for(sycl::nd_range<1>(N, 64), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    if (it.get_local_id(0) < 32) out[i] = 0.0f;
  }).wait();
  sycl::free(out, q);
  return 0;
}
"""
BEFORE_UNUSED = PROGRAM.split(b"\n").index(b"  int unused = 0;") + 1  # (counted from 1)
LAUNCH = "q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { if (i[0] % 2) out[i] = 1.0f; });"


def test_typed_versions_are_each_prefix_on_its_own_line() -> None:
    versions = typed_redundancy.typed_versions(PROGRAM, BEFORE_UNUSED, "int k;")
    assert [prefix for prefix, _text in versions] == ["i", "in", "int", "int ", "int k", "int k;"]
    lines = versions[-1][1].split(b"\n")
    assert lines[BEFORE_UNUSED - 1] == b"int k;" and lines[BEFORE_UNUSED] == b"  int unused = 0;"


def test_a_statement_no_kernel_reads_changes_no_fact() -> None:
    found = typed_redundancy.changed_facts("p.cpp", PROGRAM, BEFORE_UNUSED, "int kernlint_n0 = f(a, 0);")
    assert len(found) == len("int kernlint_n0 = f(a, 0);")
    assert all(not any(counts.values()) for _prefix, counts in found)


def test_a_typed_launch_brings_its_kernels_facts() -> None:
    *_typing, (prefix, counts) = typed_redundancy.changed_facts("p.cpp", PROGRAM, BEFORE_UNUSED, LAUNCH)
    assert prefix == LAUNCH
    assert counts["branches"] == 1 and counts["memory_accesses"] >= 1
