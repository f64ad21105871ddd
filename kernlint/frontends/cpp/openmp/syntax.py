"""The C/C++ syntax OpenMP facts are read from: the statement a pragma applies to, the loops a loop
construct associates (with `collapse`), a `for` header's index, bounds and step, and declarations."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.facts.openmp_directive import OmpDirective
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.openmp.facts import Declared

_SKIPPED_SIBLINGS = frozenset({"comment", "preproc_call", "preproc_else", "preproc_elif", "preproc_elifdef"})
_PREPROC_BLOCKS = frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef"})
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "!="})
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


# -- association -------------------------------------------------------------------------------


def following_statement(node: tree_sitter.Node, end: int) -> tree_sitter.Node | None:
    """The statement a pragma applies to: the next sibling that is not a comment or pragma (nor the
    rest of the pragma's own line), stepping out of `#ifdef` blocks that end right after the pragma."""
    current: tree_sitter.Node | None = node
    while current is not None:
        sibling = current.next_named_sibling
        while sibling is not None and (sibling.type in _SKIPPED_SIBLINGS or sibling.start_byte < end):
            sibling = sibling.next_named_sibling
        if sibling is not None:
            if sibling.type in _PREPROC_BLOCKS:
                return None  # the statement itself is conditionally compiled: too uncertain
            return sibling
        parent = current.parent
        if parent is None or parent.type not in _PREPROC_BLOCKS:
            return None
        current = parent if parent.type != "preproc_else" else parent.parent
    return None


def collapse_depth(directive: OmpDirective, value_at: Callable[[str, int], int | None], at: int) -> int:
    """How many loops a `collapse(n)` clause associates (1 without one, or when n is unknown)."""
    clause = directive.clause("collapse")
    if clause is None or not clause.expr:
        return 1
    value = value_at(clause.expr, at)
    return value if value is not None and 1 <= value <= 8 else 1


def associated_loops(statement: tree_sitter.Node, depth: int) -> list[tree_sitter.Node]:
    """The loop a loop construct applies to and, for `collapse(n)`, the perfectly nested ones."""
    loops: list[tree_sitter.Node] = []
    node: tree_sitter.Node | None = statement
    while node is not None and node.type in ("for_statement", "for_range_loop") and len(loops) < depth:
        loops.append(node)
        body = node.child_by_field_name("body")
        if body is not None and body.type == "compound_statement":
            inner = [c for c in body.named_children if c.type not in ("comment", "preproc_call")]
            body = inner[0] if len(inner) == 1 else None
        node = body
    return loops


# -- loops -------------------------------------------------------------------------------------


def for_init(init: tree_sitter.Node | None) -> tuple[str | None, str | None]:
    if init is None:
        return None, None
    if init.type == "declaration":
        declarators = init.children_by_field_name("declarator")
        if len(declarators) == 1 and declarators[0].type == "init_declarator":
            name = declarators[0].child_by_field_name("declarator")
            value = declarators[0].child_by_field_name("value")
            if name is not None and name.type == "identifier" and value is not None:
                return text_of(name), text_of(value)
    if init.type == "assignment_expression" and text_of(init.child_by_field_name("operator")) == "=":
        left = init.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            return text_of(left), text_of(init.child_by_field_name("right"))
    return None, None


def for_condition(condition: tree_sitter.Node | None, index: str | None) -> tuple[str | None, str | None]:
    if condition is None or index is None or condition.type != "binary_expression":
        return None, None
    op = text_of(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if op not in _COMPARISONS or left is None or right is None:
        return None, None
    if left.type == "identifier" and text_of(left) == index:
        return op, text_of(right)
    if right.type == "identifier" and text_of(right) == index:
        return _FLIPPED[op], text_of(left)
    return None, None


def for_step(update: tree_sitter.Node | None, index: str | None) -> str | None:
    if update is None or index is None:
        return None
    if update.type == "update_expression":
        argument = update.child_by_field_name("argument")
        if text_of(argument) != index:
            return None
        return "1" if "++" in text_of(update) else "-1"
    if update.type == "assignment_expression":
        left = update.child_by_field_name("left")
        right = update.child_by_field_name("right")
        op = text_of(update.child_by_field_name("operator"))
        if text_of(left) != index or right is None:
            return None
        if op == "+=":
            return text_of(right)
        if op == "-=":
            return f"-({text_of(right)})"
        if op == "=" and right.type == "binary_expression":
            inner_left = right.child_by_field_name("left")
            inner_op = text_of(right.child_by_field_name("operator"))
            if text_of(inner_left) == index and inner_op in ("+", "-"):
                step = text_of(right.child_by_field_name("right"))
                return step if inner_op == "+" else f"-({step})"
    return None


# -- declarations ------------------------------------------------------------------------------


def declarator_name(declarator: tree_sitter.Node) -> str | None:
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type != "identifier":
        if node.type in ("function_declarator",):
            return None
        node = node.child_by_field_name("declarator")
    return text_of(node) if node is not None else None


def declared_from(declaration: tree_sitter.Node, declarator: tree_sitter.Node) -> Declared:
    element = type_size(text_of(declaration.child_by_field_name("type")))
    node: tree_sitter.Node | None = declarator
    upper = None
    is_array = False
    while node is not None and node.type != "identifier":
        if node.type == "init_declarator":
            node = node.child_by_field_name("declarator")
            continue
        if node.type in ("pointer_declarator", "reference_declarator", "abstract_pointer_declarator"):
            is_array = is_array or node.type == "pointer_declarator"
        elif node.type == "array_declarator":
            size = node.child_by_field_name("size")
            is_array = True
            inner = node.child_by_field_name("declarator")
            if inner is not None and inner.type == "identifier" and size is not None:
                upper = f"({text_of(size)}) - 1"
        node = (
            node.child_by_field_name("declarator")
            if node.child_by_field_name("declarator") is not None
            else (next((c for c in node.named_children if c.type == "identifier"), None))
        )
    return Declared(element, "0" if is_array else None, upper, is_array)
