"""What the arms of a divergent C/C++ construct cost, counted on the tree (KL501 ranks by it).

Shared by the SYCL device analysis and the OpenMP C/C++ front-end: both hand a conditional or loop
node and get one `ArmCost` per guarded path, whether the construct steers a loop (a search or walk)
and whether it can be rewritten whole (no comments or preprocessor lines inside).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

import tree_sitter

from kernlint.facts.device import ArmCost
from kernlint.frontends.common.inside import NodesByPosition
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.declarations import declared, value_type
from kernlint.frontends.cpp.dependence.nodes import Parents
from kernlint.frontends.cpp.device.math_calls import is_math_call

Node = tree_sitter.Node
IsWork = Callable[[Node], bool]  # whether a call runs real work (a device function, unknown code)
Constant = Callable[[str, int], "int | None"]  # a named constant's value where it is read, or None

_STATEMENTS = frozenset(
    {
        "expression_statement",
        "declaration",
        "return_statement",
        "if_statement",
        "switch_statement",
        "for_statement",
        "while_statement",
        "do_statement",
        "for_range_loop",
    }
)
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})
_BOUNDS = _LOOPS | {"lambda_expression", "function_definition"}  # what `steers_loop` looks up to
_NO_EXIT_DESCENT = _LOOPS | {"switch_statement", "lambda_expression", "function_definition"}
# Expressions made of their parts alone (no statement of their own): `ArmCounter._plain` asks of these.
_PLAIN_EXPRESSIONS = frozenset(
    {
        "assignment_expression",
        "binary_expression",
        "comma_expression",
        "conditional_expression",
        "field_expression",
        "init_declarator",
        "pointer_expression",
        "qualified_identifier",
        "subscript_expression",
        "unary_expression",
        "update_expression",
    }
)
_LOG_TRIPS = 5  # what a halving loop (`for (s = 16; s > 0; s >>= 1)`) is counted as
_UNROLLED = 16  # a loop of at most this many constant trips is counted as its body that many times
_UNIT_STEP = re.compile(r"\s*(?:\+\+\s*\w+|\w+\s*\+\+|\w+\s*\+=\s*1)\s*")
_GROUP_SIZE = re.compile(r"\b(?:get_local_range|get_local_linear_range|get_max_local_range|omp_get_num_threads)\b")


def calls_one_of(names: frozenset[str]) -> IsWork:
    """A call counts as work when it reaches one of `names` (functions defined in the file)."""

    def is_work(call: Node) -> bool:
        function = call.child_by_field_name("function")
        name = text_of(function) if function is not None else ""
        return name.split("<", 1)[0].rsplit("::", 1)[-1].rsplit(".", 1)[-1].rsplit("->", 1)[-1] in names

    return is_work


def arm_nodes(node: Node) -> list[Node]:
    """The guarded paths: an if's two arms (an else-if chain is one arm), a switch's cases, a loop's body."""
    if node.type in ("if_statement", "conditional_expression"):
        arms = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
        return [
            a.named_children[-1] if a.type == "else_clause" and a.named_children else a for a in arms if a is not None
        ]
    body = node.child_by_field_name("body")
    if node.type == "switch_statement" and body is not None:
        return [c for c in body.named_children if c.type == "case_statement"]
    return [body] if body is not None else []


