"""The loose query texts (`cpp.loose`), refined, find exactly what their query files find: the
same pattern indices and captured nodes, in the same order where they claim it, and the same
captures, over the whole file and every function, block, statement and declaration of every C/C++
corpus file. The query files themselves (`queries/*.scm`) are what a long run compiles; a change to
one that its loose text does not follow fails here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter

from conftest import CORPUS
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.loose import LOOSE

Shape = tuple[int, int, str]
CPP_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".inc"))
#: The nodes the front-ends run these queries over (the file, a function, a region's statement).
QUERIED = {
    "translation_unit",
    "function_definition",
    "compound_statement",
    "for_statement",
    "lambda_expression",
    "expression_statement",
    "declaration",
    "identifier",
}
#: Shapes each loose text must get right, beyond the corpus.
SHAPES = b"""
int a, *b, &c = a, d[4], e[2][3], f[1][2][3], g4[1][2][3][4], **h2, *&i2 = b, j = 1, *k = b, l[2] = {1, 2};
int m[3][4] = {}, (n) = 2, *(o);
struct P { int *x; float y; } p;
typedef struct { int *x; } Q, *PQ, R;
typedef struct S { double *z; struct S *next; } S;
typedef union { int u; } U;
class C { public: int *q; struct Inner { char *w; } inner; };
struct Fwd;
void f(int x, float *y);
void g() {
  int k(a, b), l(3), m(n);
  Kernel kernel(a, n);
  for (auto &v : values) { v += 1; }
  for (int i = 0, j = 0; i < n; i++, --j) { x = i; y[i] = j; s.t = 2; }
  k++; --l; *p = 3;
  int r = 1, t = f(1), u(q);
  auto lam = [&](int z) { int w = z; return w; };
  asm("nop");
}
#include "x.h"
"""


def _shape(nodes: list[tree_sitter.Node]) -> list[Shape]:
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def _matches(found: list[treesitter.Match]) -> list[tuple[int, dict[str, list[Shape]]]]:
    return [(index, {name: _shape(nodes) for name, nodes in match.items()}) for index, match in found]


def _names(found: list[treesitter.Match]) -> dict[str, list[Shape]]:
    return {name: _shape(nodes) for name, nodes in treesitter.as_captures(found).items()}


def _captures(found: dict[str, list[tree_sitter.Node]]) -> dict[str, list[Shape]]:
    return {name: sorted(_shape(nodes), key=lambda s: (s[0], -s[1], s[2])) for name, nodes in found.items()}


def _queried(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        assert node is not None
        if node.type in QUERIED:
            yield node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


@pytest.fixture(scope="module")
def loose_queries() -> dict[str, tree_sitter.Query]:
    return {name: tree_sitter.Query(treesitter.language("cpp"), loose.text) for name, loose in LOOSE.items()}


def _compare(root: tree_sitter.Node, loose_queries: dict[str, tree_sitter.Query], where: object) -> int:
    compared = 0
    for node in _queried(root):
        for name, loose in LOOSE.items():
            exact = tree_sitter.QueryCursor(treesitter.query("cpp", name))
            refined = loose.refine(tree_sitter.QueryCursor(loose_queries[name]).matches(node))
            if loose.order == "matches":
                assert _matches(refined) == _matches(exact.matches(node)), (where, name, node)
            elif loose.order == "names":
                expected = exact.matches(node)
                assert _names(refined) == _names(expected), (where, name, node)
                assert sorted(map(repr, _matches(refined))) == sorted(map(repr, _matches(expected))), (where, name)
            assert _captures(treesitter._captured(refined)) == _captures(exact.captures(node)), (where, name, node)
            compared += 1
    return compared


@pytest.mark.parametrize("path", CPP_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_loose_text_finds_what_its_query_file_finds(path: Path, loose_queries: dict[str, tree_sitter.Query]) -> None:
    root = treesitter.parser("cpp").parse(path.read_bytes()).root_node
    _compare(root, loose_queries, path)


def test_the_shapes_each_loose_text_reads(loose_queries: dict[str, tree_sitter.Query]) -> None:
    """Every declarator shape of the declared-names pattern, typedefs of structs with several names,
    prototypes that are constructions, and decls with several declarators."""
    root = treesitter.parser("cpp").parse(SHAPES).root_node
    assert _compare(root, loose_queries, "shapes") > 100
    declared = treesitter._captured(
        LOOSE["cpp_openmp_declared"].refine(tree_sitter.QueryCursor(loose_queries["cpp_openmp_declared"]).matches(root))
    )
    names = {n.text for n in declared["declared"]}
    assert {b"a", b"b", b"c", b"d", b"e", b"f", b"j", b"k", b"l", b"w"} <= names
    assert not {b"g4", b"h2", b"i2"} & names  # four dimensions, two pointers, a pointer's reference


def test_a_bundle_serves_a_loose_file_as_the_file_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through `treesitter`: a loose file in a bundle gives the file's matches (in order, or from the
    file compiled alone) and captures."""
    monkeypatch.setattr(treesitter, "_PLANNED", {})
    monkeypatch.setattr(treesitter, "_BUNDLED", {})
    monkeypatch.setattr(treesitter, "_ALONE", set())
    names = tuple(LOOSE)
    treesitter.bundle("cpp", names, SHAPES, LOOSE)
    root = treesitter.parser("cpp").parse(SHAPES).root_node
    for name in names:
        exact = tree_sitter.QueryCursor(treesitter.query("cpp", name))
        found, expected = treesitter.matches("cpp", name, root), exact.matches(root)
        if LOOSE[name].order == "names":
            assert _names(found) == _names(expected), name
            found, expected = sorted(found, key=repr), sorted(expected, key=repr)
        assert _matches(found) == _matches(expected), name
        assert _captures(treesitter.captures("cpp", name, root)) == _captures(exact.captures(root)), name
        assert treesitter._BUNDLED[("cpp", name)].loose is LOOSE[name]
