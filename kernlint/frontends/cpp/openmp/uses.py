"""How an OpenMP region of a C/C++ file uses a mapped variable, one identifier at a time.

Each identifier that names a mapped variable is one `Access`: read, written, read-modified-written
(`+=`, `++`, a store to a member of an element) or escaping (its address taken, a bare pointer passed
on or aliased, an element passed where C++ may bind it to a reference, a method called on it), with
the subscript it is indexed by, the innermost loop around it inside the region and whether a
condition sits in between. What the region hides as a whole (code `#include`d into it, a pointer
alias made outside it, calls that may write a variable that is not local) is found by
`hidden_accesses`. Unknown is an escape: a rule never narrows a map on it.
"""

from __future__ import annotations

from bisect import bisect_left

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.callees import VALUE_FUNCTIONS, Callees, element_argument_effect
from kernlint.frontends.cpp.openmp.nodes import CONDITIONAL_TYPES, FUNCTION_TYPES, JUMP_TYPES, LOOP_TYPES
from kernlint.frontends.cpp.syntax import element_context, last_name
from kernlint.frontends.openmp.facts import Access

Node = tree_sitter.Node


def classify_use(
    ident: Node, name: str, region: Node, pointer: bool, callees: Callees, jumps: dict[int, list[int]]
) -> Access | None:
    """How one identifier uses a mapped variable: read, write, read-modify-write or escape.
    `callees` says what the file's functions and macros may do to an element passed to them; `jumps`
    keeps where each loop body's jumps are (`_jump_before`), for the next use in the same loop."""
    parent = ident.parent
    if parent is None:
        return None
    if ident.type == "type_identifier":  # `T obj(a, n);`, read as a prototype: a constructor's argument
        loop, conditional = _context(ident, region)
        return Access(name, "escape", span_of(ident), None, False, loop, conditional, "passed to a constructor")
    access = ident
    index: str | None = None
    dims = 0  # subscripts (or `*`) applied to the variable
    if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == ident:
        access = parent
        while (
            access.parent is not None
            and access.parent.type == "subscript_expression"
            and access.parent.child_by_field_name("argument") == access
        ):
            access = access.parent
        node: Node | None = access
        # subscripts of `x[i][j]`: only a one-dimensional index is kept
        while node is not None and node.type == "subscript_expression":
            dims += 1
            if node.child_by_field_name("argument") == ident:
                index = _subscript_text(node.child_by_field_name("indices"))
            node = node.child_by_field_name("argument")
        if dims != 1:
            index = None
    elif parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "*":
        access = parent
        dims = 1
    elif parent.type == "call_expression" and parent.child_by_field_name("function") == ident:
        return None  # a function that happens to share the name
    loop, conditional = _context(access, region)
    member = dereferenced_member(ident)
    if (parent.type == "field_expression" and parent.child_by_field_name("argument") == ident) or (
        parent.type in ("declaration", "init_declarator", "parameter_declaration")
        and parent.child_by_field_name("declarator") == ident
    ):
        # members of a mapped aggregate, or a local that shadows the name: not followed
        return Access(
            name,
            "escape",
            span_of(access),
            None,
            False,
            loop,
            conditional,
            "a member of the mapped variable, or a local of the same name",
            member=member,
        )
    kind, detail = _use_kind(access, ident, pointer, callees)
    if kind == "write" and loop is not None and not conditional:
        conditional = _jump_before(access, region, jumps)  # `continue`, `break`, `return`, `goto` may skip it
    return Access(
        name, kind, span_of(access), index, False, loop, conditional, detail, dims, member, statement=_statement(access)
    )


def dereferenced_member(ident: Node) -> str | None:
    """The member subscripted or dereferenced through `ident`: `p` for `s.p[i]`, `s->p[i]`, `*s.p`,
    `sp[k].p[i]`; None when no member is reached, or it is only read as a value (`s.n`)."""
    node = ident
    while node.parent is not None:
        up = node.parent
        if up.type in ("subscript_expression", "parenthesized_expression") and (
            up.type == "parenthesized_expression" or up.child_by_field_name("argument") == node
        ):
            node = up
            continue
        if up.type != "field_expression" or up.child_by_field_name("argument") != node:
            return None
        outer = up.parent
        if outer is None:
            return None
        through = (outer.type == "subscript_expression" and outer.child_by_field_name("argument") == up) or (
            outer.type == "pointer_expression" and text_of(outer.child_by_field_name("operator")) == "*"
        )
        return text_of(up.child_by_field_name("field")) if through else None
    return None


