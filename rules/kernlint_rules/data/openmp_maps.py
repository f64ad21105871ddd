"""The OpenMP half of KL102 (accessor-mode): `map` types wider than the region's use of the data.

`map(tofrom: x)` — also `map(x)`, whose type defaults to tofrom — copies `x` to the device when the
region starts and back when it ends. If the region only reads `x`, the copy back is wasted (`to`
suffices); if it overwrites every element of the mapped section without reading it, or before reading
any (`OmpVariableUse.written_first`: each element is stored before anything reads it, also within one
iteration), the copy in is wasted (`from` suffices). The facts say how each
mapped variable is used (`OmpVariableUse`); this module decides, for `target` constructs and `target
data` regions alike, and stays silent whenever the use is not fully known: a variable passed to a
function or aliased (also through a pointer made outside the region), a member of its elements stored
to, code `#include`d into the region, a call that may reach a variable that is not local, updated with
`target update`, read-modified-written, or already mapped by an enclosing `target data` region (then the
inner map moves nothing). A fix that narrows the map is offered only on that proof: no write (for `to`),
no read (for `from`), nothing unknown; the evidence records the counts it rests on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Fix
from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct, OmpVariableUse, map_item_bytes
from kernlint.facts.openmp_directive import OmpMapItem
from kernlint.occupancy import DeviceProfile
from kernlint.transfer_cost import transfer_cost

if TYPE_CHECKING:
    from kernlint.rule import RuleContext

_HARMLESS_MODIFIERS = frozenset({"close", "present", "ompx_hold"})


def map_findings(facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
    """KL102 findings for the `map` clauses of every OpenMP construct of the file."""
    for construct in facts.omp:
        directive = construct.directive
        if (
            directive is None
            or construct.region is None
            or not construct.variables
            or not ("target" in directive.leaves or "target data" in directive.leaves)
        ):
            continue
        outer = _mapped_outside(facts, construct)
        for mapped in directive.map_items:
            if mapped.map_type != "tofrom" or any(
                m.lower() not in _HARMLESS_MODIFIERS | {"tofrom"} for m in mapped.modifiers
            ):
                continue
            name = mapped.item.name
            use = construct.variable(name)
            if use is None or use.name in outer or use.escapes or use.unknown or use.updated:
                continue
            if use.written_first:
                yield _diagnostic(construct, mapped, use, "from", ctx)
            elif use.read_modify_writes:
                continue
            elif use.reads and not use.writes:
                yield _diagnostic(construct, mapped, use, "to", ctx)
            elif use.writes and not use.reads and use.writes_cover:
                yield _diagnostic(construct, mapped, use, "from", ctx)


def _mapped_outside(facts: FileFacts, construct: OmpConstruct) -> set[str]:
    """Names an enclosing `target data` region (or target construct) already maps."""
    names: set[str] = set()
    for outer in facts.constructs_around(construct.span):
        if outer is construct or outer.region == construct.region:
            continue
        names |= {v.name for v in outer.variables}
    return names


def _diagnostic(
    construct: OmpConstruct, mapped: OmpMapItem, use: OmpVariableUse, suggested: str, ctx: RuleContext
) -> Diagnostic:
    clause = mapped.clause
    written = " ".join(clause.text.split())
    region = "target data region" if "target data" in construct.leaves else "target region"
    if suggested == "to":
        why = f"the {region} only reads `{use.name}`, so copying it back to the host when the region ends is wasted"
    elif use.reads or use.read_modify_writes:
        why = (
            f"the {region} overwrites every element of `{mapped.item.text}` before it reads any, so copying "
            f"the old contents to the device is wasted"
        )
    else:
        why = (
            f"the {region} overwrites every element of `{mapped.item.text}` without reading it, so copying "
            f"the old contents to the device is wasted"
        )
    where = construct.locate(clause.text)
    default = "" if any(m.lower() == "tofrom" for m in mapped.modifiers) else " (the default map type)"
    return ctx.diagnostic(
        where,
        f"`{written}` maps `{use.name}` tofrom{default}, but {why}; map it `{suggested}`",
        evidence={
            "variable": use.name,
            "map_type": "tofrom",
            "suggested": suggested,
            "reads": use.reads,
            "writes": use.writes,
            "read_modify_writes": use.read_modify_writes,
            "escapes": use.escapes,
            "writes_cover": use.writes_cover,
            "written_first": use.written_first,
            "construct": construct.kind,
        },
        fix=_fix(ctx, construct, mapped, suggested),
        cost=map_copy_cost(
            ctx.devices,
            "device-to-host" if suggested == "to" else "host-to-device",
            map_item_bytes(construct, mapped.item.text),
        ),
    )


def _fix(ctx: RuleContext, construct: OmpConstruct, mapped: OmpMapItem, suggested: str) -> Fix | None:
    """Rewrite the map type in place (`tofrom` written first in the clause), or insert one into a clause
    that has none, when the clause maps this one item."""
    clause = mapped.clause
    site = construct.map_type(clause.text)
    if len(clause.items) != 1 or site is None:
        return None
    if site.word is not None and site.written is not None and site.written.lower() == "tofrom":
        edit = ctx.replace(site.word, suggested if site.written.islower() else suggested.upper())
    elif not mapped.modifiers:
        edit = ctx.replace(site.inside, f"{suggested}: ")
    else:
        return None
    return Fix(f"map `{mapped.item.name}` {suggested}", (edit,), safe=False)


def map_copy_cost(devices: Sequence[DeviceProfile], direction: str, nbytes: int | None = None) -> Cost:
    """KL102 for OpenMP `map(tofrom:)`: the needless copy of the mapped section, once per region; its
    bytes are the map item's element size × extents (`map_item_bytes`), unknown when either is."""
    return transfer_cost(
        devices,
        nbytes,
        1,
        per="per region",
        missing=() if nbytes is not None else ("the mapped section's size in bytes",),
        assumptions=(f"one needless {direction} copy of the mapped section each time the region runs",),
    )
