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


#: What may hold a functor's `operator()` definition.
_FUNCTOR_HOLDERS = ("struct_specifier", "class_specifier")


def file_matches(root: tree_sitter.Node) -> dict[str, list[treesitter.Match]]:
    """The matches of every query in `FILE_QUERIES` over the tree, by query file; the file query's
    operator names turned into the functors they define (`functor_match`)."""
    found = treesitter.matches_by_file("cpp", FILE_QUERIES, root)
    if any("functor.op" in match for _index, match in found["cpp"]):
        kept: list[treesitter.Match] = []
        for index, match in found["cpp"]:
            functor = functor_match(match) if "functor.op" in match else match
            if functor is not None:
                kept.append((index, functor))
        found["cpp"] = kept
    return found


def functor_match(match: dict[str, list[tree_sitter.Node]]) -> dict[str, list[tree_sitter.Node]] | None:
    """An `operator_name` match as the functor it defines: the class (`functor.class`), the operator
    and its definition (`functor.def`), when the operator names a function defined directly in the
    body of a struct or class named by a plain identifier (`struct K { void operator()(…) const {…} };`);
    None otherwise (an operator declared only, defined out of its class, or in a template member)."""
    operator = match["functor.op"][0]
    declarator = operator.parent
    if declarator is None or declarator.type != "function_declarator":
        return None
    if declarator.child_by_field_name("declarator") != operator:
        return None
    definition = declarator.parent
    if definition is None or definition.type != "function_definition":
        return None
    if definition.child_by_field_name("declarator") != declarator:
        return None
    body = definition.parent
    holder = body.parent if body is not None and body.type == "field_declaration_list" else None
    if holder is None or holder.type not in _FUNCTOR_HOLDERS or holder.child_by_field_name("body") != body:
        return None
    name = holder.child_by_field_name("name")
    if name is None or name.type != "type_identifier":
        return None
    return {"functor.class": [name], "functor.op": [operator], "functor.def": [definition]}


def include_paths(matches: dict[str, list[treesitter.Match]]) -> list[str]:
    """The names in quoted `#include "…"` lines, in file order."""
    return [text_of(match["include.path"][0]) for _pattern, match in matches["cpp"] if "include.path" in match]
