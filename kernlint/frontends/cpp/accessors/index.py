"""Where a kernel writes an accessor, as far as coverage goes: the work-item's own index, loop
counters and constants, and whether the write runs for every work-item (or only under bounds checks).

Also the accessor query (`queries/cpp_accessors.scm`) over the subtrees the analysis searches, each
subtree walked once.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import arguments_of, contains, text_of
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.syntax import no_spaces, unwrap_value
from kernlint.records import record

Node = tree_sitter.Node

_QUERY = "cpp_accessors"


@record
class Index:
    """What one subscript is, as far as coverage goes."""

    kind: str  # whole | dim | linear | counter | const | other
    dim: int = 0
    bound: Node | None = None  # counter: the loop bound expression
    loop: int | None = None  # counter: the loop node's id
    value: int | None = None  # const


OTHER = Index("other")

#: A write found in a kernel: the element written, its subscripts, the bounds checks around it, and
#: whether it runs for every work-item that reaches the body.
Write = tuple[Node, list[Index], list[Node], bool]


def is_own(index: list[Index]) -> bool:
    """The subscripts name the work-item's own element (`a[it]`, `a[i0][i1]` by dimension, linear id)."""
    return (
        index == [Index("whole")]
        or index == [Index("linear")]
        or (bool(index) and all(i.kind == "dim" and i.dim == k for k, i in enumerate(index)))
    )


@dataclass
class Scope:
    """One body being searched for one accessor, with what its names mean there."""

    root: Node
    names: frozenset[str]
    members: bool = False  # `this->name` refers to it too (functor members)
    item: str | None = None  # the kernel's index parameter
    nd: bool = False  # the index parameter is an nd_item
    own: dict[str, Index] = field(default_factory=dict)
    conditional: bool = False  # this body only runs under a condition (a helper called conditionally)
    depth: int = 0
    captures: dict[str, list[Node]] = field(default_factory=dict)
    # Only references in this byte range count: a local pointer to the accessor's data (`float *p =
    # a.get_pointer();`) is that accessor from its declaration to the end of its block.
    within: tuple[int, int] | None = None

    def sees(self, node: Node) -> bool:
        return self.within is None or self.within[0] <= node.start_byte < self.within[1]


class Captures:
    """The accessor query's captures in subtrees, by node, each capture list sorted by position."""

    def __init__(self) -> None:
        self._captured: dict[int, dict[str, list[Node]]] = {}
        # What `_captured` holds, sorted by (start, -end), each with the position of the smallest region
        # that held it when it was added (-1: none): subtrees nest, so the regions around a node are
        # found by following those links from the last region starting before it, not by a scan.
        self._keys: list[tuple[int, int]] = []
        self._regions: list[tuple[Node, dict[str, list[Node]], Node | None]] = []

    def __call__(self, node: Node) -> dict[str, list[Node]]:
        """The query's captures in `node`. Each subtree is queried once, and a block inside a subtree
        already queried (a kernel body in its command group, a loop body in a kernel) is read from
        that subtree's captures instead of walking it again."""
        found = self._captured.get(node.id)
        if found is None:
            outer = self._around(node)
            found = (
                _captures(node)
                if outer is None or node.type != "compound_statement"
                else _captures_in_block(self._captured[outer.id], node)
            )
            self._captured[node.id] = found
            key = (node.start_byte, -node.end_byte)
            at = bisect_right(self._keys, key)
            self._keys.insert(at, key)
            self._regions.insert(at, (node, found, outer))
        return found

    def _around(self, node: Node) -> Node | None:
        """A region already queried that holds `node`: the smallest one unless a larger region was
        queried before a smaller one around the same node (then a larger one, which answers the same)."""
        at = bisect_right(self._keys, (node.start_byte, 1)) - 1
        region = self._regions[at][0] if at >= 0 else None
        while region is not None and not (region.start_byte <= node.start_byte and node.end_byte <= region.end_byte):
            region = self._regions[self._position(region)][2]
        return region

    def _position(self, region: Node) -> int:
        return bisect_right(self._keys, (region.start_byte, -region.end_byte)) - 1


def _captures(node: Node) -> dict[str, list[Node]]:
    found = treesitter.captures("cpp", _QUERY, node)
    return {name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in found.items()}


