"""Query files rewritten to compile faster capture what they captured: `cpp_openmp_declared` as one
pattern with alternatives instead of one pattern per declarator shape (its callers read the names as
a set). Checked against the per-shape reading over every C/C++ file of the corpus, at the root and at
every function body (the nodes the front-end runs it on); over HeCBench's 3,422 C/C++ files and their
24,772 bodies the two agree as well (checked once when it was rewritten)."""

from __future__ import annotations

import tree_sitter

from conftest import CORPUS
from kernlint.frontends.common import treesitter

PER_SHAPE_DECLARED = """
(declaration declarator: (identifier) @declared)
(declaration declarator: (init_declarator declarator: (identifier) @declared))
(declaration declarator: (array_declarator declarator: (identifier) @declared))
(declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @declared)))
(declaration declarator: (pointer_declarator declarator: (identifier) @declared))
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @declared)))
(declaration declarator: (reference_declarator (identifier) @declared))
(declaration declarator: (init_declarator declarator: (reference_declarator (identifier) @declared)))
(for_range_loop declarator: (identifier) @declared)
(declaration declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @declared)))
(declaration declarator: (array_declarator declarator: (array_declarator declarator: (array_declarator
  declarator: (identifier) @declared))))
"""
_BODIES = "(function_definition body: (_) @body) (lambda_expression body: (_) @body)"
# Every declarator shape at least once, each alone and beside others (`int a, *b;`).
EVERY_SHAPE = b"""
void shapes(float *in, int n) {
  int a; int b = 1; float c[4]; float d[4] = {0}; float *e; float *f = in; int &g = b; const int &h = b;
  float t2[16][17]; float t3[2][3][4]; int i, *j, k[2], &l = i; for (int m : c) {}
  extern int &outside;
  #pragma omp parallel for
  for (int q = 0; q < n; ++q) { float *r; float s[8]; int &u = q; }
}
"""


def _captured(query: tree_sitter.Query, node: tree_sitter.Node) -> dict[str, list[tuple[int, int, str]]]:
    found = tree_sitter.QueryCursor(query).captures(node)
    return {name: sorted((n.start_byte, n.end_byte, n.type) for n in nodes) for name, nodes in found.items()}


def test_declared_names_are_those_of_one_pattern_per_shape() -> None:
    language = treesitter.language("cpp")
    reference = tree_sitter.Query(language, PER_SHAPE_DECLARED)
    rewritten = treesitter.query("cpp", "cpp_openmp_declared")
    bodies = tree_sitter.Query(language, _BODIES)
    assert rewritten.pattern_count < reference.pattern_count
    files = [p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".cc")]
    compared = declared = 0
    for path, data in [("every shape", EVERY_SHAPE), *((str(p), p.read_bytes()) for p in files)]:
        root = treesitter.parser("cpp").parse(data).root_node
        for node in [root, *tree_sitter.QueryCursor(bodies).captures(root).get("body", [])]:
            expected = _captured(reference, node)
            assert _captured(rewritten, node) == expected, f"{path}: {node.start_point}"
            compared += 1
            declared += len(expected.get("declared", []))
    assert compared > 500 and declared > 1000  # the corpus exercises it
