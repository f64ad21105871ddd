"""A bundle planned with a file's text leaves out the patterns whose text predicates that text cannot
meet (`query_gates`): it must still find, in any tree it is run over, exactly what the query file finds
compiled alone, and fall back to the query file alone for a tree whose text could meet one of them."""

from __future__ import annotations

import pytest
import tree_sitter

from conftest import CORPUS
from kernlint.frontends.common import query_gates, treesitter

CPP_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".inc"))
CPP_QUERIES = tuple(name for name in treesitter.query_files() if not name.startswith("fortran"))
#: A text that holds none of the words of cpp.scm's predicates: a bundle planned with it keeps none of them.
NO_WORDS = b"void f(float *a, int n) { for (int k = 0; k < n; ++k) a[k] = 0; }"


@pytest.fixture
def fresh_bundles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treesitter, "_PLANNED", {})
    monkeypatch.setattr(treesitter, "_BUNDLED", {})
    monkeypatch.setattr(treesitter, "_ALONE", set())


@pytest.mark.parametrize("name", treesitter.query_files())
def test_patterns_are_split_where_tree_sitter_starts_them(name: str) -> None:
    grammar = "fortran" if name.startswith("fortran") else "cpp"
    source = treesitter.query_text(name)
    compiled = treesitter.query(grammar, name)
    starts = [len(source[:start].encode("utf-8")) for start, _end in query_gates.split_patterns(source)]
    assert starts == [compiled.start_byte_for_pattern(p) for p in range(compiled.pattern_count)]


def test_what_a_pattern_needs() -> None:
    needs = query_gates.pattern_needs
    memcpy = (False, ("memcpy", "memset"))
    assert needs('((call_expression function: (_) @f) (#any-of? @f "memcpy" "memset"))') == (memcpy,)
    assert needs('((preproc_call directive: (_) @d) @p (#eq? @d "#pragma"))') == ((False, ("#pragma",)),)
    buffer = (True, ("buffer", "queue"))
    assert needs('((declaration type: (_) @t) (#match? @t "(^|:)(buffer|queue)(<|$| )"))') == (buffer,)
    # a predicate on a capture that a match may lack holds for that match: no need
    assert needs('((declaration type: (_)? @t) (#eq? @t "queue"))') == ()
    assert needs('((declaration [(identifier) @t (field_identifier)]) (#eq? @t "queue"))') == ()
    assert needs('((declaration [(identifier) @t (field_identifier) @t]) (#eq? @t "queue"))') == ((False, ("queue",)),)
    # only a plain word list between the name bounds proves a need; negations prove none
    assert needs('((identifier) @t (#match? @t "^(buf|q).*"))') == ()
    assert needs('((identifier) @t (#not-eq? @t "queue"))') == ()
    assert needs("(identifier) @t") == ()


def test_a_pattern_is_kept_where_the_text_holds_a_word_of_every_need() -> None:
    needs = ((False, ("memcpy", "memset")), (False, ("#pragma",)))
    assert query_gates.may_match(needs, b"#pragma omp\nmemset(p, 0, n);")
    assert not query_gates.may_match(needs, b"memset(p, 0, n);")
    assert query_gates.may_match((), b"")


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        (b"void f(int n);", False),  # `id` inside `void`: no token starts there
        (b"int xid, idx;", True),  # `idx` starts a name (the gate does not look past the word)
        (b"sycl::id<1> i", True),
        (b"(id i)", True),
        (b"id", True),
        (b"\xc3\xa9id", True),  # after a byte that is not ASCII: kept (it may be a name's)
        (b"f(1id<1> i)", True),  # after a number: `1` then `id`
        (b"f(0x1fid<1> i)", True),
        (b"f(1.5fid<1> i)", True),
        (b"typedef int valid;", False),
    ],
)
def test_a_word_of_a_name_list_is_looked_for_where_a_name_starts(text: bytes, holds: bool) -> None:
    assert query_gates.may_match(((True, ("id", "item")),), text) is holds


def _shapes(found: list[treesitter.Match]) -> list[tuple[int, dict[str, list[tuple[int, int, str]]]]]:
    return [
        (index, {name: [(n.start_byte, n.end_byte, n.type) for n in nodes] for name, nodes in match.items()})
        for index, match in found
    ]


def _alone(name: str, node: tree_sitter.Node) -> list[tuple[int, dict[str, list[tuple[int, int, str]]]]]:
    return _shapes(tree_sitter.QueryCursor(treesitter.query("cpp", name)).matches(node))


@pytest.mark.parametrize("planned_with", ["own", "no words"])
def test_a_gated_bundle_finds_what_each_query_file_finds_alone(fresh_bundles: None, planned_with: str) -> None:
    """Every C/C++ corpus file through a bundle of every C/C++ query file planned with its own text
    (patterns it cannot match left out), and through one planned with a text holding none of the
    predicates' words, which must hand a file that holds them to the query files alone."""
    left_out = 0
    for path in CPP_FILES:
        data = path.read_bytes()
        treesitter._BUNDLED.clear()
        treesitter.bundle("cpp", CPP_QUERIES, data if planned_with == "own" else NO_WORDS)
        root = treesitter.parser("cpp").parse(data).root_node
        for name in CPP_QUERIES:
            assert _shapes(treesitter.matches("cpp", name, root)) == _alone(name, root), (path, name)
        left_out += len(treesitter._BUNDLED[("cpp", "cpp")].left_out)
    assert left_out > 0


def test_a_gated_bundle_hands_a_tree_with_a_left_out_word_to_the_query_file_alone(fresh_bundles: None) -> None:
    treesitter.bundle("cpp", ("cpp", "cpp_calls"), NO_WORDS)
    plain = treesitter.parser("cpp").parse(NO_WORDS).root_node
    treesitter.matches("cpp", "cpp", plain)
    assert treesitter._BUNDLED[("cpp", "cpp")].left_out  # the SYCL patterns were left out
    sycl = treesitter.parser("cpp").parse(b"void g(sycl::queue &q) { q.submit(f); q.wait(); }").root_node
    found = treesitter.matches("cpp", "cpp", sycl)
    assert _shapes(found) == _alone("cpp", sycl)
    body = sycl.children[0].child_by_field_name("body")  # a node of the tree, as a region query is run
    assert body is not None and _shapes(treesitter.matches("cpp", "cpp", body)) == _alone("cpp", body)
    assert _alone("cpp", body)  # (which the left-out member call pattern matches)
    source = treesitter.query_text("cpp")
    spans = query_gates.split_patterns(source)
    member_call = next(p for p, (start, end) in enumerate(spans) if "@member.call" in source[start:end])
    assert any(index == member_call for index, _match in found)  # a left-out pattern matched
