"""The file's own functions and subroutines as device code that an OpenMP region calls: where each is
defined, the calls of them a region makes, and a procedure's body and dummy arguments (`RawCall`,
`RawFunction`), for the dependence analysis to follow one call level as it does for C/C++."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.openmp.dependence import RawCall, RawFunction

Node = tree_sitter.Node
Point = tuple[int, int]

#: Nodes that hold procedure definitions, searched for them.
_CONTAINERS = frozenset({"translation_unit", "module", "submodule", "program", "internal_procedures"})


def file_procedures(root: Node) -> dict[str, list[Node]]:
    """The file's functions and subroutines (module, internal and external ones) by lower-case name."""
    found: dict[str, list[Node]] = {}
    stack = [root]
    while stack:
        for child in stack.pop().named_children:
            if child.type in ("function", "subroutine") and child.named_children:
                name = child.named_children[0].child_by_field_name("name")
                if name is not None:
                    found.setdefault(text_of(name).lower(), []).append(child)
                stack.append(child)
            elif child.type in _CONTAINERS:
                stack.append(child)
    return found


def procedure_calls(
    root: Node,
    start: Point,
    end: Point,
    procedures: dict[str, list[Node]],
    is_array: Callable[[str, Node], bool],
    located: Callable[[Node], tuple[Span, tuple[Span, ...]]],
) -> list[RawCall]:
    """Calls of the file's `procedures` between `start` and `end`, in source order; a reference that
    names an array in scope (`is_array`) is an element, not a call. `located` gives a call's span and
    the conditionals around it in the region."""
    found = []
    for _i, match in treesitter.matches("fortran", "fortran_calls", root, (start, end)):
        call, name = match["call"][0], text_of(match["name"][0]).lower()
        if name not in procedures or not (start <= call.start_point and call.end_point <= end):
            continue
        if call.type == "call_expression" and is_array(name, call):
            continue
        args = match.get("args")
        texts = tuple(text_of(a) for a in args[0].named_children if a.type != "comment") if args else ()
        span, guards = located(call)
        found.append(RawCall(name, texts, span, guards))
    return sorted(found, key=lambda c: c.span.start_byte)


def raw_procedure(name: str, definitions: list[Node], span: Callable[[Point, Point], Span]) -> RawFunction | None:
    """The one definition of `name` as device code: the statements between its header and its end (or
    its `contains`), and its dummy arguments; None with several definitions or an alternate return."""
    if len(definitions) != 1:
        return None
    procedure = definitions[0]
    header = procedure.named_children[0]
    params = header.child_by_field_name("parameters")
    dummies = [p for p in params.named_children if p.type != "comment"] if params is not None else []
    if any(p.type != "identifier" for p in dummies):
        return None  # `*`, an alternate return
    ends = [
        c for c in procedure.named_children[1:] if c.type in ("internal_procedures", f"end_{procedure.type}_statement")
    ]
    end = ends[0].start_point if ends else procedure.end_point
    return RawFunction(name, span(header.end_point, end), tuple(text_of(p).lower() for p in dummies))
