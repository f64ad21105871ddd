"""What the arms of a divergent Fortran construct cost, counted on the tree (KL501 ranks by it).

The Fortran counterpart of `frontends.cpp.device.arms`: one `ArmCost` per path of an `if` / `else if` /
`else` block or `select case`, or the body of a `do` loop.
"""

from __future__ import annotations

import tree_sitter

from kernlint.facts.device import ArmCost
from kernlint.frontends.common.nodes import text_of

Node = tree_sitter.Node

_STATEMENTS = frozenset(
    {
        "assignment_statement",
        "pointer_association_statement",
        "subroutine_call",
        "do_loop",
        "if_statement",
        "select_case_statement",
        "where_statement",
        "keyword_statement",
    }
)
_ARM_BREAKS = frozenset({"else_clause", "elseif_clause", "case_statement"})
_HEADERS = frozenset(
    {
        "parenthesized_expression",
        "do_statement",
        "end_if_statement",
        "end_do_loop_statement",
        "end_select_statement",
        "selector",
        "comment",
    }
)


def arm_costs(node: Node) -> tuple[ArmCost, ...]:
    """One `ArmCost` per guarded path of an if (or else-if clause), select case or do loop."""
    arms: list[list[Node]] = [[]]
    for child in node.named_children:
        if child.type in _ARM_BREAKS:
            arms.append([c for c in child.named_children if c.type not in _HEADERS])
        elif child.type not in _HEADERS:
            arms[0].append(child)
    return tuple(_cost(arm) for arm in arms if arm or node.type != "select_case_statement")


def _cost(arm: list[Node]) -> ArmCost:
    statements = loops = calls = 0
    exits = False
    stack = list(arm)
    while stack:
        current = stack.pop()
        statements += current.type in _STATEMENTS
        loops += current.type == "do_loop"
        calls += current.type == "subroutine_call"
        if current.type == "keyword_statement":  # only its own text is read: not every node's
            exits |= (current.text or b"").lstrip()[:6].lower().startswith((b"exit", b"return"))
        stack.extend(current.named_children)
    target = value = None
    if len(arm) == 1 and arm[0].type == "assignment_statement":
        left, right = arm[0].child_by_field_name("left"), arm[0].child_by_field_name("right")
        if left is not None and right is not None and left.type == "identifier":
            target, value = text_of(left), text_of(right)
    return ArmCost(statements, loops, calls, exits, target, value)
