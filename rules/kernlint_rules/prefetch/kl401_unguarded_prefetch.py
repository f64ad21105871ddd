"""An OpenMP prefetch whose index can leave the array has no `if` guard: prefetches fault.

What it does
    Looks at every `#pragma ompx prefetch data(…)` (C/C++) and `!$omp prefetch data(…)` (Fortran) and
    works out the range of the element it asks for from the loops around it. The classic shape is
    prefetching the next tile while working on the current one: `b[j + TILE + u]` inside
    `for (j = 0; j < n2; j += TILE)` and `for (u = 0; u < TILE; ++u)` reaches up to `TILE` elements
    past `n2` on the last tile. Such a prefetch is flagged when it has no `if(...)` clause and no
    enclosing `if` that bounds its index. Local variables holding the index (`int next = j + TILE + u;`,
    Fortran `next = j + TILE + u`), `#define`s, `constexpr` values and Fortran `parameter`s are seen
    through. An index that provably stays within the loop's range (`src[i]` in
    `for (i = 0; i < n; ++i)`, `b[j + u]` in a tiled loop) is fine, and an index the analysis cannot
    bound (a call, a product of variables, data loaded from memory) is not reported.

Why it matters
    On Intel Data Center GPU Max (and later) the OpenMP prefetch extension turns into hardware
    prefetch instructions that are *faulting*: a prefetch of an address outside the allocation can
    take the program down with a segmentation fault, although the program never loads that element.
    The guide therefore pairs every speculative prefetch with an `if` clause that keeps the index in
    bounds, e.g. `if (next_tile < n2)` for the next tile of an N-body kernel.

Example
    for (int j = 0; j < n2; j += TILE)
      for (int u = 0; u < TILE; ++u) {
        bb[u] = b[j + u];
        int next = j + TILE + u;
        if (next % 16 == 0) {
          #pragma ompx prefetch data(4: b[next])            // KL401
        }
      }

Fix
    Add the guard to the directive (kernlint offers this as a fix):

    #pragma ompx prefetch data(4: b[next]) if (next < n2)
    !$omp prefetch data(4: b(next:next)) if (next <= n2-1)

Fix safety
    The fix is always marked unsafe. A prefetch changes no result, so the guard cannot change what the
    program computes; but its bound is the array's last index only where a map clause or the
    declaration gives it, else the loop's bound, which may not be the array's: check it. A bound too
    tight drops useful prefetches, one too loose still faults. No fix is offered where the guard would
    not fit on the directive's line (Fortran's 72 columns in fixed form, 132 in free form).

Severity
    Warning: a prefetch whose index the analysis shows can leave the array may fault on devices
    where prefetches fault; the message names the `if` guard. Not an error: whether the address
    past the end is mapped (and so whether it faults) is not known from the code.

Occupancy basis
    None: this is about correctness. The finding does not depend on the device model, but the
    fault is specific to the Intel Data Center GPU Max series and later.

Cost
    The elements prefetched outside the array (how far the index passes the bound; with a unit step,
    prefetches per pass); one is enough to fault on Intel Max, so the score is 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Fix, FixAvailability, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import Linear, OmpCondition, OmpConstruct, OmpLoop, OmpPrefetchTarget
from kernlint.rule import Rule, RuleContext


class UnguardedPrefetch(Rule):
    code = "KL401"
    name = "unguarded-prefetch"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for construct in facts.omp:
            if construct.kind != "prefetch" or _clause_guards(construct.if_condition):
                continue
            for target in construct.targets:
                if target.index is None or any(_guards(c, target.index) for c in construct.conditions):
                    continue
                escape = _escape(target, construct.enclosing_loops)
                if escape is not None:
                    yield self._diagnostic(construct, target, escape, ctx)

    def _diagnostic(
        self, construct: OmpConstruct, target: OmpPrefetchTarget, escape: _Escape, ctx: RuleContext
    ) -> Diagnostic:
        loop = escape.loop
        guard = f"if ({target.index_text} {escape.guard_op} {escape.guard_bound})"
        if escape.side == "above":
            extent = f"past the array's last index {escape.limit}"
            if target.array_upper is None:
                extent += " (as the loop's bound suggests)"
            where = "last"
        else:
            extent, where = f"before the array's first index {escape.limit}", "first"
        message = (
            f"prefetch of `{target.text}` has no `if` guard, yet its index {target.index} can leave "
            f"the array: on the {where} iteration of the `{loop.index}` loop it reaches "
            f"{escape.reach}, {extent}; prefetches fault on Intel Data Center GPU Max (a "
            f"segmentation fault, not a skipped prefetch): add `{guard}`"
        )
        return ctx.diagnostic(
            construct.locate(target.text),
            message,
            evidence={
                "array": target.base,
                "index": str(target.index),
                "loop": loop.index,
                "loop_low": str(loop.low),
                "loop_high": str(loop.high),
                "reaches": str(escape.reach),
                "side": escape.side,
                "guard": guard,
            },
            fix=_fix(construct, guard, ctx),
            related=[(loop.span, f"the `{loop.index}` loop whose range the index leaves")],
            cost=out_of_range_prefetch_cost(*_outside(escape)),
        )


class _Escape:
    """How a prefetch index leaves an enclosing loop's range."""

    def __init__(self, loop: OmpLoop, side: str, reach: Linear, guard_op: str, guard_bound: str, limit: Linear) -> None:
        self.loop, self.side, self.reach, self.limit = loop, side, reach, limit
        self.guard_op, self.guard_bound = guard_op, guard_bound