def _captures_in_block(captures: dict[str, list[Node]], block: Node) -> dict[str, list[Node]]:
    """What `_captures(block)` returns, for a block inside a subtree whose `captures` are known: the
    nodes strictly between its braces (a block's descendants start after its `{`)."""
    lo, hi = block.start_byte, block.end_byte
    found = {}
    for name, nodes in captures.items():
        inside = [n for n in nodes[bisect_right(nodes, lo, key=_start) :] if n.start_byte < hi and n.end_byte <= hi]
        if inside:
            found[name] = inside
    return found


def _start(node: Node) -> int:
    return node.start_byte


class IndexReader:
    """Reads subscripts and the conditions around writes in one file."""

    def __init__(self, constants: CppConstants, captures: Captures) -> None:
        self.constants = constants
        self.captures = captures

    def derive_locals(self, scope: Scope) -> None:
        """Locals initialised from the own index and never reassigned (`size_t i = it.get_global_id(0);`)."""
        assigned = {text_of(n) for n in scope.captures.get("assigned", [])}
        for value in scope.captures.get("local.value", []):
            name_node = value.parent.child_by_field_name("declarator") if value.parent is not None else None
            name = text_of(name_node)
            if name in assigned or name in scope.names:
                continue
            index = self.index_of(value, scope)
            if index.kind in ("whole", "dim", "linear"):
                scope.own[name] = index

    def subscript(self, indices: Node | None, scope: Scope) -> Index:
        """What the index of `a[indices]` is."""
        args = arguments_of(indices)
        return self.index_of(args[0], scope) if len(args) == 1 else OTHER

    def index_of(self, node: Node, scope: Scope) -> Index:
        node = unwrap_value(node)
        text = text_of(node)
        if node.type == "identifier":
            if text in scope.own:
                return scope.own[text]
            counter = self._counter(node, scope)
            return counter or OTHER
        if node.type == "number_literal":
            value = self.constants.value(text, node.start_byte)
            return Index("const", value=value) if value is not None else OTHER
        if scope.item is None:
            return OTHER
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if (
                function is None
                or function.type != "field_expression"
                or text_of(function.child_by_field_name("argument")) != scope.item
            ):
                return OTHER
            method = text_of(function.child_by_field_name("field"))
            args = arguments_of(node.child_by_field_name("arguments"))
            whole, linear = ("get_global_id", "get_global_linear_id") if scope.nd else ("get_id", "get_linear_id")
            if method == linear and not args:
                return Index("linear")
            if method == whole:
                if not args:
                    return Index("whole")
                dim = self.constants.value(text_of(args[0]), args[0].start_byte) if len(args) == 1 else None
                return Index("dim", dim) if dim is not None else OTHER
            return OTHER
        if node.type == "subscript_expression":
            # `i[0]` of an id/item, `it.get_global_id()[0]`, `gid[0]` of a local copy of the whole id
            base = node.child_by_field_name("argument")
            of_whole_id = (not scope.nd and text_of(base) == scope.item) or (
                base is not None and base.type != "subscript_expression" and self.index_of(base, scope).kind == "whole"
            )
            args = arguments_of(node.child_by_field_name("indices"))
            dim = self.constants.value(text_of(args[0]), args[0].start_byte) if len(args) == 1 and of_whole_id else None
            return Index("dim", dim) if dim is not None else OTHER
        return OTHER

    def _counter(self, ident: Node, scope: Scope) -> Index | None:
        """`k` in `for (T k = 0; k < N; ++k) … a[k] …`, with `k` never assigned in the body."""
        name = text_of(ident)
        node = ident.parent
        while node is not None and node != scope.root:
            if node.type == "for_statement":
                init = node.child_by_field_name("initializer")
                declarator = (
                    init.child_by_field_name("declarator") if init is not None and init.type == "declaration" else None
                )
                condition = node.child_by_field_name("condition")
                update = node.child_by_field_name("update")
                body = node.child_by_field_name("body")
                if (
                    declarator is not None
                    and declarator.type == "init_declarator"
                    and text_of(declarator.child_by_field_name("declarator")) == name
                ):
                    start = declarator.child_by_field_name("value")
                    if start is None or self.constants.value(text_of(start), start.start_byte) != 0:
                        return None
                    if (
                        condition is None
                        or condition.type != "binary_expression"
                        or text_of(condition.child_by_field_name("operator")) not in ("<",)
                        or text_of(condition.child_by_field_name("left")) != name
                    ):
                        return None
                    if update is None or no_spaces(text_of(update)) not in (f"++{name}", f"{name}++", f"{name}+=1"):
                        return None
                    if body is not None and any(text_of(n) == name for n in self.captures(body).get("assigned", [])):
                        return None
                    return Index("counter", bound=condition.child_by_field_name("right"), loop=node.id)
            node = node.parent
        return None

    def unconditional(self, node: Node, scope: Scope, index: list[Index]) -> tuple[bool, list[Node]]:
        """Whether `node` runs once for every work-item that reaches the body, and the bounds checks
        (`if (i < n)`) it runs under, which coverage must then prove true for the whole buffer."""
        if scope.conditional:
            return False, []
        loops = {i.loop for i in index if i.kind == "counter"}
        guards: list[Node] = []
        enclosing_loops: list[Node] = []
        current = node
        while current != scope.root:
            parent = current.parent
            if parent is None:
                return False, []
            kind = parent.type
            if kind == "if_statement":
                guard = self._guard(parent, current, scope, index)
                if guard is None:
                    return False, []
                guards.append(guard)
            elif kind == "for_statement":
                if parent.child_by_field_name("body") != current or (
                    parent.id not in loops and not self._runs_at_least_once(parent)
                ):
                    return False, []
                enclosing_loops.append(parent)
            elif kind == "do_statement":
                enclosing_loops.append(parent)
            elif kind in (
                "while_statement",
                "for_range_loop",
                "switch_statement",
                "case_statement",
                "lambda_expression",
                "conditional_expression",
                "preproc_if",
                "preproc_ifdef",
                "preproc_else",
                "preproc_elif",
                "try_statement",
                "catch_clause",
                "ERROR",
            ) or (
                kind == "binary_expression"
                and text_of(parent.child_by_field_name("operator")) in ("&&", "||")
                and parent.child_by_field_name("right") == current
            ):
                return False, []
            current = parent
        for jump in scope.captures.get("jump", []):
            if _in_nested_lambda(jump, scope.root):
                continue
            if jump.type in ("return_statement", "goto_statement") and jump.start_byte < node.start_byte:
                return False, []
            if jump.type in ("break_statement", "continue_statement") and any(
                contains(loop, jump) for loop in enclosing_loops
            ):
                return False, []
        return True, guards

    def _guard(self, statement: Node, branch: Node, scope: Scope, index: list[Index]) -> Node | None:
        """The bound `n` of `if (i < n) <branch>` where `i` is the write's own 1-D index."""
        if (
            statement.child_by_field_name("consequence") != branch
            or len(index) != 1
            or index[0].kind not in ("whole", "dim", "linear")
        ):
            return None
        condition = statement.child_by_field_name("condition")
        value = condition.child_by_field_name("value") if condition is not None else None
        value = unwrap_value(value) if value is not None else None
        if value is None or value.type != "binary_expression":
            return None
        operator = text_of(value.child_by_field_name("operator"))
        left, right = value.child_by_field_name("left"), value.child_by_field_name("right")
        if operator == ">":
            left, right, operator = right, left, "<"
        if operator != "<" or left is None or right is None:
            return None
        if self.index_of(left, scope) != index[0]:
            return None
        return right

    def _runs_at_least_once(self, loop: Node) -> bool:
        """A `for` loop with constant bounds that runs at least once."""
        init = loop.child_by_field_name("initializer")
        condition = loop.child_by_field_name("condition")
        declarator = init.child_by_field_name("declarator") if init is not None and init.type == "declaration" else None
        if (
            declarator is None
            or declarator.type != "init_declarator"
            or condition is None
            or condition.type != "binary_expression"
        ):
            return False
        start = declarator.child_by_field_name("value")
        bound = condition.child_by_field_name("right")
        if (
            start is None
            or bound is None
            or text_of(condition.child_by_field_name("left")) != text_of(declarator.child_by_field_name("declarator"))
        ):
            return False
        first = self.constants.value(text_of(start), start.start_byte)
        limit = self.constants.value(text_of(bound), bound.start_byte)
        operator = text_of(condition.child_by_field_name("operator"))
        return (
            first is not None
            and limit is not None
            and ((operator == "<" and first < limit) or (operator == "<=" and first <= limit))
        )


def _in_nested_lambda(node: Node, root: Node) -> bool:
    parent = node.parent
    while parent is not None and parent != root:
        if parent.type == "lambda_expression":
            return True
        parent = parent.parent
    return False
