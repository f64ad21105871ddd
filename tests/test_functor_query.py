"""Functor kernels are found from their `operator_name` (`scan.functor_match`) exactly as the query
that spelled the whole shape found them, from the struct or class down (kept here as the reference):
the same classes and definitions, in the same order."""

from __future__ import annotations

import tree_sitter

from conftest import CORPUS
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.scan import file_matches

SPELLED_OUT = """
(struct_specifier
  name: (type_identifier) @functor.class
  body: (field_declaration_list
    (function_definition
      declarator: (function_declarator declarator: (operator_name) @functor.op)) @functor.def))
(class_specifier
  name: (type_identifier) @functor.class
  body: (field_declaration_list
    (function_definition
      declarator: (function_declarator declarator: (operator_name) @functor.op)) @functor.def))
"""
#: Operators that are not functor kernels, next to those that are.
SHAPES = b"""
struct Plain { void operator()(int i) const { use(i); } };
class Kernel { public: void operator()(sycl::nd_item<1> it) const { use(it); } };
struct Declared { void operator()(int i) const; };
void Declared::operator()(int i) const { use(i); }
struct Templated { template <typename T> void operator()(T t) const { use(t); } };
template <int N> struct Generic { void operator()(int i) const { use(i); } };
template <> struct Generic<2> { void operator()(int i) const { use(i); } };
struct Outer { struct Inner { void operator()() const {} }; void operator()(int) {} };
struct Other { bool operator==(const Other &) const { return true; } Other &operator+=(int) { return *this; } };
union U { void operator()() {} };
int call(Plain p) { p.operator()(1); return 0; }
"""

Shape = dict[str, list[tuple[int, int, str]]]


def _shape(match: dict[str, list[tree_sitter.Node]]) -> Shape:
    return {name: [(n.start_byte, n.end_byte, n.type) for n in nodes] for name, nodes in sorted(match.items())}


def _both(data: bytes) -> tuple[list[Shape], list[Shape]]:
    root = treesitter.parser("cpp").parse(data).root_node
    reference = tree_sitter.Query(treesitter.language("cpp"), SPELLED_OUT)
    spelled = [_shape(match) for _i, match in tree_sitter.QueryCursor(reference).matches(root)]
    found = [_shape(match) for _i, match in file_matches(root)["cpp"] if "functor.op" in match]
    return spelled, found


def test_functors_of_every_shape_are_those_the_spelled_out_query_finds() -> None:
    spelled, found = _both(SHAPES)
    assert found == spelled
    # Not: an operator declared only or defined out of its class, a template member, a class named by a
    # template type (`Generic<2>`), a union, an operator whose declarator is a reference (`Other &`).
    names = [SHAPES[m["functor.class"][0][0] : m["functor.class"][0][1]] for m in found]
    assert names == [b"Plain", b"Kernel", b"Generic", b"Inner", b"Outer", b"Other"]


def test_functors_of_every_corpus_file_are_those_the_spelled_out_query_finds() -> None:
    files = [p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".inc")]
    total = 0
    for path in files:
        spelled, found = _both(path.read_bytes())
        assert found == spelled, path
        total += len(found)
    assert total > 5
