"""A variable in a `map` clause that the region never reads or writes: its copy is wasted.

What it does
    Looks at every list item of the `map(to:)`, `map(from:)` and `map(tofrom:)` clauses (and `map(x)`,
    tofrom by default) of `target` constructs and `target data` regions, in C, C++ and Fortran, and
    reports a variable the region provably never uses: no read, no write, no call it is passed to, no
    pointer into it used there, no clause of a directive inside the region naming it (an update, a
    reduction, `use_device_ptr`, `num_teams(n)` …). A data-sharing clause (`shared(b)`, `private(b)`)
    is not a use. Anything the analysis cannot see keeps it silent: code `#include`d into the region,
    a macro (of the file, or an unknown upper-case call) that may name the variable, an `asm` statement,
    a call that may reach a variable that is not local (a global, a `declare target` variable, a class
    member, a module variable), a pointer alias made outside the region. A variable that an enclosing
    `target data` region, a `target enter data` or `declare target` already keeps on the device is not
    reported either: the map then finds it present and copies nothing.

Why it matters
    A map clause copies its data over the host link when the region starts (`to`), when it ends
    (`from`), or both (`tofrom`), whether the region uses it or not. Guide chapter 01 puts "minimize the
    data transfer between host and device" first among the rules for offload, and chapter 05 explains
    why: the link is an order of magnitude slower than device memory (63 GB/s for PCIe 5.0 x16 against
    hundreds of GB/s to a few TB/s on the device).

Example
    #pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(tofrom: c[0:n])
    for (int i = 0; i < n; ++i)
      c[i] += a[i];                                  // KL706: b is copied but never used

    !$omp target teams distribute parallel do map(to: a, b) map(tofrom: c)   ! KL706: b
    do i = 1, n
      c(i) = c(i) + a(i)
    end do

Fix
    Remove the variable from the map clause (and from `shared`/`private` clauses naming it). If a
    later region needs it on the device, map it there, or keep it resident with `target data` /
    `target enter data` around both.

Severity
    Warning: the copy is wasted each time the region runs; the message names the item to remove and
    prices its copies on the host link. Never an error (the results are the same), and nothing at
    all when a use could hide anywhere the analysis cannot see.

Occupancy basis
    None: the cost is data movement, not occupancy. The finding does not depend on the device.

Cost
    The variable's bytes (element size × the extents of its map item) × the copies its map type makes
    (1 for `to` or `from`, 2 for `tofrom`) ÷ the host-link bandwidth, each time the region runs; the
    slowest link of the target devices is the headline, and an integrated GPU quotes no link cost.
    Unknown when the element type or an extent is unknown (the message still names the change).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct, OmpMapped, map_item_bytes
from kernlint.facts.openmp_directive import OmpMapItem
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import transfer_cost
from kernlint_rules.transfers.map_items import (
    TRANSFERS,
    fold,
    map_items,
    mapped_by_enclosing,
    mapping_constructs,
    named_elsewhere,
    resident,
)

_DIRECTION = {"to": "to the device", "from": "back from the device", "tofrom": "to the device and back"}


class UnusedMap(Rule):
    code = "KL706"
    name = "unused-map"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        kept = resident(facts)
        for construct in mapping_constructs(facts):
            outer = mapped_by_enclosing(facts, construct)
            for item, mapped in map_items(construct):
                name = fold(item.item.name, construct)
                if item.map_type not in TRANSFERS or any(m.lower() == "always" for m in item.modifiers):
                    continue
                if name in kept or name in outer:
                    continue
                use = construct.variable(name)
                if use is None or use.reads or use.writes or use.read_modify_writes or use.escapes or use.unknown:
                    continue
                if use.updated or named_elsewhere(facts, construct, name):
                    continue
                yield self._finding(construct, item, mapped, ctx)

    def _finding(self, construct: OmpConstruct, item: OmpMapItem, mapped: OmpMapped, ctx: RuleContext) -> Diagnostic:
        map_type = item.map_type or "tofrom"
        written = " ".join(item.clause.text.split())
        region = "target data region" if "target data" in construct.leaves else "target region"
        nbytes = map_item_bytes(construct, item.item.text)
        size = f" ({nbytes:,} bytes)" if nbytes is not None else ""
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` copies `{item.item.text}`{size} {_DIRECTION[map_type]}, but the {region} never "
            f"reads or writes `{item.item.name}`: remove it from the map clause",
            evidence={
                "variable": mapped.name,
                "item": item.item.text,
                "map_type": map_type,
                "bytes": nbytes,
                "construct": construct.kind,
            },
            cost=unused_map_cost(ctx, nbytes, TRANSFERS[map_type]),
        )


def unused_map_cost(ctx: RuleContext, nbytes: int | None, transfers: int) -> Cost:
    """KL706: every copy of the unused item, each time the region runs."""
    return transfer_cost(
        ctx.devices,
        nbytes,
        transfers,
        per="per region",
        missing=() if nbytes is not None else ("the mapped item's size in bytes",),
        assumptions=("every copy the map type makes is wasted: the region never touches the variable",),
    )
