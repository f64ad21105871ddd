"""A map section provably larger than what the region touches: the extra elements are copied for nothing.

What it does
    For each one-dimensional list item of a `map(to:)`, `map(from:)` or `map(tofrom:)` clause of a
    `target` construct or `target data` region (a C section `a[lo:len]`, a whole C array, a Fortran
    section `a(lo:hi)` or a whole rank-1 array with known bounds or an assumed shape), compares the
    indices the item maps with the indices the region's accesses reach: every access must be a
    one-dimensional subscript linear in the region's loop indices, whose loop bounds are linear or a
    linear expression divided by a constant (`i < n / 2`, `do i = 1, size(a, 1) / 2`). Reports the
    item when the difference is provable — a constant number of elements at either end, or a fixed
    share of a symbolic extent (half of `n` for a loop to `n / 2`) — and at least `min-unused-pct` of
    the section. Any access it cannot read (an escape, a call the array is passed to, a pointer into it,
    a multi-dimensional subscript, a whole-array operation, a `target update`) keeps it silent, and so
    does data an enclosing `target data`, a `target enter data` or `declare target` keeps resident.

Why it matters
    A map clause copies the whole section over the host link, used or not. Guide chapters 01 and 05:
    minimise the data moved between host and device, the link being an order of magnitude slower than
    device memory. Mapping only the reached range also keeps device memory for data that is used.

Example
    #pragma omp target map(to: a[0:N], b[0:N]) map(from: c[0:N])   // KL707 ×3: only [0, N/2) is used
    #pragma omp parallel for
    for (int i = 0; i < N / 2; ++i)
      c[i] = a[i] + b[i];

Fix
    Map the range the region reaches, e.g. `map(to: a[0:N/2])`, `map(from: c(1:size(c, 1) / 2))`. With
    `from`, elements outside the section then keep their host values instead of being overwritten
    with the device's uninitialised memory.

Severity
    Warning when at least `min-unused-pct` of the section is provably never reached: the message
    names the section to map and the elements (bytes where known) saved. Nothing below the threshold,
    and never an error: the results are the same.

Occupancy basis
    None: the cost is data movement, not occupancy. The finding does not depend on the device.

Cost
    The unused elements × the element size × the copies the map type makes (1 for `to`/`from`, 2 for
    `tofrom`) ÷ the host-link bandwidth, each time the region runs; unknown (with the share named)
    when the extent is symbolic or the element type unknown.

Options
    min-unused-pct (float, default 10.0): report only when at least this share of the section is
    unused. A section one element too long is harmless; a copy of twice the data is not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import IndexBound, OmpConstruct, OmpMapped, OmpRange
from kernlint.facts.openmp_directive import OmpMapItem
from kernlint.records import record
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import transfer_cost
from kernlint_rules.transfers.map_items import (
    TRANSFERS,
    fold,
    map_items,
    mapped_by_enclosing,
    mapping_constructs,
    resident,
)


@record
class Excess:
    """How much of a mapped range the region does not reach: `elements` when a constant count, else
    `share` of a symbolic extent (0.5 for a loop to n / 2)."""

    elements: int | None
    share: float | None


class OversizedMapSection(Rule):
    code = "KL707"
    name = "oversized-map-section"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran"})
    options: ClassVar[dict[str, Any]] = {"min-unused-pct": 10.0}

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        threshold = float(ctx.options["min-unused-pct"]) / 100
        kept = resident(facts)
        for construct in mapping_constructs(facts):
            outer = mapped_by_enclosing(facts, construct)
            for item, mapped in map_items(construct):
                name = fold(item.item.name, construct)
                if item.map_type not in TRANSFERS or mapped.range is None or name in kept or name in outer:
                    continue
                use = construct.variable(name)
                if use is None or use.touched is None or use.escapes or use.unknown or use.updated:
                    continue
                excess = unused(mapped.range, use.touched)
                if excess is None:
                    continue
                share = excess.share
                if share is None:
                    count = mapped.range.last.constant_difference(mapped.range.first)
                    share = (
                        excess.elements / (count + 1) if excess.elements and count is not None and count >= 0 else None
                    )
                if share is None or share < threshold or share <= 0:
                    continue
                yield self._finding(construct, item, mapped, use.touched, excess, share, ctx)

    def _finding(
        self,
        construct: OmpConstruct,
        item: OmpMapItem,
        mapped: OmpMapped,
        touched: OmpRange,
        excess: Excess,
        share: float,
        ctx: RuleContext,
    ) -> Diagnostic:
        fortran = construct.directive is not None and construct.directive.language == "fortran"
        map_type = item.map_type or "tofrom"
        written = " ".join(item.clause.text.split())
        nbytes = (
            excess.elements * mapped.element_bytes
            if excess.elements is not None and mapped.element_bytes is not None
            else None
        )
        if excess.elements is not None:
            size = f"{nbytes:,} bytes, " if nbytes is not None else ""
            plural = excess.elements != 1
            amount = f"{excess.elements:,} element{'s' if plural else ''} ({size}{share:.0%} of the section)"
            amount += " cross" if plural else " crosses"
        else:
            amount = f"about {share:.0%} of the section crosses"
        reached = _reached(item.item.name, touched, fortran)
        suggestion = _section(item.item.name, touched, fortran)
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` copies `{item.item.text}`, but the region only reaches {reached}: {amount} "
            f"the link for nothing; map `{suggestion}`",
            evidence={
                "variable": mapped.name,
                "item": item.item.text,
                "map_type": map_type,
                "mapped_first": str(mapped.range.first) if mapped.range else None,
                "mapped_last": str(mapped.range.last) if mapped.range else None,
                "touched_first": str(touched.first),
                "touched_last": str(touched.last),
                "unused_elements": excess.elements,
                "unused_share": share,
                "element_bytes": mapped.element_bytes,
            },
            cost=oversized_cost(ctx, nbytes, TRANSFERS[map_type], excess, share),
        )


def _share(mapped: OmpRange, elements: int | None) -> float | None:
    """`elements` as a share of a mapped range of known length."""
    count = mapped.last.constant_difference(mapped.first)
    return elements / (count + 1) if elements and count is not None and count >= 0 else None


def unused(mapped: OmpRange, touched: OmpRange) -> Excess | None:
    """What of `mapped` lies outside `touched`, when provable; None when the region may reach outside
    the mapped range or the difference is not known."""
    below = touched.first.constant_difference(mapped.first)
    if below is None or below < 0:
        return None
    above = mapped.last.constant_difference(touched.last)
    if above is not None:
        return Excess(below + above, None) if above >= 0 else None
    return _symbolic_tail(mapped.last, touched.last) or _multiple(mapped, touched)


def _symbolic_tail(mapped_last: IndexBound, touched_last: IndexBound) -> Excess | None:
    """A range that ends at `floor(N / k) + c` against a section that ends at `N + d`: from a section
    of about N elements the region leaves at least about N − N/k, a share of (k − 1)/k whatever N is
    (more when the range also starts later than the section)."""
    if touched_last.divisor == 1 or mapped_last.divisor != 1:
        return None
    gap = mapped_last.numerator - touched_last.numerator
    if not gap.is_constant:
        return None
    if gap.constant - touched_last.offset < 0:
        return None
    return Excess(None, (touched_last.divisor - 1) / touched_last.divisor)


def _multiple(mapped: OmpRange, touched: OmpRange) -> Excess | None:
    """A section of k·N + c elements (c ≥ 0, k ≥ 2) against a reached range of N: a share of at least
    about (k − 1)/k is left, whatever N is (`a[0:2 * n]` with a loop over n)."""
    if any(b.divisor != 1 for b in (mapped.first, mapped.last, touched.first, touched.last)):
        return None
    section = mapped.last.numerator - mapped.first.numerator
    reached = touched.last.numerator - touched.first.numerator
    if reached.is_constant or not section.terms:
        return None
    name, coefficient = reached.terms[0]
    ratio, remainder = divmod(section.coefficient(name), coefficient)
    if remainder or ratio < 2:
        return None
    slack = section - reached.scale(ratio)
    if not slack.is_constant or slack.constant + 1 - ratio < 0:  # section + 1 - ratio·(reached + 1) ≥ 0
        return None
    return Excess(None, (ratio - 1) / ratio)


def _reached(name: str, touched: OmpRange, fortran: bool) -> str:
    first, last = str(touched.first), str(touched.last)
    if fortran:
        return f"`{name}({first})` to `{name}({last})`"
    return f"`{name}[{first}]` to `{name}[{last}]`"


def _section(name: str, touched: OmpRange, fortran: bool) -> str:
    """The section that covers exactly the reached range: `a[lo:len]` in C, `a(lo:hi)` in Fortran."""
    if fortran:
        return f"{name}({touched.first}:{touched.last})"
    length = _length(touched)
    return f"{name}[{touched.first}:{length}]"


def _length(touched: OmpRange) -> str:
    """`last - first + 1` as written: `n / 2` for a range [0, n / 2 - 1]."""
    first, last = touched.first, touched.last
    if first.divisor == 1 and first.numerator.is_constant:
        return str(last.shifted(1 - first.numerator.constant))
    return f"{last} - ({first}) + 1"


def oversized_cost(ctx: RuleContext, nbytes: int | None, transfers: int, excess: Excess, share: float) -> Cost:
    """KL707: the copies of the unused elements, each time the region runs."""
    missing = []
    if nbytes is None:
        missing.append(
            "the unused elements' size in bytes"
            + (f" (about {share:.0%} of the section)" if excess.elements is None else "")
        )
    return transfer_cost(
        ctx.devices,
        nbytes,
        transfers,
        per="per region",
        missing=missing,
        assumptions=("the region reads and writes no element outside the range its accesses reach",),
    )