def _outside(escape: _Escape) -> tuple[int | None, int, int | None]:
    """How many elements past the array the index reaches, the loop's step, and its trip count (None
    when not constant)."""
    loop = escape.loop
    step = loop.step_value or 1
    gap = escape.reach - escape.limit if escape.side == "above" else escape.limit - escape.reach
    overshoot = gap.constant if gap.is_constant and gap.constant > 0 else None
    trip = None
    if loop.low is not None and loop.high is not None:
        span = loop.high - loop.low
        if span.is_constant and span.constant >= 0:
            trip = span.constant // step + 1
    return overshoot, step, trip


def _clause_guards(condition: OmpCondition | None) -> bool:
    """An `if` clause counts as a guard unless all it does is mask (`if (next % 16 == 0)`)."""
    if condition is None:
        return False
    return condition.opaque or bool(condition.bounds) or not condition.masks


def _guards(condition: OmpCondition, index: Linear) -> bool:
    """An enclosing condition that bounds (or may bound) a variable the index is made of."""
    if condition.opaque:
        return True
    return bool(condition.bounds) and bool(set(condition.names) & set(index.names))


def _loop_range(loops: tuple[OmpLoop, ...], name: str) -> tuple[int, int] | None:
    """The constant range of the innermost enclosing loop over `name`."""
    for loop in reversed(loops):
        if loop.index == name:
            if loop.low is not None and loop.high is not None and loop.low.is_constant and loop.high.is_constant:
                return loop.low.constant, loop.high.constant
            return None
    return None


