"""The OpenMP reader finds a region's loops, declarations and calls in the lists of a region around
it, its uses in those of its function, and the writes in a definition's scope (and what a region
assigns) in the file's list (`common.inside.NodesByPosition`), instead of running a query on each
region or scope node. For every
statement, block and function of the OpenMP corpus files, and of the same files with tokens cut out
(trees with errors), asked outer node first and inner node first, the nodes found must be the ones
the query run on that node finds, in the same order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.openmp.constructs import CppOmpSource
from kernlint.frontends.cpp.openmp.function_uses import FunctionUses
from kernlint.frontends.cpp.openmp.syntax import in_loop_header
from kernlint.frontends.cpp.unit import CppUnit

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "openmp"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp"))
_HOLDERS = ("compound_statement", "function_definition", "translation_unit", "lambda_expression")


_HELD = (("cpp_openmp_loops", "loop"), ("cpp_openmp_declared", "declared"), ("cpp_openmp_calls", "call"))


def _holders(root: tree_sitter.Node, every: bool = False) -> list[tree_sitter.Node]:
    """Every node a region or a definition's scope can be: statements, blocks, functions, the file,
    and the error nodes a broken file gives (`every`: every node, declarators and names too)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if every or node.type.endswith("_statement") or node.type in _HOLDERS or node.type == "ERROR":
            found.append(node)
        stack.extend(node.children)
    return found


def _cut(data: bytes, seed: int) -> bytes:
    """`data` with a few tokens cut out at random: parse errors and missing nodes."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(6):
        at = rng.randrange(len(out))
        out[at : at + rng.randint(1, 3)] = b""
    return bytes(out)


def _check(path: str, data: bytes, every: bool = False) -> int:
    unit = CppUnit(path, data)
    outer_first, inner_first = CppOmpSource(unit, ()), CppOmpSource(unit, ())
    uses = FunctionUses()
    checked = 0
    holders = _holders(unit.root, every)
    for holder in holders[::-1]:
        for query_file, capture in _HELD:
            inner_first._held(query_file, capture, holder)
    for holder in holders:
        for query_file, capture in _HELD:
            queried = treesitter.captures("cpp", query_file, holder).get(capture, [])
            assert outer_first._held(query_file, capture, holder) == queried, (path, holder, query_file)
            assert inner_first._held(query_file, capture, holder) == queried, (path, holder, query_file)
        assigned = treesitter.captures("cpp", "cpp_openmp_decls", holder).get("assigned", [])
        assert outer_first._assigned_in(holder) == assigned, (path, holder)
        queried_uses = treesitter.captures("cpp", "cpp_openmp_uses", holder)
        read_uses = {name: nodes for name, nodes in uses.of_region(holder).items() if nodes}
        assert read_uses == queried_uses, (path, holder)
        declared = treesitter.captures("cpp", "cpp_openmp_declared", holder).get("declared", [])
        span = span_of(holder)
        outer_first.nodes[span] = holder
        varying = frozenset(text_of(n) for n in declared + assigned if not in_loop_header(n))
        assert outer_first.varying_in(span) == varying, (path, holder)
        checked += 1
    return checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_region_nodes_equal_the_query_on_the_node(path: Path) -> None:
    assert _check(str(path), path.read_bytes()) >= 1


@pytest.mark.parametrize("seed", range(12))
def test_broken_files_too(seed: int) -> None:
    path = FILES[seed % len(FILES)]
    data = _cut(path.read_bytes(), seed)
    assert CppUnit(str(path), data).root.has_error or seed % 3  # most cuts break the parse
    assert _check(str(path), data) >= 1


_TOUCHING = b"""\
void f(float *a, int n) {
  int i{0};{for(i=0;i<n;i++)a[i]=0;}for(;;){n--;}while(n)n--;do{i++;}while(i<n);
  if(n){i=1;}else{i+=2;}{{n++;}}for(int k=0;k<n;k++){a[k]++;}
  auto g = [&](int m) { for (int j = 0; j < m; j++) n = j; };
}
"""


def test_nodes_that_touch_the_holder_are_not_held() -> None:
    """Blocks and loops written with no space between them: a loop that starts where a block ends,
    and an enclosing one that starts where it starts, are not inside it."""
    assert _check("touching.cpp", _TOUCHING) > 10


_DECLARED = b"""\
struct T { T(float *, int); };
void g(float *a, int n) {
  T obj(a, n);
  auto run = [&](int m) { for (int j = 0; j < m; j++) a[j] = 0; };
  [&] { for (int j = 0; j < n; j++) a[j] += 1; }();
  int x = 0, *p = &x, &r = x, v[4], w[2][3], z[1][2][3];
  for (auto &e : v) { float t[2] = {0}; int *q; t[0] = e + f(n) + h(x); }
  { int y = [&]() { int inner = 1; return inner + k(y); }(); }
}
"""


def test_every_node_of_a_declaring_region() -> None:
    """Asked of every node, declarators and names included (those are queried, not read from a node
    around them: a declaration around one matches a name inside it)."""
    assert _check("declared.cpp", _DECLARED, every=True) > 50
    assert _check("touching.cpp", _TOUCHING, every=True) > 50
