"""tree-sitter languages, parsers and compiled queries, created once per process.

Compiling a query costs far more than running it, so every query file is compiled on first use and
kept; parsers are reused across files. Running a query costs a walk of the tree, about as much as
parsing it: query files that always run over the whole file are run together, as one query
(`matches_by_file`), so that walk happens once.

A process that reads only a few files pays for each query it compiles far more than for running it
(every `Query` walks the grammar's whole parse table first: about 4 ms for C++ here, whatever its
patterns). There, `bundle` plans query files a file is likely to need to be compiled as one query on
first use; each is then run as that query, and only its own patterns' matches are kept. Which files
are bundled decides only how many compiles there are, never what a query returns (a query file
requested outside its bundle is compiled alone, as in a long run). Planned with the file's text, a
bundle also leaves out the patterns whose text predicates that text cannot meet (`query_gates`); a
tree whose text could meet one of them is then run through the query file compiled alone. A query
file planned with a `Loose` text is compiled from that cheaper text, and its matches are refined
into the file's own.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter

if TYPE_CHECKING:
    from kernlint.frontends.common.query_gates import Need

Match = tuple[int, dict[str, list[tree_sitter.Node]]]
# Package data, installed as plain files next to the modules (read directly: `importlib.resources`
# would cost every process its import).
QUERIES = Path(__file__).resolve().parent.parent / "queries"


@cache
def language(name: str) -> tree_sitter.Language:
    """The grammar for `cpp` or `fortran`."""
    if name == "cpp":
        import tree_sitter_cpp

        return tree_sitter.Language(tree_sitter_cpp.language())
    if name == "fortran":
        import tree_sitter_fortran

        return tree_sitter.Language(tree_sitter_fortran.language())
    raise ValueError(f"no tree-sitter grammar for {name!r}")  # pragma: no cover - programming error


@cache
def parser(name: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(name))


def query_files() -> list[str]:
    """The names of the query files (package data), for compiling them up front."""
    return sorted(path.stem for path in QUERIES.glob("*.scm"))


def query_text(query_file: str) -> str:
    """The text of `queries/<query_file>.scm`."""
    return (QUERIES / f"{query_file}.scm").read_text("utf-8")


@cache
def query(grammar: str, query_file: str) -> tree_sitter.Query:
    """The compiled query from `queries/<query_file>.scm` (package data)."""
    return tree_sitter.Query(language(grammar), query_text(query_file))


@cache
def combined_query(grammar: str, names: tuple[str, ...]) -> tuple[tree_sitter.Query, tuple[tuple[str, int], ...]]:
    """One query made of several query files, and for each of its patterns the file it comes from
    with its index in that file."""
    return _compiled_together(grammar, names, [query_text(name) for name in names])


def _compiled_together(
    grammar: str, names: tuple[str, ...], texts: list[str]
) -> tuple[tree_sitter.Query, tuple[tuple[str, int], ...]]:
    """`texts` (the query files `names`) compiled as one query, with each pattern's file and index there."""
    starts = []
    offset = 0
    for text in texts:
        starts.append(offset)
        offset += len(text.encode("utf-8")) + 1
    compiled = tree_sitter.Query(language(grammar), "\n".join(texts))
    files = [names[bisect_right(starts, compiled.start_byte_for_pattern(p)) - 1] for p in range(compiled.pattern_count)]
    first: dict[str, int] = {}
    for pattern, name in enumerate(files):
        first.setdefault(name, pattern)
    return compiled, tuple((name, pattern - first[name]) for pattern, name in enumerate(files))


class Loose(NamedTuple):
    """A query file's patterns written again to compile cheaply, for a bundle, and `refine`, which
    turns the matches of that text into the query file's own: the same pattern indices and captured
    nodes, in the same `order`: "matches" (the file's order of matches), "names" (each capture name's
    nodes in the file's order, which is all its readers read: `as_captures`, or sorted) or "captures"
    (none: the bundle serves only `captures`, in document order, and the file compiled alone gives
    its matches)."""

    text: str
    refine: Callable[[list[Match]], list[Match]]
    order: str


#: Query files planned to be compiled together (`bundle`), by grammar, not compiled yet, with the
#: text whose patterns they keep (None: all) and the loose texts to compile instead of their own.
_PLANNED: dict[str, list[tuple[tuple[str, ...], bytes | None, Mapping[str, Loose]]]] = {}
#: Query files that run alone (not planned in a bundle when first run).
_ALONE: set[tuple[str, str]] = set()