class ArmCounter:
    """Counts the arms of a file's divergent constructs and tells which steer a loop. Each node is
    weighed once, bottom up, and remembered, and so is whether it returns or breaks: nested constructs
    share their inner arms, so a nest of conditions costs its size, not its size times its depth (and no
    recursion limit is met however deep the nest)."""

    def __init__(
        self,
        is_work: IsWork,
        constant: Constant | None = None,
        parents: Parents | None = None,
        marks: list[int] | None = None,
        found: tuple[NodesByPosition, NodesByPosition] | None = None,
    ) -> None:
        """`marks`: where the parsed text has a parenthesis, brace or `#` (`open_marks`), when known: an
        expression without one in it (most of them) is then weighed whole, without a walk (see `_plain`).
        `found`: when known, every loop of the tree and every identifier an assignment or `++`/`--`
        writes (the file query's and symbol query's captures): a node holding none of the loops has no
        trip count to find, and one holding no write of a name reassigns none, without a walk."""
        self._is_work = is_work
        self._loops: NodesByPosition | None = found[0] if found is not None else None
        self._writes: NodesByPosition | None = found[1] if found is not None else None
        self._marks = marks
        self._constant = constant
        self._weights: dict[int, tuple[int, int, int]] = {}  # node id -> (statements, loops, calls)
        self._leaves: dict[int, tuple[bool, bool]] = {}  # node id -> (returns, breaks) outside inner loops
        self._extents: dict[int, tuple[int | None, bool]] = {}  # node id -> `_extent`
        self._chains: dict[int, bool] = {}  # if statement id -> `_select_chain`
        self.parent_of = parents or Parents()
        self._enclosing: dict[int, Node | None] = {}  # node id -> the loop or unit around it (`enclosing`)

    def costs(self, node: Node) -> tuple[ArmCost, ...]:
        """One `ArmCost` per guarded path of `node` (see `arm_nodes`). An `if` / `else if` chain whose
        every arm is one plain assignment (`if (x < a) c = 0; else if (x < b) c = 1; else c = 2;`) is
        compiled to compares and selects: each arm then counts as the one statement it is."""
        if node.type == "if_statement" and self._select_chain(node):
            return tuple(self._cost(arm, node, chained=True) for arm in arm_nodes(node))
        return tuple(self._cost(arm, node) for arm in arm_nodes(node))

    def _select_chain(self, node: Node) -> bool:
        """Whether every arm of the if / else-if chain from `node` on is one plain assignment; each
        link's answer remembered (the links of a long chain share the rest of it)."""
        links: list[Node] = []
        link: Node | None = node
        answer: bool | None = None
        while link is not None and link.type == "if_statement" and answer is None:
            answer = self._chains.get(link.id)
            if answer is None:
                links.append(link)
                arms = arm_nodes(link)
                if not arms or _single_assignment(arms[0], self._is_work) is None:
                    answer = False
                link = arms[1] if len(arms) > 1 else None
        if answer is None:
            answer = link is None or _single_assignment(link, self._is_work) is not None
        for each in links:
            self._chains[each.id] = answer
        return answer

    def _cost(self, arm: Node, owner: Node, chained: bool = False) -> ArmCost:
        statements, loops, calls = (1, 0, 0) if chained else self.weigh(arm)
        trips, over_group = self._loop_extent(arm)
        assigned = _single_assignment(arm, self._is_work)
        if assigned is None:
            return ArmCost(statements, loops, calls, self._exits(arm, owner), loop_trips=trips, over_group=over_group)
        target, value = assigned
        found = declared(text_of(target), target, self.parent_of)
        target_type = found.type if found is not None else None
        return ArmCost(
            statements,
            loops,
            calls,
            self._exits(arm, owner),
            text_of(target),
            text_of(value),
            target_type=target_type,
            value_type=value_type(value, target, self.parent_of, target_type),
            target_private=found is not None and found.private,
        )

    def _loop_extent(self, arm: Node) -> tuple[int | None, bool]:
        """(the most iterations a nest of loops in `arm` with constant bounds runs, more than a short loop
        unrolled: 16 × 16 is 256; whether one of its loops runs over the work-group)."""
        if self._holds_no_loop(arm):
            return None, False  # nothing below has a trip count or runs over the group
        most, over_group = self._extent(arm)
        return (most if most is not None and most > _UNROLLED else None), over_group

    def _extent(self, root: Node) -> tuple[int | None, bool]:
        """(the largest product of constant trip counts from `root` down to a loop below it, None when no
        loop has one; whether a loop below runs over the work-group), each node worked out once, bottom
        up, so that the arms of a nest share their inner answers."""
        extents = self._extents
        stack: list[tuple[Node, list[Node] | None]] = [(root, None)]
        while stack:
            node, children = stack.pop()
            if node.id in extents:
                continue
            kind = node.type
            if kind in ("lambda_expression", "function_definition"):
                extents[node.id] = (None, False)
                continue
            if children is None:
                children = node.named_children
                if children and (self._plain(node) or self._holds_no_loop(node)):  # no loop below
                    extents[node.id] = (None, False)
                    continue
                if children:  # worked out after its children; a leaf (most nodes) at once
                    stack.append((node, children))
                    stack.extend((child, None) for child in children if child.id not in extents)
                    continue
            most, over_group = None, False
            for child in children:  # the largest known count below, and whether any loop below is over the group
                child_most, child_group = extents[child.id]
                if child_most is not None and (most is None or child_most > most):
                    most = child_most
                over_group = over_group or child_group
            if kind in _LOOPS:
                condition = node.child_by_field_name("condition")
                update = node.child_by_field_name("update")
                # over the work-group one element at a time (a stride of the sub-group size visits
                # one partial per sub-group: a handful)
                over_group |= (
                    condition is not None
                    and bool(_GROUP_SIZE.search(text_of(condition)))
                    and (update is None or bool(_UNIT_STEP.fullmatch(text_of(update))))
                )
                count = _trips(node, self._constant) if kind == "for_statement" else None
                if count is not None:
                    most = max(count, count * most) if most is not None else count
            extents[node.id] = (most, over_group)
        return self._extents[root.id]

    def _holds_no_loop(self, node: Node) -> bool:
        """Whether `node` is known to hold no loop (from the file's loops, when given)."""
        return self._loops is not None and not self._loops.holds_any(node)

    def steers_loop(self, node: Node) -> bool:
        """Whether `node` decides when a loop stops: a loop whose body reassigns (with a plain `=`) what
        its condition reads, or a branch inside a loop that exits it or reassigns what the loop tests."""
        if node.type in _LOOPS:
            body = node.child_by_field_name("body")
            spins = body is not None and not any(c.type != "comment" for c in body.named_children)
            names = _condition_names(node)  # a wait on memory, or a walk (`ix = next[ix]` in the body or update)
            return spins or self._reassigns(body, names) or self._reassigns(node.child_by_field_name("update"), names)
        loop = self.enclosing(node)
        if loop is None or loop.type not in _LOOPS:
            return False
        arms = arm_nodes(node)
        if any(self._exits(arm, node) for arm in arms):
            return True
        names = _condition_names(loop)
        return any(self._reassigns(arm, names) for arm in arms)

    def _reassigns(self, body: Node | None, names: set[str]) -> bool:
        """`_reassigns`, answered without a walk when `body` holds no write of one of `names`: a
        target it counts is a plain identifier (`names` are identifiers' texts), the symbol query's
        `assigned.name` captures of an assignment's left or an update's argument."""
        if body is None or not names:
            return False
        if self._writes is not None and not any(text_of(n) in names for n in self._writes.inside(body)):
            return False
        return _reassigns(body, names)

    def enclosing(self, node: Node) -> Node | None:
        """The innermost loop, lambda or function around `node`, each node's answer remembered on the
        way up (the branches of a deep nest share their walks)."""
        path = []
        current = self.parent_of(node)
        while current is not None and current.type not in _BOUNDS and current.id not in self._enclosing:
            path.append(current)
            current = self.parent_of(current)
        found = self._enclosing.get(current.id, current) if current is not None else None
        for step in path:
            self._enclosing[step.id] = found
        return found

    def _exits(self, arm: Node, owner: Node) -> bool:
        """Whether `arm` returns, or breaks out of `owner` (a `break` in a switch's case only ends the case)."""
        self.weigh(arm)
        returns, breaks = self._leaves[arm.id]
        return returns or (breaks and owner.type != "switch_statement")

    def weigh(self, root: Node) -> tuple[int, int, int]:
        """(statements, loops, calls) under `root`. An `if` is its arms (the test is not work of its own);
        a loop with a small constant trip count is its body that many times rather than a loop. Whether
        each node returns or breaks is remembered in the same pass."""
        weights = self._weights
        stack: list[tuple[Node, list[Node] | None]] = [(root, None)]
        while stack:
            node, children = stack.pop()
            if node.id in weights:
                continue
            if children is None:
                children = _weighed_children(node)
                if children and self._plain(node):  # no statement, loop, call or exit below
                    weights[node.id], self._leaves[node.id] = (0, 0, 0), (False, False)
                    continue
                if children:  # weighed after its children; a leaf (most nodes) at once
                    stack.append((node, children))
                    stack.extend((child, None) for child in children if child.id not in weights)
                    continue
            kind = node.type
            weights[node.id] = self._combine(node, kind, children)
            self._leaves[node.id] = self._exit_leaves(kind, children)
        return self._weights[root.id]

    def _plain(self, node: Node) -> bool:
        """Whether `node` is an expression with no parenthesis, brace or `#` in its text and no parse
        error: nothing in it is a call (its arguments are parenthesised), a statement, a loop or a jump
        (inside an expression those need a lambda's or a statement expression's braces), so it weighs
        nothing and holds no loop."""
        marks = self._marks
        if marks is None or node.type not in _PLAIN_EXPRESSIONS or node.has_error:
            return False
        at = bisect_left(marks, node.start_byte)
        return at == len(marks) or marks[at] >= node.end_byte

    def _exit_leaves(self, kind: str, children: list[Node]) -> tuple[bool, bool]:
        """(has a return, has a break) at or under a node of type `kind`, not looking into loops,
        switches, lambdas or functions below it (what leaves those does not leave the arm)."""
        returns, breaks = kind == "return_statement", kind == "break_statement"
        if kind not in _NO_EXIT_DESCENT:
            leaves = self._leaves
            for child in children:  # one pass for both answers (this runs for every node weighed)
                child_returns, child_breaks = leaves[child.id]
                returns, breaks = returns or child_returns, breaks or child_breaks
        return returns, breaks

    def _combine(self, node: Node, kind: str, children: list[Node]) -> tuple[int, int, int]:
        """`node`'s weight (its type `kind`) from its weighed children's."""
        if kind in ("lambda_expression", "function_definition"):
            return 0, 0, 0
        statements = int(kind in _STATEMENTS and kind != "if_statement")
        loops = calls = 0
        trips: int | None = None
        if kind in _LOOPS:
            trips = _trips(node, self._constant) if kind == "for_statement" else None
            if trips is not None and trips > _UNROLLED:
                trips = None
            if trips is None and _halving(node):
                trips = _LOG_TRIPS
            if trips is None:
                loops += 1
        elif kind == "call_expression" and not is_math_call(node) and self._is_work(node):
            calls += 1
        inner_statements = inner_loops = inner_calls = 0
        weights = self._weights
        for child in children:
            child_statements, child_loops, child_calls = weights[child.id]
            inner_statements += child_statements
            inner_loops += child_loops
            inner_calls += child_calls
        if trips is not None:
            return inner_statements * trips, inner_loops, inner_calls * trips
        return statements + inner_statements, loops + inner_loops, calls + inner_calls


