"""Host-side structure the loop rules need: how often a loop runs, whether a queue is one element of an
array of queues, and which of the file's own functions are called inside host loops.

A cost paid "on every iteration" is only a cost when the body runs more than once, and a queue stored
per index is an intended array of queues, not one queue rebuilt; reading both here keeps KL101 and
KL207 from advising on loops that run once and on arrays that are meant.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

import tree_sitter

from kernlint.facts import FunctionCall, Loop, Span
from kernlint.facts.kinds import LoopKind, Side
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

_CONTAINER_INSERTS = frozenset({"push_back", "emplace_back", "push_front", "emplace_front", "insert", "emplace"})


def loop_fact(unit: CppUnit, kind: LoopKind, node: Node, side: Side, counted: bool) -> Loop:
    """The loop, with its trip count when `counted` (reading bounds costs constant evaluation)."""
    return Loop(span_of(node), kind, side, _trip_count(unit, kind, node) if counted else None)


def _trip_count(unit: CppUnit, kind: LoopKind, node: Node) -> int | None:
    """How many times the body runs, when the loop says so with constants: `do … while (0)` once,
    `while (0)` never, `for (i = a; i < b; ++i)` b - a times when the body does not write `i`."""
    condition = node.child_by_field_name("condition")
    if kind in ("do", "while"):
        value = unit.constants.node_value(condition) if condition is not None else None
        return (1 if kind == "do" else 0) if value == 0 else None
    if kind != "for" or condition is None or condition.type != "binary_expression":
        return None
    index, start = _for_start(node.child_by_field_name("initializer"))
    if index is None or start is None or not _steps_by_one(node.child_by_field_name("update"), index):
        return None
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    operator = text_of(condition.child_by_field_name("operator"))
    if text_of(left) != index or operator not in ("<", "<=", "!=") or right is None:
        return None
    first, bound = unit.constants.value(start, node.start_byte), unit.constants.node_value(right)
    if first is None or bound is None:
        return None
    body = node.child_by_field_name("body")
    if body is not None and index in unit.assigned_names(body):
        return None
    return max(0, bound - first + (1 if operator == "<=" else 0))


def _for_start(initializer: Node | None) -> tuple[str | None, str | None]:
    """The index and its start value: `int i = 0` or `i = 0`."""
    if initializer is None:
        return None, None
    if initializer.type == "declaration":
        declarator = initializer.child_by_field_name("declarator")
        if declarator is None or declarator.type != "init_declarator":
            return None, None
        name, value = declarator.child_by_field_name("declarator"), declarator.child_by_field_name("value")
    elif initializer.type == "assignment_expression" and text_of(initializer.child_by_field_name("operator")) == "=":
        name, value = initializer.child_by_field_name("left"), initializer.child_by_field_name("right")
    else:
        return None, None
    if name is None or name.type != "identifier" or value is None:
        return None, None
    return text_of(name), text_of(value)


def _steps_by_one(update: Node | None, index: str) -> bool:
    if update is None:
        return False
    text = re.sub(r"\s+", "", text_of(update))
    return text in (f"++{index}", f"{index}++", f"{index}+=1", f"{index}={index}+1")


def element_of(node: Node) -> str | None:
    """Where a queue construction is stored when it is one of an array or container of queues:
    `qs[i] = queue(…)`, `qs[i] = new queue(…)`, `qs.push_back(queue(…))`, `new queue[n]`,
    `queue qs[4]`. None for a queue of its own."""
    if node.type == "declaration":
        for declarator in node.children_by_field_name("declarator"):
            if declarator.type == "array_declarator":
                return text_of(declarator.child_by_field_name("declarator"))
            value = declarator.child_by_field_name("value")
            if value is not None and _new_array(value):
                return text_of(declarator.child_by_field_name("declarator")).lstrip("*& ")
        return None
    parent = node.parent
    if _new_array(node):
        target = (
            parent.child_by_field_name("declarator" if parent.type == "init_declarator" else "left")
            if parent is not None
            else None
        )
        return text_of(target).lstrip("*& ") if target is not None else "new[]"
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None:
        return None
    left = parent.child_by_field_name("left")
    if parent.type == "assignment_expression" and left is not None and left.type == "subscript_expression":
        return text_of(left)
    call = parent.parent if parent.type == "argument_list" else None
    function = call.child_by_field_name("function") if call is not None else None
    if (
        function is not None
        and function.type == "field_expression"
        and text_of(function.child_by_field_name("field")) in _CONTAINER_INSERTS
    ):
        return text_of(function.child_by_field_name("argument"))
    return None


def _new_array(node: Node) -> bool:
    declarator = node.child_by_field_name("declarator") if node.type == "new_expression" else None
    return declarator is not None and declarator.type == "new_declarator"


_STORES = frozenset({"push_back", "emplace_back", "push_front", "emplace_front", "emplace", "insert", "push"})
_OWNERS = re.compile(r"^(?:std::)?make_(?:unique|shared)\b")
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})


def outlives_iteration(construction: Node, name: str | None) -> bool:
    """Whether an object built in a loop is kept beyond the iteration: handed to a container's
    insertion (`bufs.push_back(buffer(…))`, `v.push_back(std::make_unique<buffer>(…))`), allocated with
    `new` and stored or never deleted in the loop, or, named, later pushed, moved or assigned out
    (`bufs.push_back(b)`, `kept = b`): a setup loop that builds one per item, not one per iteration."""
    loop = construction.parent
    while (
        loop is not None and loop.type not in _LOOPS and loop.type not in ("function_definition", "lambda_expression")
    ):
        loop = loop.parent
    if loop is None or loop.type not in _LOOPS:
        return False
    value = construction
    allocated = construction.type == "new_expression"
    while value.parent is not None:
        parent = value.parent
        if parent.type in ("new_expression", "parenthesized_expression"):
            allocated |= parent.type == "new_expression"
        elif (
            parent.type == "argument_list"
            and parent.parent is not None
            and _OWNERS.match(text_of(parent.parent.child_by_field_name("function")))
        ):
            allocated = True
            parent = parent.parent
        else:
            break
        value = parent
    holder = value.parent
    if holder is not None and holder.type == "argument_list" and _stores_into(holder.parent):
        return True
    if allocated and holder is not None and holder.type == "assignment_expression":
        return True  # `slots[i] = new buffer(…)`: stored where the loop does not reach
    body = text_of(loop)[construction.end_byte - loop.start_byte :]
    if allocated:
        declared = _declared_name(holder)
        return declared is None or not re.search(rf"\bdelete\s*(?:\[\s*\])?\s*{re.escape(declared)}\b", body)
    if not name:
        return False
    escaped = re.escape(name)
    return bool(
        re.search(rf"\.\s*(?:{'|'.join(_STORES)})\s*\((?:[^()]*,)?\s*(?:std::move\s*\(\s*)?{escaped}\s*\)?\s*\)", body)
        or re.search(rf"(?<![=!<>])=\s*(?:std::move\s*\(\s*)?{escaped}\s*\)?\s*;", body)
    )


def _stores_into(call: Node | None) -> bool:
    """A call of a container's insertion method (`v.push_back(x)`, `m.emplace(k, x)`)."""
    function = call.child_by_field_name("function") if call is not None else None
    field = (
        function.child_by_field_name("field") if function is not None and function.type == "field_expression" else None
    )
    return field is not None and text_of(field) in _STORES


