"""The array elements a Fortran OpenMP device region uses, as the OpenMP memory pass reads them
(`kernlint.frontends.openmp.memory`): `a(i, k)` of a name the unit declares as an array (a call of
anything else is a call), with the element size and every dimension's declared extent. Sections
(`a(1:n, k)`) and members of derived types (`p(i)%x`) are not read."""

from __future__ import annotations

from typing import Protocol

import tree_sitter

from kernlint.facts import Span
from kernlint.facts.kinds import AccessKind
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.fortran.source import LineMap
from kernlint.frontends.openmp.facts import Declared
from kernlint.frontends.openmp.memory import RawArrayAccess


class _Source(Protocol):
    """What this module asks of the Fortran OpenMP source (`fortran.openmp.FortranOmpSource`)."""

    linemap: LineMap

    def captures_in(self, query: str, region: Span) -> dict[str, list[tree_sitter.Node]]: ...

    def declared(self, name: str, at_byte: int) -> Declared | None: ...

    def node_span(self, node: tree_sitter.Node) -> Span: ...


def region_array_accesses(source: _Source, region: Span) -> list[RawArrayAccess]:
    captures = source.captures_in("fortran_arrays", region)
    found = []
    for element, name, args in zip(captures.get("element", []), captures.get("name", []), captures.get("args", [])):
        parent = element.parent
        if parent is not None and parent.type == "derived_type_member_expression":
            continue
        array = text_of(name).lower()
        at = source.linemap.offset(*element.start_point)
        declared = source.declared(array, at)
        indices = tuple(text_of(a) for a in args.named_children if a.type != "comment")
        if declared is None or len(declared.extents) != len(indices) or any(":" in i for i in indices):
            continue
        extents = tuple(_extent(lower, upper) for lower, upper in declared.extents)
        kind: AccessKind = "load"
        if (
            parent is not None
            and parent.type == "assignment_statement"
            and parent.child_by_field_name("left") == element
        ):
            kind = "store"
        found.append(
            RawArrayAccess(
                source.node_span(element),
                array,
                indices,
                kind,
                declared.element_bytes,
                extents,
            )
        )
    return found


def _extent(lower: str | None, upper: str | None) -> str | None:
    """A dimension's extent as written: `n` for `(n)` or `(1:n)`, `(hi) - (lo) + 1` for `(lo:hi)`;
    None for a deferred, assumed or assumed-size one."""
    if upper is None or upper.strip() in ("*", ":", ""):
        return None
    if lower is None or lower.strip() == "1":
        return upper
    return f"({upper}) - ({lower}) + 1"
