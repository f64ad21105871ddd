"""The one walk of a C/C++ tree that the whole file needs, shared by a parsed file and its headers.

The front-end's own query, the symbol table of constant evaluation and the device-function index run
together (`treesitter.matches_by_file`), so the tree is walked once however many of them are read.
"""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of

#: Query files run over the whole file, together in one walk of the tree.
FILE_QUERIES = ("cpp", "cpp_symbols", "cpp_device_index")


def file_matches(root: tree_sitter.Node) -> dict[str, list[treesitter.Match]]:
    """The matches of every query in `FILE_QUERIES` over the tree, by query file."""
    return treesitter.matches_by_file("cpp", FILE_QUERIES, root)


def include_paths(matches: dict[str, list[treesitter.Match]]) -> list[str]:
    """The names in quoted `#include "…"` lines, in file order."""
    return [text_of(match["include.path"][0]) for _pattern, match in matches["cpp"] if "include.path" in match]
