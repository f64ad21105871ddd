"""Parsing an edited document again from its last tree (tree-sitter's incremental parse), for the
language server's worker; the command line never turns this on.

Between two versions of a document an editor changes a few bytes. The edit is found by comparing
the two texts (the longest common head and tail), the old tree is told of it (`Tree.edit`), and the
parser reuses what the edit did not touch: a tenth of a millisecond instead of a whole parse. The
texts compared are the bytes given to the parser (after the front-end's own rewriting), so the edit
is exact whatever the editor sent. A tree with a syntax error is never the result of an incremental
parse: where the old or the new tree has one, the text is parsed afresh, since error recovery may
take another path from an old tree than from none.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import NamedTuple

import tree_sitter

from kernlint.frontends.common import treesitter

_DOCUMENTS = 8  # documents whose last tree is kept


class TreeCache:
    """The last parse (bytes, tree) of each document, the least recently used dropped beyond a bound;
    `incremental` and `fresh` count the parses of each kind (for tests and benchmarks)."""

    def __init__(self, documents: int = _DOCUMENTS) -> None:
        self._documents = documents
        self._last: OrderedDict[Hashable, tuple[bytes, tree_sitter.Tree]] = OrderedDict()
        self.incremental = 0
        self.fresh = 0

    def parse(self, grammar: str, document: Hashable, data: bytes) -> tree_sitter.Tree:
        """The tree of `data`, from `document`'s last tree where that gives what a fresh parse gives."""
        parser = treesitter.parser(grammar)
        last = self._last.pop((grammar, document), None)
        tree = None
        if last is not None and not last[1].root_node.has_error:
            old, old_tree = last
            if old == data:
                tree = old_tree
            else:
                edit = edit_between(old, data)
                old_tree = old_tree.copy()  # (the tree given out before stays as it was: others may hold it)
                old_tree.edit(
                    edit.start_byte,
                    edit.old_end_byte,
                    edit.new_end_byte,
                    edit.start_point,
                    edit.old_end_point,
                    edit.new_end_point,
                )
                tree = parser.parse(data, old_tree)
                if tree.root_node.has_error:
                    tree = None
                else:
                    self.incremental += 1
        if tree is None:
            tree = parser.parse(data)
            self.fresh += 1
        self._last[(grammar, document)] = (data, tree)
        while len(self._last) > self._documents:
            self._last.popitem(last=False)
        return tree


class Edit(NamedTuple):
    """`Tree.edit`'s arguments."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tree_sitter.Point
    old_end_point: tree_sitter.Point
    new_end_point: tree_sitter.Point


def edit_between(old: bytes, new: bytes) -> Edit:
    """The change from `old` to `new`: the bytes between their longest common head and their longest
    common tail (not overlapping the head), as replaced."""
    head = _common_head(old, new)
    tail = _common_head(old[head:][::-1], new[head:][::-1])
    old_end, new_end = len(old) - tail, len(new) - tail
    return Edit(head, old_end, new_end, _point(old, head), _point(old, old_end), _point(new, new_end))


def _common_head(a: bytes, b: bytes) -> int:
    """The length of the longest common head of `a` and `b` (a binary search over slice compares,
    which run in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _point(data: bytes, at: int) -> tree_sitter.Point:
    """The (row, byte column) of byte `at` of `data`."""
    return tree_sitter.Point(data.count(b"\n", 0, at), at - (data.rfind(b"\n", 0, at) + 1))


_active: TreeCache | None = None


def active() -> TreeCache | None:
    """The cache parses of documents consult, when one is turned on (the language server's worker)."""
    return _active


def turn_on(cache: TreeCache | None) -> None:
    global _active
    _active = cache


def parse(grammar: str, document: Hashable, data: bytes) -> tree_sitter.Tree:
    """`data` parsed: from `document`'s last tree when a cache is turned on, else afresh."""
    cache = _active
    if cache is None:
        return treesitter.parser(grammar).parse(data)
    return cache.parse(grammar, document, data)