class _Bundle(NamedTuple):
    """A query file's place in a bundle: the bundle's query, its own patterns there (bundle pattern ->
    pattern in the file) and the prefix its capture names carry there."""

    query: tree_sitter.Query
    own: dict[int, int]
    prefix: str
    #: What each pattern left out of the bundle needs to match (`query_gates.pattern_needs`), and the
    #: text they were left out for.
    left_out: tuple[tuple[Need, ...], ...] = ()
    left_out_for: bytes | None = None
    #: The file's patterns were compiled from this loose text (its matches need `refine`).
    loose: Loose | None = None

    def serves(self, node: tree_sitter.Node) -> bool:
        """Whether this bundle finds in `node` all that the query file finds: none of the patterns
        left out can match the text of `node`'s tree (the file it was planned for, or another text
        that holds none of what they need)."""
        if not self.left_out:
            return True
        root = node
        while (parent := root.parent) is not None:
            root = parent
        text = root.text
        if text is None:
            return False
        return text == self.left_out_for or _none_may_match(self.left_out, text)


@lru_cache(maxsize=8)
def _none_may_match(left_out: tuple[tuple[Need, ...], ...], text: bytes) -> bool:
    """Whether none of the patterns with these needs can match a tree of this text (a header's, an
    `#if` arm's), once per text: a tree's queries run over many of its nodes."""
    from kernlint.frontends.common.query_gates import may_match

    return not any(may_match(needs, text) for needs in left_out)


_BUNDLED: dict[tuple[str, str], _Bundle] = {}
_CAPTURE = re.compile(r"@([\w.-]+)")


def bundle(
    grammar: str, names: tuple[str, ...], text: bytes | None = None, loose: Mapping[str, Loose] | None = None
) -> None:
    """Plan `names` to be compiled as one query when the first of them is run through `matches`,
    `captures` or `matches_by_file`; a name already compiled (alone or in a bundle) is left out.
    With the `text` of the file to be read, the patterns that cannot match it are left out too; a
    name with a `loose` text is compiled from that text."""
    planned = {name for bundled, _text, _loose in _PLANNED.get(grammar, []) for name in bundled}
    free = tuple(n for n in names if (grammar, n) not in _BUNDLED and (grammar, n) not in _ALONE and n not in planned)
    if len(free) > 1:
        _PLANNED.setdefault(grammar, []).append((free, text, loose or {}))


def _kept_patterns(
    query_file: str, text: bytes | None, loose: Loose | None
) -> tuple[str, list[int] | None, list[tuple[Need, ...]]]:
    """The source of the patterns of `query_file` (or of its `loose` text) that may match `text` (all:
    None), the index of each in the file (None: all are kept), and what each pattern left out needs."""
    source = loose.text if loose is not None else query_text(query_file)
    if text is None or "(#" not in source:  # no predicate, nothing to gate on
        return source, None, []
    from kernlint.frontends.common.query_gates import may_match, pattern_needs, split_patterns

    kept: list[str] = []
    indices: list[int] = []
    left_out = []
    for index, (start, end) in enumerate(split_patterns(source)):
        needs = pattern_needs(source[start:end])
        if may_match(needs, text):
            kept.append(source[start:end])
            indices.append(index)
        else:
            left_out.append(needs)
    return "\n".join(kept), indices, left_out


def _bundled(grammar: str, query_file: str) -> _Bundle | None:
    """Where `query_file` runs in a bundle; None: it runs alone. Each file's capture names are
    prefixed in the bundle (`b2.decl`), so that the captures of one file are told from another's."""
    found = _BUNDLED.get((grammar, query_file))
    if found is not None or (grammar, query_file) in _ALONE:
        return found
    for entry in _PLANNED.get(grammar, []):
        planned, text, loose = entry
        if query_file in planned:
            _PLANNED[grammar].remove(entry)
            kept = [_kept_patterns(name, text, loose.get(name)) for name in planned]
            texts = [_CAPTURE.sub(f"@b{n}.\\1", source) for n, (source, _i, _l) in enumerate(kept)]
            compiled, owners = _compiled_together(grammar, planned, texts)
            for n, (name, (_source_kept, indices, left_out)) in enumerate(zip(planned, kept)):
                own = {
                    pattern: index if indices is None else indices[index]
                    for pattern, (owner, index) in enumerate(owners)
                    if owner == name
                }
                _BUNDLED[(grammar, name)] = _Bundle(compiled, own, f"b{n}.", tuple(left_out), text, loose.get(name))
            return _BUNDLED[(grammar, query_file)]
    _ALONE.add((grammar, query_file))
    return None


def _serving(grammar: str, query_file: str, node: tree_sitter.Node) -> _Bundle | None:
    """The bundle that runs `query_file` over `node`; None: the query file compiled alone does."""
    bundled = _bundled(grammar, query_file)
    return bundled if bundled is not None and bundled.serves(node) else None


def _own_match(match: dict[str, list[tree_sitter.Node]], prefix: str) -> dict[str, list[tree_sitter.Node]]:
    return {name.removeprefix(prefix): nodes for name, nodes in match.items()}


Point = tuple[int, int]


def _cursor(compiled: tree_sitter.Query, points: tuple[Point, Point] | None) -> tree_sitter.QueryCursor:
    cursor = tree_sitter.QueryCursor(compiled)
    if points is not None:
        cursor.set_point_range(*points)
    return cursor