def _declared_name(node: Node | None) -> str | None:
    """The variable an `init_declarator` declares (`auto *p = new …`), else None."""
    if node is None or node.type != "init_declarator":
        return None
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
        declarator = declarator.child_by_field_name("declarator") or next(iter(declarator.named_children), None)
    return text_of(declarator) if declarator is not None and declarator.type == "identifier" else None


def defining_function(node: Node, *, clean: bool = False) -> str | None:
    """The name of the function whose definition holds `node`; with `clean`, only when that definition
    parsed without error (a syntax error can nest the rest of a file inside one function)."""
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    if parent is None or (clean and parent.has_error):
        return None
    declarator = parent.child_by_field_name("declarator")
    while declarator is not None and declarator.type in (
        "function_declarator",
        "pointer_declarator",
        "reference_declarator",
    ):
        declarator = declarator.child_by_field_name("declarator")
    return text_of(declarator) if declarator is not None else None


def calls_in_loops(
    unit: CppUnit, callees: set[str], host_loops: list[Span], in_device: Callable[[Node], bool]
) -> tuple[FunctionCall, ...]:
    """Calls of the functions `callees` (which the file defines) made on the host inside `host_loops`."""
    if not callees or not host_loops:
        return ()
    found = []
    starts, ends = _union(host_loops)
    pattern = re.compile(rb"\b(" + b"|".join(re.escape(name.encode()) for name in sorted(callees)) + rb")\s*\(")
    for match in pattern.finditer(unit.data):
        at = match.start()
        run = bisect_right(starts, at) - 1
        if run < 0 or at >= ends[run]:
            continue
        node = unit.root.descendant_for_byte_range(at, match.end(1))
        call = node.parent if node is not None else None
        if (
            call is None
            or call.type != "call_expression"
            or call.child_by_field_name("function") != node
            or in_device(call)
        ):
            continue
        found.append(FunctionCall(span_of(call), match.group(1).decode()))
    return tuple(found)


def _union(spans: list[Span]) -> tuple[list[int], list[int]]:
    """The bytes `spans` cover, as sorted disjoint runs (their starts, their ends): whether an offset
    lies in one of the spans is then a bisection."""
    starts: list[int] = []
    ends: list[int] = []
    for span in sorted(spans, key=lambda each: each.start_byte):
        if ends and span.start_byte <= ends[-1]:
            ends[-1] = max(ends[-1], span.end_byte)
        else:
            starts.append(span.start_byte)
            ends.append(span.end_byte)
    return starts, ends
