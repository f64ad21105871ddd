"""Parsing an edited document again from its last tree (`kernlint.frontends.common.reparse`), as the
language server's worker does: the tree must be the one a fresh parse gives, node for node, and the
analysis of it must give a fresh analysis's diagnostics."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import EngineSetup, analyse_source
from kernlint.frontends.common import reparse, treesitter
from kernlint.frontends.cpp.device import reuse
from kernlint.session import make_setup

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
_FILES = sorted(p for p in CORPUS.glob("*/*.cpp") if p.stat().st_size < 12_000)[::3]
# Snippets an edit puts in: code, comments, half-typed code (syntax errors), lines, nothing.
_SNIPPETS = st.sampled_from(
    ["", "\n", "// note\n", "x", "int k = 1;\n", "if (a) {", "}", "(", "/* c */", "for (int i = 0; i < n; i++)", ";"]
)
_SETUP: list[EngineSetup] = []


def _setup() -> EngineSetup:
    if not _SETUP:
        _SETUP.append(make_setup(Config(devices=("xe-hpc", "a100")), use_cache=False))
    return _SETUP[0]


def _nodes(tree: tree_sitter.Tree) -> list[tuple[object, ...]]:
    """Every node of `tree` in document order, with all it says about itself."""
    found: list[tuple[object, ...]] = []
    cursor, descending = tree.walk(), True
    while True:
        if descending:
            node = cursor.node
            assert node is not None
            found.append(
                (
                    node.type,
                    cursor.field_name,
                    node.start_byte,
                    node.end_byte,
                    tuple(node.start_point),
                    tuple(node.end_point),
                    node.is_named,
                    node.is_missing,
                    node.is_error,
                    node.has_error,
                )
            )
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            descending = True
            continue
        if not cursor.goto_parent():
            return found
        descending = False


def _edited(text: bytes, at: int, removed: int, snippet: str) -> bytes:
    at %= len(text) + 1
    return text[:at] + snippet.encode() + text[at + removed :]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(_FILES),
    st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 12), _SNIPPETS), min_size=1, max_size=4),
)
def test_a_tree_parsed_from_the_last_one_is_the_fresh_parse(path: Path, edits: list[tuple[int, int, str]]) -> None:
    cache = reparse.TreeCache()
    text = path.read_bytes()
    cache.parse("cpp", "doc", text)
    for at, removed, snippet in edits:
        text = _edited(text, at, removed, snippet)
        assert _nodes(cache.parse("cpp", "doc", text)) == _nodes(treesitter.parser("cpp").parse(text))


def test_an_edit_is_parsed_incrementally_and_one_with_a_syntax_error_afresh() -> None:
    cache = reparse.TreeCache()
    text = (CORPUS / "sycl").glob("*.cpp").__next__().read_bytes()
    first = cache.parse("cpp", "doc", text)
    before = _nodes(first)
    assert (cache.incremental, cache.fresh) == (0, 1)
    cache.parse("cpp", "doc", b"// a note\n" + text)
    assert (cache.incremental, cache.fresh) == (1, 1)
    assert _nodes(first) == before  # a tree given out is never edited (another memo may hold it)
    broken = cache.parse("cpp", "doc", b"int ( {\n" + text)
    assert (cache.incremental, cache.fresh) == (1, 2) and broken.root_node.has_error
    cache.parse("cpp", "doc", text)  # from a tree with an error: afresh too
    assert (cache.incremental, cache.fresh) == (1, 3)
    cache.parse("cpp", "other", text)  # another document has no last tree
    assert (cache.incremental, cache.fresh) == (1, 4)


@given(st.binary(max_size=40), st.binary(max_size=40), st.binary(max_size=40), st.binary(max_size=40))
def test_the_edit_found_between_two_texts_turns_one_into_the_other(
    head: bytes, old: bytes, new: bytes, tail: bytes
) -> None:
    before, after = head + old + tail, head + new + tail
    edit = reparse.edit_between(before, after)
    assert after == before[: edit.start_byte] + after[edit.start_byte : edit.new_end_byte] + before[edit.old_end_byte :]
    assert edit.start_byte >= len(head)  # (the longest common head is at least the one made)
    for data, at, point in (
        (before, edit.start_byte, edit.start_point),
        (before, edit.old_end_byte, edit.old_end_point),
        (after, edit.new_end_byte, edit.new_end_point),
    ):
        lines = data[:at].split(b"\n")
        assert tuple(point) == (len(lines) - 1, len(lines[-1]))


@pytest.fixture
def worker_caches() -> Iterator[None]:
    """The caches the language server's worker turns on."""
    kept = reuse.ComponentCache()
    kept.scope = ("test",)
    reuse.turn_on(kept)
    reparse.turn_on(reparse.TreeCache())
    try:
        yield
    finally:
        reuse.turn_on(None)
        reparse.turn_on(None)


def _diagnostics(path: Path, text: bytes) -> tuple:
    return analyse_source(SourceEntry(str(path), "cpp", False), text, _setup()).diagnostics


def _fresh(path: Path, text: bytes) -> tuple:
    kept, trees = reuse.active(), reparse.active()
    reuse.turn_on(None)
    reparse.turn_on(None)
    try:
        return _diagnostics(path, text)
    finally:
        reuse.turn_on(kept)
        reparse.turn_on(trees)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(_FILES),
    st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 12), _SNIPPETS), min_size=1, max_size=3),
)
def test_an_analysis_of_a_reparsed_edit_is_a_fresh_analysis(
    worker_caches: None, path: Path, edits: list[tuple[int, int, str]]
) -> None:
    text = path.read_bytes()
    _diagnostics(path, text)
    for at, removed, snippet in edits:  # each version analysed from the trees the versions before it left
        text = _edited(text, at, removed, snippet)
        assert _diagnostics(path, text) == _fresh(path, text)