def _escape(target: OmpPrefetchTarget, loops: tuple[OmpLoop, ...]) -> _Escape | None:
    """How the index leaves the array; None when it provably stays inside, or when nothing can be
    proved either way.

    For an enclosing loop over `v` whose coefficient in the index is 1, the index is `v + rest`, and
    `rest` is bounded by the constant ranges of the other loops. With the loop's step S, `v` stands
    for the tile `v … v + S - 1`, so the largest index is the loop's last tile start plus `rest`'s
    maximum. That is compared with the array's last index — from a map clause or the declaration,
    else the bound the loop implies (`i < n` → n - 1, `i < n - 1` → still n - 1: a stencil's loop
    stops before the halo) — and the smallest with the array's first index.
    """
    index = target.index
    assert index is not None
    found: _Escape | None = None
    for loop in loops:
        if (
            loop.index is None
            or loop.low is None
            or loop.high is None
            or not loop.step_value
            or loop.step_value < 0
            or index.coefficient(loop.index) != 1
        ):
            continue
        rest = index.without(loop.index)
        low, high = rest.constant, rest.constant
        bounded = True
        for name, coefficient in rest.terms:
            span = _loop_range(loops, name)
            if span is None:
                bounded = False
                break
            low += min(coefficient * span[0], coefficient * span[1])
            high += max(coefficient * span[0], coefficient * span[1])
        if not bounded:
            continue
        top = loop.high + Linear.const(high - loop.step_value + 1)
        bottom = loop.low + Linear.const(low)
        upper = target.array_upper if target.array_upper is not None else _implied_upper(loop.high)
        above = top - upper
        below = None if target.array_lower is None else bottom - Linear.const(target.array_lower)
        above_ok = above.is_constant and above.constant <= 0
        below_ok = below is not None and below.is_constant and below.constant >= 0
        if above_ok and below_ok:
            return None
        if found is not None:
            continue
        if above.is_constant and above.constant > 0:
            op, bound = _bound_text(loop, target.array_upper)
            found = _Escape(loop, "above", top, op, bound, upper)
        elif below is not None and below.is_constant and below.constant < 0:
            found = _Escape(loop, "below", bottom, ">=", str(target.array_lower), Linear.const(target.array_lower))  # type: ignore[arg-type]
    return found


def _implied_upper(high: Linear) -> Linear:
    """The array's last index a loop bound implies: `i < n` and `i < n - 1` both suggest n - 1."""
    if high.terms and high.constant < -1:
        return Linear(high.terms, -1)
    return high


def _bound_text(loop: OmpLoop, array_upper: Linear | None) -> tuple[str, str]:
    """The guard's operator and bound: the array's last index when known, else written like the
    loop's own bound."""
    if (
        array_upper is None
        and loop.upper is not None
        and loop.high is not None
        and not (loop.high.terms and loop.high.constant < -1)
    ):
        return ("<=" if loop.upper_inclusive else "<"), loop.upper
    last = array_upper if array_upper is not None else _implied_upper(loop.high)  # type: ignore[arg-type]
    after = last + Linear.const(1)
    return ("<", str(after)) if after.constant == 0 or (last.constant != 0 and after.is_constant) else ("<=", str(last))


def _fix(construct: OmpConstruct, guard: str, ctx: RuleContext) -> Fix | None:
    at = construct.append_at
    if at is None:
        return None
    text = f" {guard}"
    _line, column = ctx.position(at.line, at.column_byte)
    if construct.append_limit is not None and column - 1 + len(text) > construct.append_limit:
        return None
    return Fix(f"guard the prefetch with `{guard}`", (ctx.insert_after(at, text),), safe=False)


def out_of_range_prefetch_cost(overshoot: int | None, step: int, trip: int | None) -> Cost:
    """KL401: how far prefetches reach outside the array; on Intel Max any one of them faults.

    With a unit step every element of the overshoot is prefetched once per pass of the loop, so that
    many prefetches are outside, and with the trip count known their share of the loop's prefetches."""
    consequence = "a prefetch outside the array faults on Intel Data Center GPU Max"
    formula = "elements the index passes the array's end by (= prefetches outside per pass with step 1)"
    if overshoot is None:
        return Cost(
            None,
            "elements",
            "prefetched outside the array",
            formula,
            consequence,
            (),
            ("how far the index passes the array's bound",),
            1.0,
        )
    figures: dict[str, Any] = {"overshoot_elements": overshoot, "step": step, "trip_count": trip}
    basis = f"the index passes the array's bound by {overshoot} element{'s' if overshoot != 1 else ''}"
    if step == 1:
        basis += f": {overshoot} prefetch{'es' if overshoot != 1 else ''} per pass leave the array"
        if trip:
            figures["outside_share_pct"] = 100 * min(overshoot, trip) / trip
            basis += f", {min(overshoot, trip)} of {trip} = {figures['outside_share_pct']:.3g}% of them"
    basis += f"; {consequence}"
    return Cost(
        float(overshoot),
        "elements",
        "prefetched outside the array (one is enough to fault on Intel Max)",
        formula,
        basis,
        (),
        (),
        1.0,
        None,
        None,
        figures,
    )
