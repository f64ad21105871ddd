"""What wasted prefetches cost (KL404, KL405): the share of the prefetches issued for nothing. A builder
only one rule uses lives in that rule's module."""

from __future__ import annotations

from kernlint.cost import UNKNOWN_SHARE, Cost


def prefetch_waste_cost(count: int, why: str, device: str | None = None, *, per: str = "per cache line") -> Cost:
    """KL404/KL405: `count` prefetches are issued (`per` cache line, simd step …) where one suffices.

    No score: the wasted share is of the prefetches, not of the kernel, whose time they are a part of
    that is not known."""
    share = (count - 1) / count
    return Cost(
        100 * share,
        "%",
        f"of the prefetches wasted ({count} {per} where 1 suffices)",
        f"(prefetches {per} − 1) ÷ prefetches {per}",
        f"({count} − 1) ÷ {count} = {100 * share:.3g}%; {why}",
        (UNKNOWN_SHARE,),
        (),
        None,
        None,
        device,
        {"prefetches": count, "per": per, "wasted_share": share},
    )
