"""What a C/C++ OpenMP branch's loops assign (`RawBranch.varying`: the names assigned inside the loops
around it, or the loop itself) is read once per loop of the region, not again for every branch in
it. For every statement of the OpenMP corpus files taken as a region, each branch's names must be
those the assignments inside its loops give."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter

from kernlint.frontends.cpp.openmp.device import _ancestors_within, device_code
from kernlint.frontends.cpp.openmp.nodes import LOOP_TYPES
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.frontends.openmp.device_code import RawAssign, RawBranch

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "openmp"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp"))
_NESTED = b"""\
void f(float *a, int n) {
  for (int i = 0; i < n; i++) {
    int k = i;
    while (k > 0) { if (a[k] > 0) k -= 2; else k--; }
    for (int j = 0; j < n; j++) { int t = j * k; if (t & 1) a[j] = t; }
    if (i % 2) n--;
  }
  do { n++; } while (n < 10 ? n & 1 : 0);
}
"""


def _regions(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type in ("compound_statement", *LOOP_TYPES):
            found.append(node)
        stack.extend(node.named_children)
    return found


def _check(path: str, data: bytes) -> int:
    root = CppUnit(path, data).root
    checked = 0
    for region in _regions(root):
        statements = device_code(region, frozenset())
        assigns = [s for s in statements if isinstance(s, RawAssign)]
        for branch in (s for s in statements if isinstance(s, RawBranch)):
            node = region.descendant_for_byte_range(branch.span.start_byte, branch.span.end_byte)
            assert node is not None
            loops = [a for a in _ancestors_within(node, region, include_self=True) if a.type in LOOP_TYPES]
            expected = sorted(
                {
                    a.name
                    for a in assigns
                    for loop in loops
                    if loop.start_byte <= a.span.start_byte and a.span.end_byte <= loop.end_byte
                }
            )
            assert branch.varying == tuple(expected), (path, branch.span)
            checked += 1
    return checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_regions(path: Path) -> None:
    _check(str(path), path.read_bytes())


def test_nested_loops() -> None:
    assert _check("nested.cpp", _NESTED) > 10
