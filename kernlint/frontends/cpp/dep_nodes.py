"""Tree-sitter C++ node helpers for the device-code analyses: names, declarators, calls, conditions,
scopes and the statements that guard a node. Syntax only; what the code means is decided elsewhere."""

from __future__ import annotations

from collections.abc import Callable

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
    dependence analysis makes for every statement would otherwise cost depth³ on deeply nested code."""

    def __init__(self) -> None:
        self._known: dict[int, Node | None] = {}  # node id -> its parent

    def __call__(self, node: Node) -> Node | None:
        known = self._known.get(node.id, node)
        if known is node:
            known = self._known[node.id] = node.parent
        return known


ParentOf = Callable[[Node], "Node | None"]


def owner_of(node: Node, parent_of: ParentOf = _parent) -> Node | None:
    """The innermost lambda or function definition around `node` (its unit)."""
    parent = parent_of(node)
    while parent is not None and parent.type not in UNIT_TYPES:
        parent = parent_of(parent)
    return parent


class Owners:
    """`owner_of` for many nodes of the same code. Ancestors a walk passes get the same owner, so
    they are remembered: the nodes of one block share one walk up to their unit."""

    def __init__(self) -> None:
        self._known: dict[int, Node | None] = {}  # node id -> its owner

    def __call__(self, node: Node) -> Node | None:
        passed = []
        owner = node.parent
        while owner is not None and owner.type not in UNIT_TYPES:
            if owner.id in self._known:
                owner = self._known[owner.id]
                break
            passed.append(owner.id)
            owner = owner.parent
        for node_id in passed:
            self._known[node_id] = owner
        return owner


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
    left = node.child_by_field_name("left")
    operator = node.child_by_field_name("operator")
    right = node.child_by_field_name("right")
    if (
        operator is None
        or operator.type != ">"
        or left is None
        or left.type != "binary_expression"
        or right is None
        or right.type != "parenthesized_expression"
    ):
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


def enclosing_loops(node: Node, root: Node, parent_of: ParentOf = _parent) -> list[Node]:
    loops = []
    parent = parent_of(node)
    while parent is not None and parent != root:
        if parent.type in LOOPS:
            loops.append(parent)
        if parent.type in UNIT_TYPES:
            break
        parent = parent_of(parent)
    return loops


def guards_of(node: Node, root: Node, parent_of: ParentOf = _parent) -> tuple[tuple[int, int, str], ...]:
    """Keys of the if / ?: / switch conditions `node` is control dependent on, within its unit."""
    guards = []
    child, parent = node, parent_of(node)
    while parent is not None and parent != root and parent.type not in UNIT_TYPES:
        fields = _GUARDING.get(parent.type)
        if fields and any(same_node(parent.child_by_field_name(f), child) for f in fields):
            guards.append(node_key(parent))
        child, parent = parent, parent_of(parent)
    return tuple(guards)


def same_node(a: Node | None, b: Node) -> bool:
    return a is not None and a.start_byte == b.start_byte and a.end_byte == b.end_byte and a.type == b.type
