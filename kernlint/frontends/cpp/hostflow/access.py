"""What one use of a variable does to its data, on the host or in device code: read it, write it, both,
or nothing (the pointer itself is rebound, compared, freed or only sized).

The host flows ask this of every identifier that names data a device step touches. A pointer, array or
container is data: `a[i] = …` writes it, `f(a)` may do anything with it, `a = b` only rebinds the
name. A scalar is its own data: reading it reads it. Anything unclear reads and writes: a wait the
model cannot prove idle is a wait it keeps quiet about.
"""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.cpp.callees import Callees, element_argument_effect
from kernlint.frontends.cpp.syntax import element_context, last_name

Node = tree_sitter.Node
Effect = tuple[bool, bool]  # (reads, writes)

READ: Effect = (True, False)
WRITE: Effect = (False, True)
BOTH: Effect = (True, True)

#: Members of a container or accessor that touch no element.
NEUTRAL_MEMBERS = frozenset(
    {"size", "empty", "length", "capacity", "get_range", "get_count", "get_size", "byte_size", "max_size"}
)
#: Calls that take a pointer without touching what it points to (swapping two pointers, sizes).
POINTER_CALLS = frozenset({"swap", "sizeof", "alignof", "decltype"})
#: Calls that end the data's life: to the device work still using it, a write.
FREEING_CALLS = frozenset({"free", "omp_target_free", "cudaFree", "delete"})
#: Calls that only read an element (or scalar) they are given: output.
READING_CALLS = frozenset({"printf", "fprintf", "sprintf", "snprintf", "puts", "assert", "abs", "fabs"})
_DECLARATORS = frozenset(
    {
        "init_declarator",
        "declaration",
        "parameter_declaration",
        "pointer_declarator",
        "array_declarator",
        "reference_declarator",
        "optional_parameter_declaration",
        "field_declaration",
    }
)
_NAMES = frozenset(
    {"sizeof_expression", "alignof_expression", "qualified_identifier", "template_function", "attribute"}
)
_COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">="})


def effect(ident: Node, pointer: bool, callees: Callees) -> Effect | None:
    """What the use `ident` does to the data of the variable it names; None when it touches none.
    `pointer`: the variable is a pointer, an array or an object (not an arithmetic scalar)."""
    parent = ident.parent
    if parent is None:
        return None
    if parent.type in _DECLARATORS and parent.child_by_field_name("declarator") == ident:
        return None
    if parent.type == "call_expression" and parent.child_by_field_name("function") == ident:
        return None
    if parent.type in _NAMES:
        return None  # a size, part of a name (`sycl::range<1>`), an attribute
    element = _element(ident)
    if element is not None:
        return _element_effect(element, callees)
    if parent.type == "field_expression" and parent.child_by_field_name("argument") == ident:
        member = text_of(parent.child_by_field_name("field"))
        return None if member in NEUTRAL_MEMBERS else BOTH
    return _name_effect(ident, pointer, callees)


def _element(ident: Node) -> Node | None:
    """The element expression `a[i][j]`, `*p` or `p->x` when `ident` is indexed or dereferenced."""
    parent = ident.parent
    assert parent is not None
    if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == ident:
        access = parent
        while (
            access.parent is not None
            and access.parent.type == "subscript_expression"
            and access.parent.child_by_field_name("argument") == access
        ):
            access = access.parent
        return access
    if parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "*":
        return parent
    if (
        parent.type == "field_expression"
        and parent.child_by_field_name("argument") == ident
        and text_of(parent.child_by_field_name("operator")) == "->"
    ):
        return parent
    return None


def _element_effect(element: Node, callees: Callees) -> Effect:
    value, member = element_context(element)
    parent = value.parent
    if parent is None:
        return READ
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == value:
        plain = text_of(parent.child_by_field_name("operator")) == "="
        return WRITE if plain and not member else BOTH
    if parent.type == "update_expression":
        return BOTH
    if parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "&":
        return BOTH
    if parent.type == "field_expression" and parent.child_by_field_name("argument") == value:
        return BOTH  # a method called on an element
    call = parent.parent
    if parent.type == "argument_list" and call is not None and call.type == "call_expression":
        if last_name(text_of(call.child_by_field_name("function"))) in READING_CALLS:
            return READ
        return READ if element_argument_effect(call, value, callees)[0] == "read" else BOTH
    return READ


def _name_effect(ident: Node, pointer: bool, callees: Callees) -> Effect | None:
    """A bare name: a scalar's value, or a pointer/array/object passed, rebound or compared."""
    node = ident
    while node.parent is not None and node.parent.type in ("parenthesized_expression", "cast_expression"):
        node = node.parent
    parent = node.parent
    if parent is None:
        return None
    assigned = parent.type == "assignment_expression" and parent.child_by_field_name("left") == node
    if not pointer:
        if assigned:
            return WRITE if text_of(parent.child_by_field_name("operator")) == "=" else BOTH
        if parent.type == "update_expression" or (
            parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "&"
        ):
            return BOTH
        call = parent.parent
        if parent.type == "argument_list" and call is not None and call.type == "call_expression":
            callee = last_name(text_of(call.child_by_field_name("function")))
            if callee in READING_CALLS or not callees.by_reference:
                return READ
            return READ if element_argument_effect(call, node, callees)[0] == "read" else BOTH
        return READ
    if assigned:
        return None  # the pointer is rebound (`d_a = d_b`), its data untouched
    if parent.type == "init_declarator" and parent.child_by_field_name("value") == node:
        return None  # a copy of the pointer (`T *tmp = d_a`)
    if parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        return None
    if parent.type == "binary_expression" and text_of(parent.child_by_field_name("operator")) in _COMPARISONS:
        return None
    if parent.type in ("return_statement", "condition_clause"):
        return None
    call = parent.parent
    if parent.type == "argument_list" and call is not None and call.type == "call_expression":
        callee = last_name(text_of(call.child_by_field_name("function")))
        if callee in POINTER_CALLS:
            return None
        if callee in FREEING_CALLS:
            return WRITE
    if parent.type == "delete_expression":
        return WRITE
    return BOTH  # passed on, offset, iterated (a range-for's variable may be a reference)


def base_name(argument: Node) -> str | None:
    """The variable an argument's data belongs to: `d_a`, `d_a + off`, `&x`, `&a[i]`, `v.data()`,
    `(float*) p`, `a[i]`, `ptr(…)`; None for anything else (a call, a constant)."""
    node: Node | None = argument
    while node is not None and node.type != "identifier":
        if node.type in ("parenthesized_expression", "cast_expression"):
            node = node.child_by_field_name("value") or (node.named_children[-1] if node.named_children else None)
        elif node.type in ("pointer_expression", "subscript_expression", "field_expression"):
            node = node.child_by_field_name("argument")
        elif node.type == "binary_expression" and text_of(node.child_by_field_name("operator")) in ("+", "-"):
            node = node.child_by_field_name("left")
        elif node.type == "call_expression":
            function = node.child_by_field_name("function")
            args = arguments_of(node.child_by_field_name("arguments"))
            if function is not None and function.type == "field_expression" and not args:
                node = function.child_by_field_name("argument")  # `v.data()`, `acc.get_pointer()`
            else:
                return None
        else:
            return None
    return text_of(node) if node is not None else None
