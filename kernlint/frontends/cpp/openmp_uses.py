"""How an OpenMP region of a C/C++ file uses a mapped variable, one identifier at a time.

Each identifier that names a mapped variable is one `Access`: read, written, read-modified-written
(`+=`, `++`) or escaping (its address taken, a bare pointer passed on), with the subscript it is
indexed by, the innermost loop around it inside the region and whether a condition sits in between.
"""

from __future__ import annotations

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.openmp_nodes import CONDITIONAL_TYPES, FUNCTION_TYPES, LOOP_TYPES
from kernlint.frontends.openmp.facts import Access

Node = tree_sitter.Node


def classify_use(ident: Node, name: str, region: Node, pointer: bool) -> Access | None:
    """How one identifier uses a mapped variable: read, write, read-modify-write or escape."""
    parent = ident.parent
    if parent is None:
        return None
    access = ident
    index: str | None = None
    if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == ident:
        access = parent
        while access.parent is not None and access.parent.type == "subscript_expression" \
                and access.parent.child_by_field_name("argument") == access:
            access = access.parent
        node: Node | None = access
        dims = 0  # subscripts of `x[i][j]`: only a one-dimensional index is kept
        while node is not None and node.type == "subscript_expression":
            dims += 1
            if node.child_by_field_name("argument") == ident:
                index = _subscript_text(node.child_by_field_name("indices"))
            node = node.child_by_field_name("argument")
        if dims != 1:
            index = None
    elif parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "*":
        access = parent
    elif parent.type == "call_expression" and parent.child_by_field_name("function") == ident:
        return None  # a function that happens to share the name
    loop, conditional = _context(access, region)
    if (parent.type == "field_expression" and parent.child_by_field_name("argument") == ident) or (
            parent.type in ("declaration", "init_declarator", "parameter_declaration")
            and parent.child_by_field_name("declarator") == ident):
        # members of a mapped aggregate, or a local that shadows the name: not followed
        return Access(name, "escape", span_of(access), None, False, loop, conditional)
    return Access(name, _use_kind(access, ident, pointer), span_of(access), index, False, loop, conditional)


def _subscript_text(indices: Node | None) -> str | None:
    """The index of `[i]` (a `subscript_argument_list`), None for `[i, j]` or nothing."""
    if indices is None:
        return None
    inner = [c for c in indices.named_children if c.type != "comment"]
    return text_of(inner[0]) if len(inner) == 1 else None


def _use_kind(access: Node, ident: Node, pointer: bool) -> str:
    parent = access.parent
    if parent is None:
        return "read"
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == access:
        return "write" if text_of(parent.child_by_field_name("operator")) == "=" else "rmw"
    if parent.type == "update_expression":
        return "rmw"
    if parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "&":
        return "escape"
    if access is ident and pointer:
        if parent.type == "binary_expression" and text_of(parent.child_by_field_name("operator")) in (
                "==", "!=", "<", ">", "<=", ">="):
            return "read"
        return "escape"  # a bare pointer or array: passed on, aliased or used in arithmetic
    return "read"


def _context(access: Node, region: Node) -> tuple[Span | None, bool]:
    """The innermost loop around a use (inside the region) and whether a condition sits in between."""
    conditional = False
    child = access
    node = access.parent
    while node is not None:
        if node.type in LOOP_TYPES:
            body = node.child_by_field_name("body")
            if body is not None and body.start_byte <= access.start_byte and access.end_byte <= body.end_byte:
                return span_of(node), conditional
        if node.type in CONDITIONAL_TYPES and child != node.child_by_field_name("condition"):
            conditional = True
        if node.type == "binary_expression" and text_of(node.child_by_field_name("operator")) in ("&&", "||") \
                and child == node.child_by_field_name("right"):
            conditional = True
        if node == region or node.type in FUNCTION_TYPES:
            break
        child = node
        node = node.parent
    return None, conditional
