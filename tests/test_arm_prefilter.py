"""Arm costs skip two walks with what the file's queries found (`ArmCounter(found=…)`): a node holding
none of the file's loops has no trip count below it (`_loop_extent`), and one holding no write of a
name its loop tests does not reassign it (`steers_loop`). Over the corpus, its files cut short (trees
with errors), and code made to hold walks, searches, spins and constant nests, the answers must be
those of the full walks."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.cpp.dependence.nodes import Node
from kernlint.frontends.cpp.device.arms import ArmCounter, arm_nodes
from kernlint.frontends.cpp.unit import CppUnit

_CORPUS = Path(__file__).parent.parent / "corpus"
_WALKS = b"""
#define N 64
void k(float *a, int *next, int n, int lid, sycl::nd_item<1> it) {
  int ix = lid, found = 0;
  while (ix != -1) ix = next[ix];
  for (int s = n; s > 0; s >>= 1) { if (lid < s) a[lid] += a[lid + s]; }
  for (int i = lid; i < n; i += 16) {
    if (a[i] > 0) { found = i; break; }
    if (a[i] < -1) n = i;
    if (a[i] == 3) { if (a[i + 1]) i++; }
    for (int j = 0; j < N; ++j) for (int m = 0; m < 32; ++m) a[j] += m;
    for (int r = lid; r < it.get_local_range(0); r++) a[r] = 0;
  }
  do { found += 1; } while (found < n);
  while (a[found] == 0) {}
  for (int p = 0; p < n; p = next[p]) a[p] = 1;
  for (int q = 0; q < n; q++) { if (q > 3) (q) = 4; int z = [&] { n = 2; return n; }(); }
  switch (n) { case 1: for (int t = 0; t < 20; ++t) a[t] = t; break; default: n = 0; }
  int w = n > 4 ? [&] { for (int u = 0; u < 100; ++u) a[u] = 0; return 1; }() : 0;
}
"""


def _sources() -> list[tuple[str, bytes]]:
    files = sorted((_CORPUS / "sycl").glob("*.cpp")) + sorted((_CORPUS / "openmp").glob("*.c*"))
    sources = [("walks", _WALKS)] + [(p.name, p.read_bytes()) for p in files]
    # the same files cut short: trees with errors and missing nodes
    sources += [(f"{name}[:{len(data) * 2 // 3}]", data[: len(data) * 2 // 3]) for name, data in sources[::4]]
    return sources


# The branches and loops the counters weigh.
CONSTRUCTS = frozenset(
    {
        "if_statement",
        "conditional_expression",
        "switch_statement",
        "for_statement",
        "while_statement",
        "do_statement",
        "for_range_loop",
    }
)


def nodes_of(root: Node, types: frozenset[str] = CONSTRUCTS) -> list[Node]:
    """Every node of `types` in the tree at `root`, by a plain walk (what the counters are checked against)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type in types:
            found.append(node)
        stack.extend(node.children)
    return found


def _counters(unit: CppUnit) -> tuple[ArmCounter, ArmCounter]:
    constant = unit.constants.value
    walked = ArmCounter(lambda call: True, constant)
    found = ArmCounter(lambda call: True, constant, found=(unit.loops, unit.assignments))
    return walked, found


@pytest.mark.parametrize("name,data", _sources(), ids=lambda v: v if isinstance(v, str) else "")
def test_what_the_queries_found_answers_as_the_walks_do(name: str, data: bytes) -> None:
    unit = CppUnit(name, data)
    walked, found = _counters(unit)
    for node in nodes_of(unit.root):
        for arm in [node, *arm_nodes(node)]:
            assert found._loop_extent(arm) == walked._loop_extent(arm), (name, arm.start_point)
            assert found._extent(arm) == walked._extent(arm), (name, arm.start_point)
            assert unit.loops.holds_any(arm) == bool(unit.loops.inside(arm)), (name, arm.start_point)
        assert found.steers_loop(node) == walked.steers_loop(node), (name, node.start_point)
        assert found.costs(node) == walked.costs(node), (name, node.start_point)


def test_the_made_code_has_answers_of_every_kind_and_skips_walks() -> None:
    """The test above compares something: walks that steer and loops with long constant nests are
    found in the made code, and the counter given the queries' finds walks fewer nodes."""
    unit = CppUnit("walks.cpp", _WALKS)
    walked, found = _counters(unit)
    constructs = nodes_of(unit.root)
    steers = [found.steers_loop(node) for node in constructs]
    extents = [found._loop_extent(arm) for node in constructs for arm in arm_nodes(node)]
    assert sum(steers) >= 6 and not all(steers)
    assert (64 * 32, True) in extents and (20, False) in extents and (32, False) in extents
    for node in constructs:
        walked.steers_loop(node)
        for arm in arm_nodes(node):
            walked._loop_extent(arm)
    assert len(found._extents) < len(walked._extents)
