"""What the arms of a divergent Fortran construct cost, counted on the tree (KL501 ranks by it).

The Fortran counterpart of `frontends.cpp.device.arms`: one `ArmCost` per path of an `if` / `else if` /
`else` block or `select case`, or the body of a `do` loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter

from kernlint.facts.device import ArmCost
from kernlint.frontends.common.nodes import text_of

Node = tree_sitter.Node
Trips = Callable[[Node], "int | None"]  # a `do` loop's trip count when its bounds are constants
_GROUP_SIZE = re.compile(r"\bomp_get_num_threads\b", re.IGNORECASE)
_UNROLLED = 16  # a loop of at most this many constant trips is its body that many times (as in C)

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


def do_trips(lower: str | None, upper: str | None, step: str | None, value: Callable[[str], int | None]) -> int | None:
    """A `do` loop's trip count from its bounds as written, when they are constants (`do k = 1, TEAM`)."""
    if lower is None or upper is None:
        return None
    first, last = value(lower), value(upper)
    stride = value(step) if step is not None else 1
    if first is None or last is None or not stride:
        return None
    return max(0, (last - first) // stride + 1)


def arm_costs(node: Node, trips: Trips | None = None) -> tuple[ArmCost, ...]:
    """One `ArmCost` per guarded path of an if (or else-if clause), select case or do loop; `trips`
    gives the constant trip counts of `do` loops (the longest is the arm's `loop_trips`)."""
    arms: list[list[Node]] = [[]]
    for child in node.named_children:
        if child.type in _ARM_BREAKS:
            arms.append([c for c in child.named_children if c.type not in _HEADERS])
        elif child.type not in _HEADERS:
            arms[0].append(child)
    return tuple(_cost(arm, trips) for arm in arms if arm or node.type != "select_case_statement")


def _cost(arm: list[Node], trips: Trips | None = None) -> ArmCost:
    statements = loops = calls = 0
    exits = over_group = False
    longest: int | None = None
    stack = list(arm)
    while stack:
        current = stack.pop()
        statements += current.type in _STATEMENTS
        if current.type == "do_loop":
            count = trips(current) if trips is not None else None
            loops += count is None or count > _UNROLLED
            if count is not None and count > _UNROLLED:
                longest = max(longest or 0, count)
            header = next((c for c in current.named_children if c.type == "do_statement"), None)
            over_group |= header is not None and bool(_GROUP_SIZE.search(text_of(header)))
        calls += current.type == "subroutine_call"
        if current.type == "keyword_statement":  # only its own text is read: not every node's
            exits |= (current.text or b"").lstrip()[:6].lower().startswith((b"exit", b"return"))
        stack.extend(current.named_children)
    target = value = None
    if len(arm) == 1 and arm[0].type == "assignment_statement":
        left, right = arm[0].child_by_field_name("left"), arm[0].child_by_field_name("right")
        if left is not None and right is not None and left.type == "identifier":
            target, value = text_of(left), text_of(right)
    return ArmCost(statements, loops, calls, exits, target, value, loop_trips=longest, over_group=over_group)