def _weighed_children(node: Node) -> list[Node]:
    """What a node's weight is made of: a loop's body (not its header), nothing inside a nested
    function or lambda, otherwise its named children."""
    kind = node.type
    if kind in ("lambda_expression", "function_definition"):
        return []
    body = node.child_by_field_name("body") if kind in _LOOPS else None
    return [body] if body is not None else node.named_children


def _halving(loop: Node) -> bool:
    """A loop that halves or shifts its control value each step (`while (n >> bits)`, `s /= 2`): a
    handful of trips."""
    parts = [loop.child_by_field_name(f) for f in ("condition", "update")]
    text = " ".join(text_of(p) for p in parts if p is not None)
    return any(token in text for token in (">>", "/= 2", "<<= 1", "*= 2"))


def _trips(loop: Node, constant: Constant | None) -> int | None:
    """The trip count of `for (i = a; i < b; ++i)` whose `a` and `b` are literals or named constants."""
    init, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    if init is None or condition is None or condition.type != "binary_expression":
        return None
    values: list[Node | None] = []
    if init.type == "declaration":  # `int i = 0`
        values = [d.child_by_field_name("value") for d in init.named_children if d.type == "init_declarator"]
    elif init.type == "assignment_expression":  # `i = 0`
        values = [init.child_by_field_name("right")]
    operator, right = condition.child_by_field_name("operator"), condition.child_by_field_name("right")
    if len(values) != 1 or values[0] is None or operator is None or operator.type not in ("<", "<=") or right is None:
        return None
    start, end = _value(values[0], constant), _value(right, constant)
    if start is None or end is None:
        return None
    trips = end - start + (operator.type == "<=")
    return trips if trips >= 0 else None


