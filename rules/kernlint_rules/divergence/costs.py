"""What divergence costs (KL501, KL502): the share of a sub-group's lanes busy under a branch, from the
divergence analysis's lane estimate, and the whole kernel when a barrier is at stake."""

from __future__ import annotations

import math

from kernlint.cost import UNKNOWN_SHARE, Cost, failure_cost
from kernlint.facts.device import LaneEstimate


def divergence_cost(
    lanes: LaneEstimate | None,
    sub_group_size: int | None,
    device: str | None = None,
    *,
    group_size: int | None = None,
    scope: str | None = None,
    predicated: bool = False,
) -> Cost:
    """KL501: the lane-utilisation estimate of the divergence analysis, as the share of a sub-group's
    lanes busy while the branch's code runs. No score: the idle share is of the branch's code, whose
    share of the kernel's time is not known (`figures["idle_share"]` keeps it). `group_size` (the
    work-group size, when known), `scope` (which id a staggered loop follows) and `predicated` (a tree
    step the compiler predicates rather than branches over) refine the shrinking and staggered figures."""
    n = sub_group_size
    formula, basis, use, missing = _utilisation(lanes, n, group_size, scope, predicated)
    if use is None:
        return Cost(
            None,
            "%",
            "of a sub-group's lanes busy under the branch",
            formula,
            basis,
            (),
            missing,
            None,
            None,
            device,
            {"sub_group_size": n},
        )
    assumptions = (("both paths take equal time",) if lanes is not None and lanes.kind == "split" else ()) + (
        UNKNOWN_SHARE,
    )
    return Cost(
        100 * use,
        "%",
        "of a sub-group's lanes busy under the branch",
        formula,
        basis,
        assumptions,
        (),
        None,
        None,
        device,
        {"sub_group_size": n, "lane_kind": lanes.kind if lanes else None, "idle_share": 1 - use},
    )


def _utilisation(
    lanes: LaneEstimate | None,
    n: int | None,
    group_size: int | None = None,
    scope: str | None = None,
    predicated: bool = False,
) -> tuple[str, str, float | None, tuple[str, ...]]:
    """(formula, basis, utilisation or None, missing) for one lane estimate."""
    if lanes is None:
        return "busy lanes ÷ sub-group size", "the analysis gives no lane estimate", None, ("the lane estimate",)
    need_n = ("the sub-group size",)
    if lanes.kind == "split":
        return (
            "(taken + not taken) ÷ (2 × sub-group size): both paths run in turn",
            "each path runs with its own lanes while the others idle: 1 ÷ 2 = 50%",
            0.5,
            (),
        )
    if lanes.kind == "fraction":
        if lanes.taken is None:
            return (
                "taken lanes ÷ sub-group size",
                "the share of lanes taking it is unknown",
                None,
                ("the share of lanes that take the branch",),
            )
        return (
            "taken lanes ÷ sub-group size",
            f"{lanes.taken:.3g} of the lanes = {100 * lanes.taken:.3g}%",
            lanes.taken,
            (),
        )
    if lanes.kind == "single":
        if not n:
            return "1 ÷ sub-group size", "one lane runs it", None, need_n
        return "1 ÷ sub-group size", f"1 ÷ {n} = {100 / n:.3g}%", 1 / n, ()
    if lanes.kind == "all-but-one":
        if not n:
            return "(sub-group size − 1) ÷ sub-group size", "all lanes but one run it", None, need_n
        return "(sub-group size − 1) ÷ sub-group size", f"{n - 1} ÷ {n} = {100 * (n - 1) / n:.3g}%", (n - 1) / n, ()
    if lanes.kind in ("shrinking", "growing"):
        # halving or doubling, the bound spends log2 n steps below the sub-group size: the last ones or the first
        which = "last" if lanes.kind == "shrinking" else "first"
        if not n or n & (n - 1):
            return (
                f"(n − 1) ÷ (n × log2 n) over the {which} log2 n steps (n = sub-group size)",
                (
                    "the active lanes halve each step"
                    if lanes.kind == "shrinking"
                    else "the active lanes double each step"
                ),
                None,
                need_n,
            )
        steps = int(math.log2(n))
        if predicated and group_size and group_size > n:
            # a step short enough to predicate is issued by every sub-group of the work-group, busy or not
            use = (n - 1) / (group_size * steps)
            return (
                f"(n − 1) ÷ (W × log2 n) over the {which} log2 n steps, predicated: every sub-group of the "
                "work-group issues them (n = sub-group size, W = work-group size)",
                f"({n} − 1) ÷ ({group_size} × {steps}) = {100 * use:.3g}% in the {which} {steps} steps",
                use,
                (),
            )
        use = (n - 1) / (n * steps)
        return (
            f"(n − 1) ÷ (n × log2 n) over the {which} log2 n steps (n = sub-group size)",
            f"({n} − 1) ÷ ({n} × {steps}) = {100 * use:.3g}% in the {which} {steps} steps",
            use,
            (),
        )
    if lanes.kind == "staggered":
        return _staggered(n, group_size, scope)
    return (
        "1 for every sub-group but the one that straddles the bound",
        "only the sub-group that straddles the bound runs partly filled: at most one per launch",
        None,
        ("the global size (the straddling sub-group's share of the launch)",),
    )


def _staggered(
    n: int | None, group_size: int | None, scope: str | None
) -> tuple[str, str, float | None, tuple[str, ...]]:
    """Lanes leaving a loop one iteration apart (`k <= lid`): a sub-group whose lanes run t0 + 1 … t0 + n
    trips keeps (t0 + (n + 1) ÷ 2) ÷ (t0 + n) of them busy. Over a work-group of m = W ÷ n sub-groups
    following the local id (t0 = 0, n, …): Σ (lid + 1) ÷ (n × Σ (t0 + n)) = (n·m + 1) ÷ (n·(m + 1))."""
    formula = "Σ trips ÷ (n × Σ the longest lane's trips per sub-group) = (n·m + 1) ÷ (n·(m + 1)), m = W ÷ n"
    if scope == "global":
        return (
            formula,
            "the trip count follows the global id: the lanes of a sub-group differ by fewer than n of a long "
            "count, so nearly all are busy; the cost is imbalance between sub-groups",
            None,
            ("the global id's offset (the trip counts of a sub-group's lanes)",),
        )
    if scope not in ("local", "lane") or not n:
        return formula, "the lanes leave one iteration apart", None, ("the sub-group size and the id the loop follows",)
    m = group_size // n if scope == "local" and group_size and group_size % n == 0 else 1
    use = (n * m + 1) / (n * (m + 1))
    where = f"a work-group of {group_size}" if m > 1 else ("a sub-group" if scope == "lane" else "one sub-group")
    return formula, f"({n} × {m} + 1) ÷ ({n} × {m + 1}) = {100 * use:.3g}% over {where}", use, ()


def divergent_barrier_cost(lanes: LaneEstimate | None, sub_group_size: int | None, device: str | None = None) -> Cost:
    """KL502: a barrier not every work-item reaches deadlocks or is undefined: all the kernel's work is
    at stake; the lane estimate of the condition is kept among the figures."""
    cost = failure_cost("a barrier under a work-item-dependent condition: deadlock or undefined behaviour", device)
    _formula, basis, use, _missing = _utilisation(lanes, sub_group_size)
    figures = {
        "lane_kind": lanes.kind if lanes else None,
        "lanes_busy_pct": None if use is None else 100 * use,
        "lanes_basis": basis,
    }
    return Cost(
        cost.value, cost.unit, cost.quantity, cost.formula, cost.basis, score=1.0, device=device, figures=figures
    )