def matches(
    grammar: str, query_file: str, node: tree_sitter.Node, points: tuple[Point, Point] | None = None
) -> list[Match]:
    """The matches of `queries/<query_file>.scm` in `node` (those that meet the (start, end) `points`
    when given), each with its pattern's index in that file."""
    bundled = _serving(grammar, query_file, node)
    if bundled is None or (bundled.loose is not None and bundled.loose.order == "captures"):
        return _cursor(query(grammar, query_file), points).matches(node)
    return _bundle_matches(bundled, node, points)


def _bundle_matches(bundled: _Bundle, node: tree_sitter.Node, points: tuple[Point, Point] | None) -> list[Match]:
    """The query file's matches, read from its bundle's."""
    found = _cursor(bundled.query, points).matches(node)
    own, prefix = bundled.own, bundled.prefix
    kept = [(own[pattern], _own_match(match, prefix)) for pattern, match in found if pattern in own]
    return bundled.loose.refine(kept) if bundled.loose is not None else kept


def raw_captures(
    grammar: str, query_file: str, node: tree_sitter.Node, points: tuple[Point, Point] | None = None
) -> dict[str, list[tree_sitter.Node]]:
    """Capture name -> the nodes captured under it, in the order py-tree-sitter gives them (those that
    meet the (start, end) `points` when given)."""
    return _raw_captures(_serving(grammar, query_file, node), grammar, query_file, node, points)


def _raw_captures(
    bundled: _Bundle | None,
    grammar: str,
    query_file: str,
    node: tree_sitter.Node,
    points: tuple[Point, Point] | None,
) -> dict[str, list[tree_sitter.Node]]:
    if bundled is None or bundled.loose is not None:  # (a loose text's captures are not the file's)
        return _cursor(query(grammar, query_file), points).captures(node)
    every = _cursor(bundled.query, points).captures(node)
    prefix = bundled.prefix
    return {name.removeprefix(prefix): nodes for name, nodes in every.items() if name.startswith(prefix)}


def captures(grammar: str, query_file: str, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """Capture name -> the nodes captured under it, in document order (an enclosing node before what
    it holds). py-tree-sitter gives them in an order that changes from one process to the next, and
    facts built from them (which of several uses a fact points at) must not."""
    bundled = _serving(grammar, query_file, node)
    if bundled is not None and bundled.loose is not None:
        return _captured(_bundle_matches(bundled, node, None))
    found = _raw_captures(bundled, grammar, query_file, node, None)
    for nodes in found.values():
        nodes.sort(key=_document_order)
    return found


def _captured(found: list[Match]) -> dict[str, list[tree_sitter.Node]]:
    """What `captures` returns, from the query's matches: each node captured under a name once."""
    seen: dict[str, dict[tree_sitter.Node, None]] = {}
    for _pattern, match in found:
        for name, nodes in match.items():
            seen.setdefault(name, {}).update(dict.fromkeys(nodes))
    return {name: sorted(nodes, key=_document_order) for name, nodes in seen.items()}


def _document_order(node: tree_sitter.Node) -> tuple[int, int, str]:
    return (node.start_byte, -node.end_byte, node.type)


def matches_by_file(grammar: str, names: tuple[str, ...], node: tree_sitter.Node) -> dict[str, list[Match]]:
    """The matches of several query files in `node`, found in one walk: query file -> its matches,
    each with the pattern's index in its own file."""
    bundled = [_serving(grammar, name, node) for name in names]
    found: dict[str, list[Match]] = {name: [] for name in names}
    first = bundled[0]
    if (
        first is not None
        and all(b is not None and b.query is first.query for b in bundled)
        and not any(b is not None and b.loose is not None and b.loose.order == "captures" for b in bundled)
    ):
        owners = {p: (name, index, b.prefix) for name, b in zip(names, bundled) if b for p, index in b.own.items()}
        for pattern, match in tree_sitter.QueryCursor(first.query).matches(node):
            if pattern in owners:
                name, index, prefix = owners[pattern]
                found[name].append((index, _own_match(match, prefix)))
        for name, b in zip(names, bundled):
            if b is not None and b.loose is not None:
                found[name] = b.loose.refine(found[name])
        return found
    compiled, all_owners = combined_query(grammar, names)
    for pattern, match in tree_sitter.QueryCursor(compiled).matches(node):
        name, index = all_owners[pattern]
        found[name].append((index, match))
    return found


def as_captures(found: list[Match]) -> dict[str, list[tree_sitter.Node]]:
    """Matches turned into what `captures` returns: capture name -> every node captured under it."""
    result: dict[str, list[tree_sitter.Node]] = {}
    for _pattern, match in found:
        for name, nodes in match.items():
            result.setdefault(name, []).extend(nodes)
    return result
