"""Tree-sitter C++ node helpers for the device-code analyses: names, declarators, calls, conditions,
scopes and the statements that guard a node. Syntax only; what the code means is decided elsewhere."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import Any

import tree_sitter

from kernlint.frontends.common.nodes import arguments_of as named
from kernlint.frontends.common.nodes import text_of

Node = tree_sitter.Node
Key = tuple[int, int]

LOOPS = frozenset({"for_statement", "while_statement", "do_statement"})
_GUARDING = {
    "if_statement": ("consequence", "alternative"),
    "conditional_expression": ("consequence", "alternative"),
    "switch_statement": ("body",),
}
UNIT_TYPES = frozenset({"lambda_expression", "function_definition"})


def key_of(node: Node) -> Key:
    return (node.start_byte, node.end_byte)


def node_key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


def _parent(node: Node) -> Node | None:
    return node.parent


class Parents:
    """`Node.parent`, looked up once per node. tree-sitter finds a parent by walking down from the root,
    so each lookup costs the node's depth: the walks up to enclosing loops, guards and units that the
    dependence analysis makes for every statement would otherwise cost depth³ on deeply nested code.
    Given the tree's `root`, a node not known yet is found with a tree cursor kept where the last one
    was: it climbs to the smallest node around the new one and walks down to it, recording the parent
    of each node it passes. Nodes asked in about the order of the file cost a few steps each, so each
    node of a deep nest can be asked without depth² work."""

    def __init__(self, root: Node | None = None) -> None:
        self._cursor = root.walk() if root is not None else None
        self._known: dict[int, Node | None] = {}  # node id -> its parent

    def __call__(self, node: Node) -> Node | None:
        known = self._known.get(node.id, node)
        if known is node:
            if self._cursor is None or not self._walk_to(node, self._cursor) or node.id not in self._known:
                self._known[node.id] = node.parent
            known = self._known[node.id]
        return known

    def _walk_to(self, node: Node, cursor: tree_sitter.TreeCursor) -> bool:
        """Move the cursor to `node`, recording the parents of the nodes it walks down through; False
        when the walk does not reach it (then nothing is recorded for `node`)."""
        start, end = node.start_byte, node.end_byte
        current = cursor.node
        while current is not None and current.id != node.id:
            around = current.start_byte <= start and end <= current.end_byte
            if around and (current.start_byte, current.end_byte) != (start, end):
                break  # strictly around it: walk down from here
            if not cursor.goto_parent():
                break
            current = cursor.node
        while current is not None and current.id != node.id:
            if cursor.goto_first_child_for_byte(start) is None:
                return False
            child = cursor.node
            if child is None or child.start_byte > start or child.end_byte < end:
                return False
            self._known[child.id] = current
            current = child
        if current is None:
            return False
        if cursor.depth == 0:
            self._known[node.id] = None  # the root
        return True


ParentOf = Callable[[Node], "Node | None"]


def owner_of(node: Node, parent_of: ParentOf = _parent) -> Node | None:
    """The innermost lambda or function definition around `node` (its unit)."""
    parent = parent_of(node)
    while parent is not None and parent.type not in UNIT_TYPES:
        parent = parent_of(parent)
    return parent


class Owners:
    """`owner_of` for the nodes of scanned device code, found by position among the units (lambdas and
    function definitions) the scans captured rather than by a walk up the tree, whose parent lookups
    each cost the node's depth (seconds on a ten-thousand-deep nest). A node no known unit holds is
    walked up as `owner_of` does."""

    def __init__(self) -> None:
        self._units: list[Node] = []
        self._starts: list[int] = []
        self._outer: list[int] = []  # index of the innermost unit holding each unit, or -1
        self._indexed = True

    def add(self, units: Iterable[Node]) -> None:
        """Units a scan captured; every lambda and function definition inside a scanned region must be given."""
        self._units.extend(u for u in units if u.type in UNIT_TYPES)
        self._indexed = False

    def __call__(self, node: Node) -> Node | None:
        self._index()
        at = bisect_right(self._starts, node.start_byte) - 1
        while at >= 0:
            unit = self._units[at]
            if unit.end_byte >= node.end_byte:
                if (unit.start_byte, unit.end_byte) != (node.start_byte, node.end_byte):
                    return unit
                if unit.type != node.type:  # a node spanning exactly a unit: is it the unit's parent? ask the tree
                    return owner_of(node)
            at = self._outer[at]
        return owner_of(node)

    def _index(self) -> None:
        """Sort the units by position and link each to the innermost unit holding it (they nest, never overlap)."""
        if self._indexed:
            return
        self._units.sort(key=lambda u: (u.start_byte, -u.end_byte))
        self._starts = [u.start_byte for u in self._units]
        self._outer = []
        open_units: list[int] = []
        for position, unit in enumerate(self._units):
            while open_units and self._units[open_units[-1]].end_byte < unit.end_byte:
                open_units.pop()
            self._outer.append(open_units[-1] if open_units else -1)
            open_units.append(position)
        self._indexed = True


def callee_name(function: Node | None) -> str:
    """The bare name a call's function node names: `f`, `ns::f`, `f<T>`, `obj.f`, `obj.template f<N>`."""
    node = function
    while node is not None:
        if node.type == "field_expression":
            node = node.child_by_field_name("field")
        elif node.type == "dependent_name":
            node = next(iter(named(node)), None)
        elif node.type in ("template_function", "template_method", "qualified_identifier"):
            node = node.child_by_field_name("name")
        else:
            break
    return text_of(node)


