"""The device code of a C/C++ OpenMP region, as the dependence analysis reads it (KL501).

`kernlint.frontends.openmp.dependence` decides which conditions diverge across a sub-group's lanes; it
needs the region's assignments and conditionals in source order, each with the conditionals (and
loops) that guard it. This module reads them from the tree with the `cpp_openmp_device` query.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial

import tree_sitter

from kernlint.facts import Span
from kernlint.facts.kinds import BranchKind
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.inside import NodesByPosition
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.device.arms import (
    ArmCounter,
    Constant,
    calls_one_of,
    combines,
    comparison_of,
)
from kernlint.frontends.cpp.device.text_marks import CodeOnly
from kernlint.frontends.cpp.openmp.nodes import LOOP_TYPES
from kernlint.frontends.cpp.syntax import function_declarator
from kernlint.frontends.openmp.dependence import BranchShape, RawAssign, RawBranch, RawCall, RawFunction
from kernlint.frontends.openmp.lanes import Scaling, scaling_of

Node = tree_sitter.Node

_SCALING: dict[str, Scaling] = {">>=": "halves", "/=": "halves", "<<=": "doubles", "*=": "doubles"}
_GUARDING = {
    "if_statement": ("consequence", "alternative"),
    "conditional_expression": ("consequence", "alternative"),
    "switch_statement": ("body",),
    "for_statement": ("body",),
    "while_statement": ("body",),
    "do_statement": ("body",),
}


def device_code(
    root: Node,
    functions: frozenset[str],
    constant: Constant | None = None,
    found: tuple[NodesByPosition, NodesByPosition] | None = None,
) -> list[RawAssign | RawBranch]:
    """Assignments and conditionals of the device region `root`, in source order. A call to one of
    the file's `functions` counts as work in a branch's arms; `constant` reads named constants (the
    trip counts of loops in arms); `found`: the loops and written identifiers of `root`'s tree, when
    known (`ArmCounter`)."""
    assigns: list[tuple[Node, RawAssign]] = []
    branches: list[tuple[Node, Node, BranchKind]] = []
    for _i, match in treesitter.matches("cpp", "cpp_openmp_device", root):
        if "assign" in match:
            statement = match["assign"][0]
            operator = (
                text_of(statement.child_by_field_name("operator")) if statement.type == "assignment_expression" else "="
            )
            assigns.append(
                (
                    statement,
                    RawAssign(
                        text_of(match["name"][0]),
                        text_of(match["value"][0]),
                        span_of(statement),
                        _guards(statement, root),
                        operator != "=",
                        _SCALING.get(operator)
                        or (
                            scaling_of(text_of(match["name"][0]), text_of(match["value"][0]))
                            if operator == "="
                            else None
                        ),
                    ),
                )
            )
        elif "update" in match:
            statement = match["update"][0]
            assigns.append(
                (
                    statement,
                    RawAssign(text_of(match["name"][0]), None, span_of(statement), _guards(statement, root), True),
                )
            )
        else:
            kind: BranchKind = next(k for k in ("if", "switch", "loop", "ternary") if k in match)
            branches.append((match[kind][0], match["condition"][0], kind))
    items: list[tuple[int, RawAssign | RawBranch]] = [(n.start_byte, a) for n, a in assigns]
    arms = ArmCounter(calls_one_of(functions), constant, found=found)
    code_only = CodeOnly(root.text or b"", root.start_byte)
    assigned_in: dict[int, set[str]] = {}  # loop -> the names assigned inside it (read once per loop)
    for node, condition, kind in branches:
        if kind == "if" and _atomic_block(node, root):
            continue  # `#pragma omp atomic compare`: the test is part of one atomic instruction
        varying: set[str] = set()
        for loop in _ancestors_within(node, root, include_self=True):
            if loop.type in LOOP_TYPES:
                names = assigned_in.get(loop.id)
                if names is None:
                    names = assigned_in[loop.id] = {
                        a.name for n, a in assigns if loop.start_byte <= n.start_byte and n.end_byte <= loop.end_byte
                    }
                varying |= names
        fields = _GUARDING.get(node.type, ())
        regions = tuple(span_of(r) for r in (node.child_by_field_name(f) for f in fields) if r is not None)
        text = text_of(condition)
        if node.type == "do_statement" and text.startswith("(") and text.endswith(")"):
            text = text[1:-1]
        is_else_if = node.type == "if_statement" and node.parent is not None and node.parent.type == "else_clause"
        items.append(
            (
                node.start_byte,
                RawBranch(
                    span_of(node),
                    span_of(condition),
                    text,
                    "else-if" if is_else_if else kind,
                    regions,
                    _guards(node, root),
                    tuple(sorted(varying)),
                    _chain_head(node) if is_else_if else None,
                    kind == "ternary" and _select_like(node),
                    shape=partial(_shape, arms, code_only, node, condition),
                ),
            )
        )
    return [item for _start, item in sorted(items, key=lambda pair: pair[0])]


def calls_in(root: Node, functions: Mapping[str, list[Node]], calls: list[Node] | None = None) -> list[RawCall]:
    """Calls inside the region `root` of the file's own `functions` (by plain name), in source order,
    each with the conditionals around it in the region (`calls`: the `cpp_openmp_calls` captures in
    `root`, when the caller has them)."""
    found = []
    for call in calls if calls is not None else treesitter.captures("cpp", "cpp_openmp_calls", root).get("call", []):
        name = text_of(call.child_by_field_name("function"))
        if name in functions:
            args = tuple(text_of(a) for a in arguments_of(call.child_by_field_name("arguments")))
            found.append(RawCall(name, args, span_of(call), _guards(call, root)))
    return sorted(found, key=lambda c: c.span.start_byte)


def raw_function(name: str, definitions: list[Node], nodes: dict[Span, Node]) -> RawFunction | None:
    """The file's one definition of `name` as device code: its body (registered in `nodes`, the
    regions a source reads by span) and parameter names; None with several definitions, without a
    body, or when a parameter has no name, which no call could bind."""
    definition = definitions[0] if len(definitions) == 1 else None
    body = definition.child_by_field_name("body") if definition is not None else None
    declarator = function_declarator(definition) if definition is not None else None
    if body is None or declarator is None:
        return None
    params = []
    for param in arguments_of(declarator.child_by_field_name("parameters")):
        if param.type == "variadic_parameter":
            return None
        declared = param.child_by_field_name("declarator")
        while declared is not None and declared.type != "identifier":
            declared = declared.child_by_field_name("declarator") or next(
                (c for c in declared.named_children if c.type == "identifier"), None
            )
        if declared is None:
            if text_of(param).strip() == "void":
                continue
            return None
        params.append(text_of(declared))
    nodes[span_of(body)] = body
    return RawFunction(name, span_of(body), tuple(params))


def _shape(arms: ArmCounter, code_only: CodeOnly, node: Node, condition: Node) -> BranchShape:
    """What a C/C++ construct's arms cost and how it may be rewritten (asked only of divergent ones)."""
    return BranchShape(
        arms.costs(node), arms.steers_loop(node), code_only(node), comparison_of(condition), combines(node)
    )


