"""Query files compiled as one bundle (`treesitter.bundle`, a process that reads few files) find
exactly what each finds compiled alone: the same matches in the same order with the same pattern
indices, the same captures, and so the same facts."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter

from conftest import CORPUS
from kernlint.frontends import plan_queries
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp import frontend, scan
from kernlint.frontends.cpp.scan import FILE_QUERIES

Shape = tuple[int, int, str]
CPP_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".inc"))
CPP_QUERIES = tuple(name for name in treesitter.query_files() if not name.startswith("fortran"))
FORTRAN_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".f", ".f90", ".for", ".fi"))
FORTRAN_QUERIES = tuple(name for name in treesitter.query_files() if name.startswith("fortran"))
#: The nodes the front-ends run region queries over, and the whole file.
REGION_TYPES = {"translation_unit", "function_definition", "compound_statement", "for_statement", "lambda_expression"}


@pytest.fixture
def fresh_bundles(monkeypatch: pytest.MonkeyPatch) -> None:
    """No bundle planned or compiled yet (as in a new process), and none left behind afterwards."""
    monkeypatch.setattr(treesitter, "_PLANNED", {})
    monkeypatch.setattr(treesitter, "_BUNDLED", {})
    monkeypatch.setattr(treesitter, "_ALONE", set())


def _shape(nodes: list[tree_sitter.Node]) -> list[Shape]:
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def _matches(found: list[treesitter.Match]) -> list[tuple[int, dict[str, list[Shape]]]]:
    return [(index, {name: _shape(nodes) for name, nodes in match.items()}) for index, match in found]


def _alone_matches(grammar: str, name: str, node: tree_sitter.Node) -> list[tuple[int, dict[str, list[Shape]]]]:
    return _matches(tree_sitter.QueryCursor(treesitter.query(grammar, name)).matches(node))


def _alone_captures(grammar: str, name: str, node: tree_sitter.Node) -> dict[str, list[Shape]]:
    found = tree_sitter.QueryCursor(treesitter.query(grammar, name)).captures(node)
    return {key: sorted(_shape(nodes), key=lambda s: (s[0], -s[1], s[2])) for key, nodes in found.items()}


def _regions(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    return (node for node in _nodes(root) if node.type in REGION_TYPES)


def test_every_cpp_query_file_bundled_finds_what_it_finds_alone(fresh_bundles: None) -> None:
    """Every C/C++ query file in one bundle (the most any file shares its query with), run over the
    whole file and over every function, block, loop and lambda of every C/C++ corpus file."""
    treesitter.bundle("cpp", CPP_QUERIES)
    compared = 0
    for path in CPP_FILES:
        root = treesitter.parser("cpp").parse(path.read_bytes()).root_node
        for node in _regions(root):
            for name in CPP_QUERIES:
                found_matches = _matches(treesitter.matches("cpp", name, node))
                assert found_matches == _alone_matches("cpp", name, node), (path, name)
                found = treesitter.captures("cpp", name, node)
                assert {k: _shape(v) for k, v in found.items()} == _alone_captures("cpp", name, node), (path, name)
                compared += 1
    assert len({id(treesitter._BUNDLED[("cpp", name)][0]) for name in CPP_QUERIES}) == 1  # one query for all
    assert compared > 1000


def _raw(found: dict[str, list[tree_sitter.Node]]) -> dict[str, list[Shape]]:
    return {name: _shape(nodes) for name, nodes in found.items()}


def test_every_fortran_query_file_bundled_finds_what_it_finds_alone(fresh_bundles: None) -> None:
    """As the Fortran front-end runs them: over the whole file, and over the lines of each loop,
    block and procedure (`points`), where captures keep py-tree-sitter's own order."""
    treesitter.bundle("fortran", FORTRAN_QUERIES)
    compared = 0
    for path in FORTRAN_FILES:
        root = treesitter.parser("fortran").parse(path.read_bytes()).root_node
        ranges = [None] + [
            (n.start_point, n.end_point)
            for n in _nodes(root)
            if n.type in ("do_loop", "subroutine", "function", "if_statement", "block_construct")
        ]
        for points in ranges:
            for name in FORTRAN_QUERIES:
                alone = tree_sitter.QueryCursor(treesitter.query("fortran", name))
                if points is not None:
                    alone.set_point_range(*points)
                expected_matches = _matches(alone.matches(root))
                assert _matches(treesitter.matches("fortran", name, root, points)) == expected_matches, (path, name)
                alone = tree_sitter.QueryCursor(treesitter.query("fortran", name))
                if points is not None:
                    alone.set_point_range(*points)
                assert _raw(treesitter.raw_captures("fortran", name, root, points)) == _raw(alone.captures(root))
                compared += 1
    assert len({id(treesitter._BUNDLED[("fortran", name)][0]) for name in FORTRAN_QUERIES}) == 1
    assert compared > 500