def declared_name(declarator: Node | None) -> tuple[str | None, bool, bool]:
    """(name, is_reference, is_array) of a (parameter or variable) declarator."""
    reference = array = False
    node = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type == "reference_declarator":
            reference = True
        elif node.type == "array_declarator":
            array = True
        elif node.type not in ("pointer_declarator", "init_declarator", "parenthesized_declarator"):
            return None, reference, array
        inner = node.child_by_field_name("declarator")
        node = inner if inner is not None else next((c for c in named(node) if c.type == "identifier"), None)
    return (text_of(node) if node is not None else None), reference, array


def parameters_of(root: Node) -> list[Node]:
    """The parameter declarations of a lambda or function definition."""
    declarator = root.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("function_declarator", "abstract_function_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [
        p
        for p in named(params)
        if p.type in ("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration")
    ]


def call_parts(node: Node) -> tuple[Node | None, str, list[Node]]:
    """(receiver or None, callee name, argument nodes) of a call, including the `(sg.load < 4) > (p)`
    misparse of a template method call."""
    if node.type == "binary_expression":
        less = node.child_by_field_name("left")
        member = less.child_by_field_name("left") if less is not None else None
        paren = node.child_by_field_name("right")
        inner = next(iter(named(paren)), None)
        args = named(inner) if inner is not None and inner.type == "comma_expression" else ([inner] if inner else [])
        while args and args[-1].type == "comma_expression":  # (a, b, c) nests to the right
            args = args[:-1] + named(args[-1])
        receiver = member.child_by_field_name("argument") if member is not None else None
        return receiver, callee_name(member), args
    function = node.child_by_field_name("function")
    args = named(node.child_by_field_name("arguments"))
    receiver = (
        function.child_by_field_name("argument")
        if function is not None and function.type == "field_expression"
        else None
    )
    return receiver, callee_name(function), args


def condition_of(node: Node) -> Node | None:
    """The condition node of an if / ?: / switch / loop."""
    if node.type == "conditional_expression":
        return node.child_by_field_name("condition")
    condition = node.child_by_field_name("condition")
    if condition is not None and condition.type == "condition_clause":
        return condition.child_by_field_name("value") or next(iter(named(condition)), None)
    if condition is not None and condition.type == "parenthesized_expression" and named(condition):
        return named(condition)[0]  # do { … } while (cond);
    return condition


def is_const(param: Node) -> bool:
    return any(c.type == "type_qualifier" and text_of(c) == "const" for c in param.children)


def is_template_call(node: Node) -> bool:
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type != ">":  # most binary expressions: one look-up
        return False
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or left.type != "binary_expression" or right is None or right.type != "parenthesized_expression":
        return False
    inner_op = left.child_by_field_name("operator")
    member = left.child_by_field_name("left")
    return inner_op is not None and inner_op.type == "<" and member is not None and member.type == "field_expression"