def _atomic_block(node: Node, root: Node) -> bool:
    """`node` is the statement, or inside the block, that a `#pragma omp atomic` directive applies to."""
    for current in _ancestors_within(node, root, include_self=True):
        before = current.prev_named_sibling
        while before is not None and before.type == "comment":
            before = before.prev_named_sibling
        if (
            before is not None
            and before.type in ("preproc_call", "preproc_pragma")
            and re.match(r"#\s*pragma\s+omp\s+atomic\b", text_of(before))
        ):
            return True
    return False


def _ancestors_within(node: Node, root: Node, include_self: bool = False) -> list[Node]:
    found = [node] if include_self else []
    current = node
    while current != root and current.parent is not None:
        current = current.parent
        found.append(current)
    return found


def _guards(node: Node, root: Node) -> tuple[Span, ...]:
    """The conditionals (and loops) inside `root` whose guarded part holds `node`, outermost first."""
    found: list[Span] = []
    child = node
    current = node.parent
    while current is not None and child != root:
        fields = _GUARDING.get(current.type)
        if fields and any(current.child_by_field_name(f) == child for f in fields):
            found.append(span_of(current))  # (code under `else` reaches here through the else_clause)
        child = current
        current = current.parent
    return tuple(found[::-1])


def _chain_head(node: Node) -> Span:
    head = node
    while head.parent is not None and head.parent.type == "else_clause" and head.parent.parent is not None:
        head = head.parent.parent
    return span_of(head)


def _select_like(node: Node) -> bool:
    """A ?: whose arms only compute values (no assignment, increment or call): a select."""
    for field in ("consequence", "alternative"):
        stack = [node.child_by_field_name(field)]
        while stack:
            current = stack.pop()
            if current is None:
                continue
            if current.type in ("assignment_expression", "update_expression", "call_expression"):
                return False
            stack.extend(current.named_children)
    return True