def _value(node: Node, constant: Constant | None) -> int | None:
    """An integer literal's value, or a named constant's."""
    if node.type == "number_literal":
        try:
            return int(text_of(node).rstrip("uUlL"), 0)
        except ValueError:
            return None
    if node.type == "identifier" and constant is not None:
        return constant(text_of(node), node.start_byte)
    return None


def combines(node: Node) -> bool:
    """Whether the guarded code of `node` is a combining step: every statement assigns an element of an
    array from elements of that array alone (`s[lid] += s[lid + d]`, `s[bi] = min(s[bi], s[ai])`), or
    declares a local, possibly under a nested `if` (an arg-min keeping the smaller pair): what a
    reduction or scan tree does at each step, and what a group algorithm does instead. A step that
    reads other arrays too (a cyclic-reduction solver's) is not one. For a loop: its body is one
    accumulation into a scalar (`sum += a[k]`)."""
    arms = arm_nodes(node)
    if node.type in _LOOPS:
        return bool(arms) and _accumulates(arms[0])
    if not arms or node.type != "if_statement":
        return False
    found = False
    stack = [arms[0]]
    while stack:
        current = stack.pop()
        if current.type in ("compound_statement", "else_clause"):
            stack.extend(current.named_children)
        elif current.type == "if_statement":
            stack.extend(a for a in arm_nodes(current))
        elif current.type == "declaration" or current.type == "comment":
            continue
        elif current.type == "expression_statement" and current.named_children:
            assignment = current.named_children[0]
            if assignment.type == "call_expression" and _combines_in_place(assignment):
                found = True
                continue
            if assignment.type != "assignment_expression":
                return False
            target = assignment.child_by_field_name("left")
            right = assignment.child_by_field_name("right")
            if target is None or right is None or target.type != "subscript_expression":
                return False
            base = text_of(target.child_by_field_name("argument"))
            operator = assignment.child_by_field_name("operator")
            read = _subscript_bases(right)
            if read - {base} or (not read and (operator is None or operator.type == "=")):
                return False  # another array in the value (a solver's step), or a plain store
            found = True
        else:
            return False
    return found