def _subscript_text(indices: Node | None) -> str | None:
    """The index of `[i]` (a `subscript_argument_list`), None for `[i, j]` or nothing."""
    if indices is None:
        return None
    inner = [c for c in indices.named_children if c.type != "comment"]
    return text_of(inner[0]) if len(inner) == 1 else None


def _use_kind(access: Node, ident: Node, pointer: bool, callees: Callees) -> tuple[str, str]:
    """The kind of one use (`access` is the element `a[i]` / `*a`, or the bare name) and, for an escape
    or a member store, what it is."""
    value, member = element_context(access) if access is not ident else (access, False)
    parent = value.parent
    if parent is None:
        return "read", ""
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == value:
        if member:
            return "rmw", "a member of an element is written"
        return ("write" if text_of(parent.child_by_field_name("operator")) == "=" else "rmw"), ""
    if parent.type == "update_expression":
        return "rmw", "a member of an element is written" if member else ""
    if parent.type == "pointer_expression" and text_of(parent.child_by_field_name("operator")) == "&":
        return "escape", "its address is taken"
    if parent.type == "field_expression" and parent.child_by_field_name("argument") == value:
        return "escape", f"`.{text_of(parent.child_by_field_name('field'))}()` is called on an element"
    if access is ident and pointer:
        if parent.type == "binary_expression" and text_of(parent.child_by_field_name("operator")) in (
            "==",
            "!=",
            "<",
            ">",
            "<=",
            ">=",
            "&&",
            "||",
        ):
            return "read", ""
        if (parent.type == "conditional_expression" and parent.child_by_field_name("condition") == value) or (
            parent.type == "unary_expression" and text_of(parent.child_by_field_name("operator")) == "!"
        ):
            return "read", ""  # the pointer tested against null
        return "escape", "the pointer is passed on, aliased or offset"
    call = parent.parent
    if parent.type == "argument_list" and call is not None and call.type == "call_expression":
        effect, detail = element_argument_effect(call, value, callees)
        return ("read", "") if effect == "read" else ("escape", detail)
    if parent.type == "init_declarator" and callees.by_reference:
        declarator = parent.child_by_field_name("declarator")
        declaration = parent.parent
        const = declaration is not None and any(
            c.type == "type_qualifier" and text_of(c) in ("const", "constexpr") for c in declaration.children
        )
        if declarator is not None and declarator.type == "reference_declarator" and not const:
            return "escape", "bound to a non-const reference"
    return "read", ""


def _context(access: Node, region: Node) -> tuple[Span | None, bool]:
    """The innermost loop around a use (inside the region) and whether a condition sits in between."""
    conditional = False
    child = access
    node = access.parent
    while node is not None:
        if node.type in LOOP_TYPES:
            body = node.child_by_field_name("body")
            if body is not None and body.start_byte <= access.start_byte and access.end_byte <= body.end_byte:
                return span_of(node), conditional
        if node.type in CONDITIONAL_TYPES and child != node.child_by_field_name("condition"):
            conditional = True
        if (
            node.type == "binary_expression"
            and text_of(node.child_by_field_name("operator")) in ("&&", "||")
            and child == node.child_by_field_name("right")
        ):
            conditional = True
        if node == region or node.type in FUNCTION_TYPES:
            break
        child = node
        node = node.parent
    return None, conditional


def _jump_before(access: Node, region: Node, jumps: dict[int, list[int]]) -> bool:
    """A jump statement in the body of the innermost loop around `access`, before it (`jumps`: where
    the jumps of each body already looked at start, by the body's node id)."""
    node = access.parent
    while node is not None and node.type not in FUNCTION_TYPES:
        body = node.child_by_field_name("body") if node.type in LOOP_TYPES else None
        if body is not None and body.start_byte <= access.start_byte < body.end_byte:
            starts = jumps.get(body.id)
            if starts is None:
                starts = jumps[body.id] = _jump_starts(body)
            return bisect_left(starts, access.start_byte) > 0
        if node == region:
            break
        node = node.parent
    return False


