"""How an accessor's creation spells its access mode (`ModeSyntax`), so that a fix can rewrite it.

A mode is a template argument (`accessor<T, 1, access::mode::read>`, `get_access<mode::read>`), a tag
among the constructor arguments (`accessor a{b, h, read_only}`), or left out (the default,
read_write). What else is written there (a handler, a range, properties) decides where a new mode goes.
"""

from __future__ import annotations

import re

import tree_sitter

from kernlint.facts import Accessor
from kernlint.facts.accessor_uses import ModeSyntax
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.syntax import base_type, method_field

Node = tree_sitter.Node

_PROPERTY = re.compile(r"\b(property_list|no_init|property)\b")


def mode_syntax(accessor: Accessor, node: Node) -> ModeSyntax:
    """The syntax of the creation `node` of `accessor` (a construction or a `get_access` call)."""
    if accessor.form == "get_access":
        return _get_access_syntax(accessor, node)
    targs = template_args(node)
    args = _construction_args(node)
    handler = span_of(args[1]) if len(args) >= 2 else None
    rest = args[2:]
    ranged = any(_is_range_argument(a) for a in rest)
    mode = accessor.mode_span
    if mode is not None:
        in_args = any(a.start_byte == mode.start_byte for a in rest)
        last = bool(rest) and rest[-1].start_byte == mode.start_byte
        return ModeSyntax("tag" if in_args else "enum", handler, in_args and last, None, ranged)
    if len(targs) >= 3 or any(not _is_range_argument(a) and not is_property(a) for a in rest):
        return ModeSyntax("other", handler, ranged=ranged)
    if rest:
        return ModeSyntax("default-other", handler, ranged=ranged)
    return ModeSyntax("default-typed" if targs else "default-ctad", handler)


def template_args(node: Node) -> list[Node]:
    """The template arguments of the class a construction names (`accessor<T, 1, mode>`)."""
    return arguments_of(base_type(node.child_by_field_name("type") or node.child_by_field_name("function"))[1])


def is_property(node: Node) -> bool:
    """An argument that passes accessor properties (`property_list{no_init}`, `no_init`)."""
    return bool(_PROPERTY.search(text_of(node)))


def _get_access_syntax(accessor: Accessor, node: Node) -> ModeSyntax:
    function = node.child_by_field_name("function")
    method = method_field(node)
    targ_list = (
        method.child_by_field_name("arguments") if method is not None and method.type == "template_method" else None
    )
    targs = arguments_of(targ_list)
    args = arguments_of(node.child_by_field_name("arguments"))
    handler = span_of(args[0]) if args else None
    rest = args[1:]
    ranged = any(_is_range_argument(a) for a in rest)
    mode = accessor.mode_span
    if mode is not None:
        if targ_list is not None and targ_list.start_byte <= mode.start_byte < targ_list.end_byte:
            assert function is not None and method is not None  # a template argument list implies both
            whole = (
                span_of(targ_list)
                if len(targs) == 1
                and len(args) == 1
                and method.type == "template_method"
                and (function.child_by_field_name("field") == method)
                else None
            )
            return ModeSyntax("enum", handler, False, whole, ranged)
        last = bool(rest) and rest[-1].start_byte == mode.start_byte
        return ModeSyntax("tag", handler, last, None, ranged)
    if targs or any(not _is_range_argument(a) and not is_property(a) for a in rest):
        return ModeSyntax("other", handler, ranged=ranged)
    return ModeSyntax("default-other" if rest else "default-get-access", handler, ranged=ranged)


def _construction_args(node: Node) -> list[Node]:
    if node.type == "declaration":
        declarator = node.child_by_field_name("declarator")
        if declarator is None:
            return []
        if declarator.type == "function_declarator":
            return arguments_of(declarator.child_by_field_name("parameters"))
        return arguments_of(declarator.child_by_field_name("value"))
    return arguments_of(node.child_by_field_name("arguments") or node.child_by_field_name("value"))


def _is_range_argument(node: Node) -> bool:
    text = text_of(node)
    return not _PROPERTY.search(text) and bool(re.search(r"\b(range|id)\b", text) or text.lstrip().startswith("{"))
