"""What code written into a C/C++ file must fit: the headers it includes, where a new `#include` line
is always compiled, and the macros it sees (`Preprocessor`), read from the parsed file.

A fix that writes `std::max` must bring `<algorithm>` when the file does not include it, on a line
every build compiles: before the first `#include` that no `#if` holds (an include guard aside), else
right after the include guard's `#define`, else on the first line.
"""

from __future__ import annotations

import tree_sitter

from kernlint.facts import Preprocessor
from kernlint.frontends.common.nodes import text_of

Node = tree_sitter.Node


def preprocessor_facts(root: Node, includes: list[Node], macros: frozenset[str]) -> Preprocessor:
    """The file's `Preprocessor` facts: `includes` are its `#include` lines (the nodes), `macros` the
    names it and its quoted includes `#define`."""
    ordered = sorted(includes, key=lambda node: node.start_byte)
    written = tuple(" ".join(text_of(n.child_by_field_name("path")).split()) for n in ordered)
    guard = _include_guard(root)
    unconditional = [n for n in ordered if _always_compiled(n, guard)]
    if unconditional:
        line = unconditional[0].start_point[0] + 1
    elif guard is not None:
        define = guard.named_children[1]
        line = define.end_point[0] + 1 + (define.end_point[1] > 0)  # the line after the `#define`
    else:
        line = 1
    return Preprocessor(macros, written, line)


def _include_guard(root: Node) -> Node | None:
    """The `#ifndef NAME` / `#define NAME` group that holds the whole file, if it is a header's guard."""
    groups = [c for c in root.named_children if c.type != "comment"]
    if len(groups) != 1 or groups[0].type != "preproc_ifdef" or text_of(groups[0].children[0]) != "#ifndef":
        return None
    guard = groups[0]
    name = guard.child_by_field_name("name")
    define = guard.named_children[1] if len(guard.named_children) > 1 else None
    if name is None or define is None or define.type != "preproc_def":
        return None
    defined = define.child_by_field_name("name")
    return guard if defined is not None and text_of(defined) == text_of(name) else None


def _always_compiled(include: Node, guard: Node | None) -> bool:
    """Whether `include` is at file scope, held by nothing but the include guard (no `#if`, no
    `extern "C"` block, no namespace)."""
    parent = include.parent
    return parent is not None and (parent.type == "translation_unit" or (guard is not None and parent == guard))