def target_name(left: Node | None, arrays: set[str] | None = None) -> str | None:
    """The variable an assignment writes: `x = …`, or a private array/struct `a[k] = …`, `s.x = …`
    when `arrays` says `a`/`s` is a local aggregate (with `arrays` None: plain names only)."""
    if left is None:
        return None
    if left.type == "identifier":
        return text_of(left)
    if arrays is not None and left.type in ("subscript_expression", "field_expression"):
        base = left.child_by_field_name("argument")
        while base is not None and base.type in ("subscript_expression", "field_expression"):
            base = base.child_by_field_name("argument")
        if base is not None and base.type == "identifier" and text_of(base) in arrays:
            return text_of(base)
    return None


def identifier_nodes(node: Node) -> list[Node]:
    """Identifier nodes in a small expression subtree (not inside nested lambdas)."""
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.append(current)
        elif current.type != "lambda_expression":
            stack.extend(current.named_children)
    return found


_SCOPES = frozenset(
    {
        "compound_statement",
        "for_statement",
        "for_range_loop",
        "if_statement",
        "while_statement",
        "switch_statement",
        "lambda_expression",
        "function_definition",
        "catch_clause",
    }
)


def scope_node(decl: Node, root: Node) -> Node:
    """The block (or for / if / while header) a declaration's name is visible in."""
    parent = decl.parent
    while parent is not None and parent.type not in _SCOPES and parent != root:
        parent = parent.parent
    return parent if parent is not None else root


class Ancestry:
    """The loops and guarding conditions around every node of one file, each ancestor's answer remembered.
    A node's loops and guards are its parent's plus the parent itself when it is one, so the statements
    of a deep nest share their walks up instead of each climbing the whole nest (depth² rather than depth³)."""

    def __init__(self, root: Node | None = None) -> None:
        self.parent_of = Parents(root)
        self._loops: dict[tuple[int, int], tuple[Node, ...]] = {}  # (node id, root id) -> loops above it
        self._guards: dict[tuple[int, int], tuple[tuple[int, int, str], ...]] = {}
        self._owners: dict[int, Node | None] = {}  # node id -> its unit (`owner_of`)

    def owner(self, node: Node) -> Node | None:
        """`owner_of(node)`, each node's answer remembered on the way up (nodes of one unit share it)."""
        path = []
        current: Node | None = node
        while current is not None and current.id not in self._owners:
            path.append(current)
            parent = self.parent_of(current)
            if parent is not None and parent.type in UNIT_TYPES:
                self._owners[current.id] = parent
                break
            current = parent
        found = self._owners.get(current.id) if current is not None else None
        for step in path:
            self._owners[step.id] = found
        return found

    def loops(self, node: Node, root: Node) -> tuple[Node, ...]:
        """The loops around `node`, innermost first, up to and not past its unit (lambda or function)."""
        path, tail = self._climb(node, root, self._loops, stop_after_unit=True)
        for child, parent in reversed(path):
            tail = ((parent,) if parent.type in LOOPS else ()) + tail
            self._loops[(child.id, root.id)] = tail
        return tail

    def guards(self, node: Node, root: Node) -> tuple[tuple[int, int, str], ...]:
        """Keys of the if / ?: / switch conditions `node` is control dependent on within its unit, innermost first."""
        path, tail = self._climb(node, root, self._guards, stop_after_unit=False)
        for child, parent in reversed(path):
            fields = _GUARDING.get(parent.type, ())
            guarded = any(same_node(parent.child_by_field_name(f), child) for f in fields)
            tail = ((node_key(parent),) if guarded else ()) + tail
            self._guards[(child.id, root.id)] = tail
        return tail

    def _climb(
        self, node: Node, root: Node, known: dict[tuple[int, int], tuple[Any, ...]], stop_after_unit: bool
    ) -> tuple[list[tuple[Node, Node]], tuple[Any, ...]]:
        """The (child, parent) steps up from `node` to the first child whose answer is known, and that
        answer (empty at the root, at a unit, or past one when `stop_after_unit`)."""
        path: list[tuple[Node, Node]] = []
        child = node
        while True:
            remembered = known.get((child.id, root.id))
            if remembered is not None:
                return path, remembered
            parent = self.parent_of(child)
            if parent is None or parent == root or (parent.type in UNIT_TYPES and not stop_after_unit):
                return path, ()
            path.append((child, parent))
            if parent.type in UNIT_TYPES:
                return path, ()
            child = parent


def same_node(a: Node | None, b: Node) -> bool:
    return a is not None and a.start_byte == b.start_byte and a.end_byte == b.end_byte and a.type == b.type
