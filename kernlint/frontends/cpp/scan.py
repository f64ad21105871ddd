"""The one walk of a C/C++ tree that the whole file needs, shared by a parsed file and its headers.

The front-end's own query, the symbol table of constant evaluation and the device-function index run
together (`treesitter.matches_by_file`), so the tree is walked once however many of them are read.
A header that is also a file of the run reaches the parser twice with the same bytes (as a file,
and as an include of its neighbours): `parsed` keeps the last few trees with their matches, so
those bytes are parsed and walked once.
"""

from __future__ import annotations

from collections import OrderedDict

import tree_sitter

from kernlint.frontends.common import reparse, treesitter
from kernlint.frontends.common.nodes import text_of

#: Query files run over the whole file, together in one walk of the tree.
FILE_QUERIES = ("cpp", "cpp_symbols", "cpp_device_index")

Parsed = tuple[tree_sitter.Tree, dict[str, list[treesitter.Match]]]
#: Trees of the bytes parsed last (most recently used last), by those bytes: the same bytes give the
#: same tree and matches, which no reader changes. A header is met again within its folder's files,
#: which the pool hands out together, so a small bound keeps the hits.
_RECENT: OrderedDict[bytes, Parsed] = OrderedDict()
_RECENT_SIZE = 32


def parsed(data: bytes, document: str | None = None) -> Parsed:
    """The tree of `data` and its `file_matches`, parsed and walked once while they are recent. The
    bytes of a `document` (a file read as itself, not as an include or another arm) not parsed
    lately are parsed through `reparse`, which the language server's worker turns on."""
    found = _RECENT.get(data)
    if found is not None:
        _RECENT.move_to_end(data)
        return found
    tree = reparse.parse("cpp", document, data) if document is not None else treesitter.parser("cpp").parse(data)
    found = _RECENT[data] = (tree, file_matches(tree.root_node))
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return found


def file_matches(root: tree_sitter.Node) -> dict[str, list[treesitter.Match]]:
    """The matches of every query in `FILE_QUERIES` over the tree, by query file."""
    return treesitter.matches_by_file("cpp", FILE_QUERIES, root)


def include_paths(matches: dict[str, list[treesitter.Match]]) -> list[str]:
    """The names in quoted `#include "…"` lines, in file order."""
    return [text_of(match["include.path"][0]) for _pattern, match in matches["cpp"] if "include.path" in match]
