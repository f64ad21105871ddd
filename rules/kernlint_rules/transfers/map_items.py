"""What the map rules (KL701, KL705–KL708) ask of a file's OpenMP constructs as a whole: which constructs
move data, what other directives map or name, and how many copies a map type makes."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kernlint.facts import FileFacts, Span
from kernlint.facts.openmp import OmpConstruct, OmpMapped
from kernlint.facts.openmp_directive import OmpMapItem

#: Copies over the host link a map type makes each time its construct runs.
TRANSFERS = {"to": 1, "from": 1, "tofrom": 2}
#: Clauses that only say how a variable is shared or privatised: naming a variable there uses nothing.
_DATA_SHARING = frozenset({"map", "shared", "private", "firstprivate", "lastprivate", "default"})


def mapping_constructs(facts: FileFacts, *, standalone: bool = False) -> Iterator[OmpConstruct]:
    """`target` constructs with a region and `target data` regions (with `standalone`, also `target
    enter data`), each with its map facts."""
    for construct in facts.omp:
        directive = construct.directive
        if directive is None or directive.is_end or not construct.maps:
            continue
        leaves = directive.leaves
        with_region = construct.region is not None and ("target" in leaves or "target data" in leaves)
        if with_region or (standalone and "target enter data" in leaves):
            yield construct


def map_items(construct: OmpConstruct) -> Iterator[tuple[OmpMapItem, OmpMapped]]:
    """Each `map` list item of a construct with its map facts (the two lists run in written order)."""
    directive = construct.directive
    if directive is None:
        return
    yield from zip(directive.map_items, construct.maps, strict=False)


def fold(name: str, construct: OmpConstruct) -> str:
    directive = construct.directive
    return name.lower() if directive is not None and directive.language == "fortran" else name


def mapped_sections(facts: FileFacts) -> dict[str, list[tuple[OmpMapItem, Span | None]]]:
    """Every list item of a `map`, `to` or `from` clause in the file that has subscripts, by variable,
    with the function it is written in: what the file maps of the data behind a pointer (`p[0:n]`,
    `A[i][0:m]`, `s.p[0:n]`)."""
    found: dict[str, list[tuple[OmpMapItem, Span | None]]] = {}
    for construct in facts.omp:
        directive = construct.directive
        if directive is None:
            continue
        for clause in directive.clauses:
            if clause.name not in ("map", "to", "from"):
                continue
            for item in clause.items:
                if item.dims:
                    mapped = OmpMapItem(clause.map_type if clause.name == "map" else clause.name, (), item, clause)
                    found.setdefault(fold(item.name, construct), []).append((mapped, construct.unit))
    return found


def sections_of(
    sections: dict[str, list[tuple[OmpMapItem, Span | None]]], key: str, construct: OmpConstruct, local: bool
) -> list[OmpMapItem]:
    """The mapped sections of `key` that can be the same data as at `construct`: those in its function
    for a local variable, anywhere in the file for a global one."""
    return [item for item, unit in sections.get(key, []) if not local or unit == construct.unit]


def resident(facts: FileFacts, within: Span | None = None) -> frozenset[str]:
    """Variables the file keeps on the device beyond one region: mapped by `target enter data` (with
    `within`, only those written inside it: a function's own) or listed by `declare target`. A map of
    them on a later construct finds them present and copies nothing (unless `always`)."""
    names: set[str] = set()
    for construct in facts.omp:
        directive = construct.directive
        if directive is None:
            continue
        if "target enter data" in directive.leaves:
            if within is None or within.contains(construct.span):
                names |= {fold(m.item.name, construct) for m in directive.map_items}
        elif directive.kind.startswith(("declare target", "begin declare target")):
            names |= {fold(a.strip(), construct) for a in directive.arguments}
            names |= {fold(i.name, construct) for c in directive.clauses for i in c.items}
    return frozenset(names)


def mapped_by_enclosing(facts: FileFacts, construct: OmpConstruct) -> set[str]:
    """Names an enclosing `target data` region (or target construct) already maps: the inner map then
    finds them present and moves nothing."""
    return mapped_around(facts, construct.span, construct)


def mapped_around(facts: FileFacts, span: Span, inner: OmpConstruct | None = None) -> set[str]:
    """Names the constructs around `span` map (other than `inner` itself): data regions that keep them
    on the device while the code at `span` runs (a target construct, or a call of a function holding one)."""
    names: set[str] = set()
    for outer in facts.constructs_around(span):
        if outer is inner or outer.directive is None:
            continue
        if inner is not None and outer.region == inner.region:
            continue
        names |= {fold(m.item.name, outer) for m in outer.directive.map_items}
    return names


def named_elsewhere(facts: FileFacts, construct: OmpConstruct, name: str) -> bool:
    """Whether a clause other than a data-sharing one (`map`, `shared`, `private` …) names `name`: on
    the construct itself (`if`, `num_teams`, `use_device_ptr` …) or on any directive inside its region
    (an update, a reduction, an expression clause)."""
    fortran = construct.directive is not None and construct.directive.language == "fortran"
    word = re.compile(rf"(?<![\w.%>]){re.escape(name)}(?!\w)", re.IGNORECASE if fortran else 0)
    inner = [construct] + [
        c
        for c in facts.omp
        if c is not construct
        and construct.region is not None
        and (construct.region.contains(c.span) or (c.region is not None and c.region == construct.region))
    ]
    for other in inner:
        if other.directive is None:
            return True  # a directive that does not parse may say anything
        for clause in other.directive.clauses:
            if clause.name in _DATA_SHARING:
                continue
            if word.search(clause.text):
                return True
    return False
