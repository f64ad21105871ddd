"""Which arrays a target construct maps without a clause: those its region names (in C: subscripts)
that no clause of the construct lists and that are declared as arrays (in C, with a size: a pointer
maps no data). A `defaultmap` clause changes what happens to them, so a construct with one has none.
Their storage and size are read like a map item's (`maps.item_facts`).
"""

from __future__ import annotations

from typing import Protocol

from kernlint.facts.base import Span
from kernlint.facts.openmp import OmpMapped
from kernlint.facts.openmp_directive import OmpDirective, OmpItem
from kernlint.frontends.openmp.maps import item_facts

#: Clauses whose list items a target construct does not map implicitly (data-sharing, device pointers).
_LISTING_CLAUSES = frozenset(
    {
        "map",
        "private",
        "firstprivate",
        "lastprivate",
        "shared",
        "reduction",
        "in_reduction",
        "is_device_ptr",
        "has_device_addr",
        "use_device_ptr",
        "use_device_addr",
        "linear",
        "uses_allocators",
    }
)


class Declaration(Protocol):
    """What a declaration says of an array (`maps.Declared`)."""

    @property
    def upper(self) -> str | None: ...
    @property
    def is_array(self) -> bool: ...


class Names(Protocol):
    """What the implicit maps ask of a front-end (part of `openmp.facts.OmpSource`)."""

    def declared(self, name: str, at_byte: int) -> Declaration | None: ...
    def referenced(self, region: Span) -> frozenset[str]: ...
    def declared_in(self, region: Span) -> frozenset[str] | None: ...


def implicit_maps(
    source: Names, region: Span | None, directive: OmpDirective, fortran: bool, targets: list[Span]
) -> tuple[str, ...]:
    """The arrays a target construct's region names that no clause of it lists, mapped tofrom; not
    those a target region of the file (`targets`) declares itself: a team's own array is no host data."""
    if region is None or directive.has("defaultmap"):
        return ()
    listed = {_fold(i.name, fortran) for c in directive.clauses if c.name in _LISTING_CLAUSES for i in c.items}
    for target in targets:
        listed |= source.declared_in(target) or frozenset()
    found = []
    for name in sorted(source.referenced(region) - listed):
        declared = source.declared(name, region.start_byte)
        if declared is not None and declared.is_array and (fortran or declared.upper is not None):
            found.append(name)
    return tuple(found)


def _fold(name: str, fortran: bool) -> str:
    return name.lower() if fortran else name


def implicit_map_facts(
    source: Names, region: Span | None, directive: OmpDirective, at: int, targets: list[Span], device: frozenset[str]
) -> tuple[OmpMapped, ...]:
    """The implicitly mapped arrays of a target construct (written at byte `at`), each with its storage
    and size read like a clause's list item (`maps.item_facts`); none for other constructs."""
    if "target" not in directive.leaves:
        return ()
    names = implicit_maps(source, region, directive, directive.language == "fortran", targets)
    return tuple(item_facts(source, OmpItem(n, (), n, 0), at, device) for n in names)  # type: ignore[arg-type]