def _combines_in_place(call: Node) -> bool:
    """`accumulate(&s[i], s[i + d])`: a helper handed one element's address and elements of the same
    array alone, a combining step written as a call."""
    arguments = call.child_by_field_name("arguments")
    args = arguments.named_children if arguments is not None else []
    targets = [
        target
        for a in args
        if a.type == "pointer_expression" and text_of(a.child_by_field_name("operator")) == "&"
        for target in (a.child_by_field_name("argument"),)
        if target is not None and target.type == "subscript_expression"
    ]
    if len(targets) != 1:
        return False
    base = text_of(targets[0].child_by_field_name("argument"))
    read = set().union(*(_subscript_bases(a) for a in args))
    return read == {base}


def _accumulates(body: Node) -> bool:
    """A loop body that is one accumulation into a scalar: `sum += a[k]`, `m = max(m, a[k])` (a prefix
    sum or scan when the trip count follows the lane id)."""
    while body.type == "compound_statement" and len(body.named_children) == 1:
        body = body.named_children[0]
    if body.type != "expression_statement" or len(body.named_children) != 1:
        return False
    assignment = body.named_children[0]
    if assignment.type != "assignment_expression":
        return False
    target, operator = assignment.child_by_field_name("left"), assignment.child_by_field_name("operator")
    right = assignment.child_by_field_name("right")
    if target is None or operator is None or right is None or target.type != "identifier":
        return False
    if operator.type in ("+=", "*=", "|=", "&=", "^="):
        return True
    return (
        operator.type == "="
        and right.type == "call_expression"
        and text_of(target) in {text_of(a) for a in (right.child_by_field_name("arguments") or right).named_children}
    )