def _nodes(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_the_file_query_bundled_with_others_finds_what_it_finds_alone(fresh_bundles: None) -> None:
    """`matches_by_file` over a bundle that also holds files it does not ask for keeps only its own."""
    treesitter.bundle("cpp", (*FILE_QUERIES, "cpp_types", "cpp_openmp_uses", "cpp_openmp_declared"))
    for path in CPP_FILES:
        root = treesitter.parser("cpp").parse(path.read_bytes()).root_node
        bundled = treesitter.matches_by_file("cpp", FILE_QUERIES, root)
        for name in FILE_QUERIES:
            assert _matches(bundled[name]) == _alone_matches("cpp", name, root), (path, name)


def test_a_file_compiled_alone_is_not_bundled_afterwards(fresh_bundles: None) -> None:
    root = treesitter.parser("cpp").parse(b"int f(int a) { return a; }").root_node
    treesitter.captures("cpp", "cpp_types", root)
    treesitter.bundle("cpp", ("cpp_types", "cpp_calls", "cpp_device"))
    treesitter.captures("cpp", "cpp_calls", root)
    assert ("cpp", "cpp_types") not in treesitter._BUNDLED
    assert treesitter._BUNDLED[("cpp", "cpp_calls")][0] is treesitter._BUNDLED[("cpp", "cpp_device")][0]


@pytest.mark.parametrize("path", CPP_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_facts_are_the_same_with_the_bundles_a_one_file_run_plans(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The facts of every C/C++ corpus file, queries alone and then bundled as `plan_queries` plans
    them for that file's text (the OpenMP bundles for an OpenMP file, and so on)."""
    data = path.read_bytes()
    for state in ("_PLANNED", "_BUNDLED"):
        monkeypatch.setattr(treesitter, state, {})
    monkeypatch.setattr(treesitter, "_ALONE", set())
    monkeypatch.setattr(scan, "_RECENT", OrderedDict())  # each run parses and matches the file itself
    alone = frontend.extract(str(path), data)
    assert not treesitter._BUNDLED
    monkeypatch.setattr(treesitter, "_ALONE", set())
    monkeypatch.setattr(scan, "_RECENT", OrderedDict())
    plan_queries("cpp", data)
    bundled = frontend.extract(str(path), data)
    assert treesitter._BUNDLED  # the run went through a bundle
    assert bundled == alone


@pytest.mark.parametrize("path", FORTRAN_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_fortran_facts_are_the_same_with_the_bundle_a_one_file_run_plans(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernlint.config import Config
    from kernlint.frontends.fortran import frontend as fortran
    from kernlint.source import SourceFile

    source = SourceFile(str(path), path.read_bytes())
    fixed = path.suffix.lower() in (".f", ".for")
    for state in ("_PLANNED", "_BUNDLED"):
        monkeypatch.setattr(treesitter, state, {})
    monkeypatch.setattr(treesitter, "_ALONE", set())
    alone = fortran.extract(source, fixed_form=fixed, config=Config())
    monkeypatch.setattr(treesitter, "_ALONE", set())
    plan_queries("fortran", source.data)
    bundled = fortran.extract(source, fixed_form=fixed, config=Config())
    assert treesitter._BUNDLED
    assert bundled == alone