def _jump_starts(body: Node) -> list[int]:
    """Where the jump statements of a loop body start, in order; not those of a function or lambda
    defined in it, nor one inside another jump (which starts after it)."""
    found = []
    stack = [body]
    while stack:
        inner = stack.pop()
        if inner.type in FUNCTION_TYPES:
            continue
        if inner.type in JUMP_TYPES:
            found.append(inner.start_byte)
            continue
        stack.extend(inner.named_children)
    return sorted(found)


def _statement(access: Node) -> Span | None:
    """The statement (or declaration) `access` is part of."""
    node = access.parent
    while node is not None and not (node.type.endswith("_statement") or node.type == "declaration"):
        node = node.parent
    return span_of(node) if node is not None else None


def alias_target(ident: Node) -> str | None:
    """The variable that `T *p = a;`, `p = a + k;`, `p = &a[k];` or `s.p = a;` makes point into the
    array `ident` names (the base name of the left side), None when the use makes no pointer."""
    node, value = ident, False  # value: the expression is an element, not a pointer
    while node.parent is not None:
        up = node.parent
        if up.type == "subscript_expression" and up.child_by_field_name("argument") == node:
            value = True
        elif up.type == "pointer_expression":
            value = text_of(up.child_by_field_name("operator")) == "*"
        elif up.type not in (
            "parenthesized_expression",
            "cast_expression",
            "binary_expression",
            "conditional_expression",
            "initializer_list",
        ):
            break
        node = up
    holder = node.parent
    if value or holder is None:
        return None
    up = holder
    target = None
    if up.type == "init_declarator" and up.child_by_field_name("value") == node:
        target = up.child_by_field_name("declarator")
    elif up.type == "assignment_expression" and up.child_by_field_name("right") == node:
        target = up.child_by_field_name("left")
    while target is not None and target.type != "identifier":
        target = target.child_by_field_name("declarator") or target.child_by_field_name("argument")
    return text_of(target) if target is not None else None


def alias_source(ident: Node) -> str | None:
    """The variable a pointer points into when `ident` is being made to point there (`T *p = x;`,
    `p = &x[k];`, `p = x.data() + k;`, `double *p = s.field;`): the base name of the value, None
    when `ident` is not being defined or the value is no such pointer (`malloc(…)`, a constant)."""
    holder = ident.parent
    while holder is not None and holder.type in ("pointer_declarator", "reference_declarator", "array_declarator"):
        holder = holder.parent
    value = None
    if holder is not None and holder.type == "init_declarator":
        value = holder.child_by_field_name("value")
    elif holder is not None and holder.type == "assignment_expression" and holder.child_by_field_name("left") == ident:
        value = holder.child_by_field_name("right")
    while value is not None and value.type != "identifier":
        if value.type in ("parenthesized_expression", "cast_expression", "pointer_expression"):
            value = (
                value.child_by_field_name("value")
                or value.child_by_field_name("argument")
                or (value.named_children[-1] if value.named_children else None)
            )
        elif value.type in ("subscript_expression", "field_expression"):
            value = value.child_by_field_name("argument")
        elif value.type == "binary_expression" and text_of(value.child_by_field_name("operator")) in ("+", "-"):
            value = value.child_by_field_name("left")
        elif value.type == "call_expression" and last_name(text_of(value.child_by_field_name("function"))) == "data":
            value = value.child_by_field_name("function")
        else:
            return None
    return text_of(value) if value is not None else None


#: Calls that cannot write a program variable they are not given: OpenMP runtime queries, output and
#: timing, and library maths.
_QUIET_CALLS = frozenset(
    {
        "printf",
        "fprintf",
        "puts",
        "putchar",
        "fflush",
        "sizeof",
        "assert",
        "exit",
        "abort",
        "clock",
        "time",
        "gettimeofday",
        "now",
        "count",
        "malloc",
        "calloc",
        "free",
    }
)


def quiet_call(callee: str) -> bool:
    """Whether a call to `callee` (as written) cannot reach a variable it is not passed."""
    name = last_name(callee)
    return (
        name.startswith("omp_")
        or name in _QUIET_CALLS
        or name in VALUE_FUNCTIONS
        or callee.lstrip(":").startswith(("std::", "sycl::"))
    )


def macro_like(name: str) -> bool:
    """An upper-case call not defined in the file (`IDX(i)`, `AT(i, j)`): probably a macro from a
    header, which may name any variable."""
    return len(name) > 1 and name.isupper() and name.replace("_", "").isalnum()