def _subscript_bases(node: Node) -> set[str]:
    """The arrays an expression reads by subscript (`s[i + d]` → `s`)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "subscript_expression":
            found.add(text_of(current.child_by_field_name("argument")))
        stack.extend(current.named_children)
    return found


def _single_assignment(arm: Node, is_work: IsWork) -> tuple[Node, Node] | None:
    """The (`x`, `v`) nodes when the arm is exactly `x = v;` with `x` a plain variable and `v` free of side effects."""
    while arm.type == "compound_statement" and len(arm.named_children) == 1:
        arm = arm.named_children[0]
    if arm.type == "expression_statement" and len(arm.named_children) == 1:
        arm = arm.named_children[0]
    if arm.type != "assignment_expression":
        return None
    operator, left, right = (arm.child_by_field_name(f) for f in ("operator", "left", "right"))
    if operator is None or operator.type != "=" or left is None or right is None or left.type != "identifier":
        return None
    stack = [right]
    while stack:
        current = stack.pop()
        if current.type in ("assignment_expression", "update_expression", "lambda_expression", "comma_expression"):
            return None
        if current.type == "call_expression" and not is_math_call(current) and is_work(current):
            return None
        stack.extend(current.named_children)
    return left, right


def comparison_of(condition: Node) -> tuple[str, str, str] | None:
    """(left, operator, right) of a condition that is one strict `<` or `>` comparison of operands
    holding no other comparison or logical operator (see `Branch.comparison`)."""
    while condition.type == "parenthesized_expression" and condition.named_children:
        condition = condition.named_children[0]
    if condition.type != "binary_expression":
        return None
    operator = text_of(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if operator not in ("<", ">") or left is None or right is None:
        return None
    operands = [" ".join(text_of(n).split()) for n in (left, right)]
    if any(c in text for text in operands for c in "<>=!&|?"):
        return None
    return operands[0], operator, operands[1]


def _condition_names(loop: Node) -> set[str]:
    condition = loop.child_by_field_name("condition")
    names: set[str] = set()
    stack = [condition] if condition is not None else []
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            names.add(text_of(current))
        stack.extend(current.named_children)
    return names


def _reassigns(body: Node | None, names: set[str]) -> bool:
    """Whether `body` sets one of `names` from something new: a plain `=` anywhere, or any update
    (`+=`, `++`) under a conditional inside it (a counter bumped every iteration only counts)."""
    stack = [(body, False)] if body is not None and names else []
    while stack:
        current, guarded = stack.pop()
        if current.type in ("assignment_expression", "update_expression"):
            operator = current.child_by_field_name("operator")
            target = current.child_by_field_name("left") or current.child_by_field_name("argument")
            plain = current.type == "assignment_expression" and operator is not None and operator.type == "="
            if target is not None and text_of(target) in names and (plain or guarded):
                return True
        inner = guarded or current.type in ("if_statement", "switch_statement", "conditional_expression")
        stack.extend((child, inner) for child in current.named_children)
    return False
