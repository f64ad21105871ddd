"""What a divergent construct costs and whether it can be changed: the class KL501 grades by, and the
severity policy that turns a class into a warning or an info.

The dependence analysis says *that* lanes disagree (`Branch.dependence`, `Branch.reason`); this module
says what the disagreement costs, from the statement counts of the arms (`Branch.arms`), and names the
class a developer can act on:

  serial-leader    a loop or heavy block run by one lane (`if (lid == 0) { for … }`)
  tree-reduction   a test of the id against a bound halved each step (`if (lid < s)`, `s >>= 1`)
  tree-scan        the two sweeps of a work-efficient scan (`scan_pairs`): a combining step under a bound
                   doubled each step (`if (lid < d)`, `d *= 2`, the down-sweep) and the combining tree step
                   before it in the same code (the up-sweep, whose partial sums the down-sweep reads)
  divergent-loop   the trip count follows the lane id (`for (k = 0; k <= lid; ++k)`)
  heavy-arms       one arm with real work, or both arms, run one after the other
  cheap-arms       arms of a statement or two: predicated or if-converted, a select at most
  inherent         the algorithm's own divergence: trip counts or paths chosen by data each lane
                   loads (CSR rows, neighbour lists, searches, walks, state machines) or by
                   non-monotone arithmetic of the id, and triangular steps (`if (tx > i)`)
  boundary         a tail guard, halo, leader with trivial work or stride tail (graded by meaning upstream)

`verdict` applies the policy (KL501's docstring states it): a warning needs a change the message
names and a material gain estimated from the device model; everything else is an info.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kernlint.facts import Span
from kernlint.facts.device import ArmCost, Branch, LaneEstimate
from kernlint.records import record

HEAVY_ARM = 6  # statements (and calls) in one arm from which divergence costs more than predication would
SERIAL_WORK = 10  # straight-line statements under a leader test from which the other lanes' idling matters
SERIAL_TRIPS = 32  # iterations of a leader's loop from which sharing it across a sub-group pays (n − 1 of n)
MATERIAL_IDLE = 0.25  # idle share of the lanes under a construct from which changing it is worth a warning
# lane patterns with a named remedy: give each sub-group one path (remap the lanes, or select)
REGULAR = frozenset({"parity", "modulo", "bit-test", "lane-range"})
INHERENT = frozenset({"data", "arithmetic"})


def classify(branch: Branch) -> str:
    """The class of a KL501 construct (see the module docstring)."""
    leader = branch.lanes is not None and (
        branch.lanes.kind == "single"
        or (branch.lanes.kind == "fraction" and branch.lanes.taken is not None and branch.lanes.taken <= 1 / 8)
    )
    if branch.kind != "loop" and leader and branch.arms and _serial(branch.arms[0]):
        return "serial-leader"
    if branch.dependence != "strong":
        return "boundary"
    lanes = branch.lanes.kind if branch.lanes is not None else None
    if branch.reason == "loop-bound" and lanes == "shrinking" and branch.kind != "loop":
        return "tree-reduction"
    if branch.reason in INHERENT:
        if branch.kind == "loop" or branch.steers_loop or _heavy(branch.arms):
            return "inherent"
        return "cheap-arms"
    if branch.kind == "loop":
        return "divergent-loop"
    if branch.reason == "loop-bound" and lanes == "staggered" and _heavy(branch.arms):
        return "inherent"  # `if (tx > i)` in a loop over i: one lane leaves per step, the triangle of the algorithm
    if _heavy(branch.arms):
        return "heavy-arms"
    return "cheap-arms"


@record(slots=True)
class Launch:
    """What the policy needs to know of the launch around a construct."""

    sub_group: int | None  # the kernel's sub-group size (required, or the device's only one)
    group_size: int | None  # the work-group size, when constant and known
    barrier_in: Callable[[Span], bool]  # whether a work-group barrier lies in this code


@record(slots=True)
class Verdict:
    """A class's severity for one construct: `warn` when the policy's threshold is met, `why` says why not."""

    warn: bool
    why: str


def verdict(branch: Branch, klass: str, launch: Launch) -> Verdict:
    """The severity policy: a warning names a change the analysis can justify, with a material gain
    estimated from the device model (at least `MATERIAL_IDLE` of the lanes idle under heavy code, or a
    serial loop of a sub-group's worth of iterations); every other construct is an info."""
    if klass == "serial-leader":
        arm = branch.arms[0]
        loop = arm.over_group or (arm.loop_trips or 0) >= SERIAL_TRIPS
        if loop:
            return Verdict(True, "")
        return Verdict(
            False,
            f"the leader's work is short (no loop of {SERIAL_TRIPS} iterations or over the work-group): "
            "too little to share among the lanes",
        )
    if klass in ("tree-reduction", "tree-scan"):
        if not branch.combines:
            return Verdict(
                False,
                "its steps do not combine elements as a reduction or scan does, so no group algorithm replaces them",
            )
        if branch.loop is not None and launch.barrier_in(branch.loop):
            return Verdict(True, "")
        return Verdict(False, "no work-group barrier separates its steps, so they already cost little")
    if klass == "divergent-loop":
        use = lane_use(branch.lanes, launch.sub_group, launch.group_size, scope=branch.id_scope)
        if branch.id_scope in ("local", "lane") and use is not None and 1 - use >= MATERIAL_IDLE:
            return Verdict(True, "")
        if branch.id_scope in ("local", "lane") and branch.combines and (launch.group_size or 64) >= 32:
            # a running prefix: the last lane runs W iterations where a group scan takes about 2 log2 W steps
            return Verdict(True, "")
        if branch.id_scope == "global":
            return Verdict(
                False,
                "the lanes of a sub-group differ by less than its width in a long count: "
                "the cost is imbalance between sub-groups, not idle lanes",
            )
        return Verdict(False, "the idle share of the lanes is small or not known")
    if klass == "heavy-arms":
        use = lane_use(branch.lanes, launch.sub_group, launch.group_size)
        if branch.reason in REGULAR and use is not None and 1 - use >= MATERIAL_IDLE:
            return Verdict(True, "")
        if use is not None and 1 - use < MATERIAL_IDLE:
            return Verdict(False, f"{100 * use:.3g}% of the lanes stay busy, too many for a change to pay")
        return Verdict(False, "no regrouping of these lanes is known to pay")
    return Verdict(False, "")


def lane_use(
    lanes: LaneEstimate | None, sub_group: int | None, group_size: int | None = None, scope: str | None = None
) -> float | None:
    """The busy share of a sub-group's lanes under the construct, from the lane estimate, or None."""
    if lanes is None:
        return None
    n = sub_group or 32
    if lanes.kind == "split":
        return 0.5
    if lanes.kind == "fraction":
        return lanes.taken
    if lanes.kind == "single":
        return 1 / n
    if lanes.kind == "all-but-one":
        return (n - 1) / n
    if lanes.kind in ("shrinking", "growing"):
        return (n - 1) / (n * max(1, n.bit_length() - 1))
    if lanes.kind == "staggered" and scope in ("local", "lane"):
        m = group_size // n if group_size and scope == "local" and group_size % n == 0 else 1
        return (n * m + 1) / (n * (m + 1))  # Σ (lid + 1) ÷ (n × Σ the longest lane of each sub-group)
    return None


def statements(arm: ArmCost) -> str:
    """`12 statements`, `3 statements and 1 loop`: an arm's cost in words."""
    words = f"{arm.statements} statement{'s' if arm.statements != 1 else ''}"
    if arm.loops:
        words += f" with {arm.loops} loop{'s' if arm.loops != 1 else ''}"
    if arm.calls:
        words += f" and {arm.calls} call{'s' if arm.calls != 1 else ''}"
    return words


def estimate(branch: Branch, klass: str, sub_group: int | None) -> str:
    """What the construct costs, in words, with lane counts when the sub-group size is known."""
    width = f"{sub_group} lanes" if sub_group else "the sub-group's lanes (8 to 32 on GPUs)"
    arms = [a for a in branch.arms if a.statements]
    if klass == "serial-leader":
        share = (
            (f"1 of {sub_group} lanes" if sub_group else "1 lane")
            if branch.lanes and branch.lanes.kind == "single"
            else f"a few of {width}"
        )
        arm = branch.arms[0]
        if arm.over_group:
            return f"a loop over the work-group ({statements(arm)}) run by {share}"
        if arm.loop_trips:
            return f"a loop of {arm.loop_trips} iterations ({statements(arm)}) run by {share}"
        return f"about {statements(arm)} run by {share}"
    if klass == "divergent-loop":
        body = f" (body: {statements(branch.arms[0])})" if branch.arms else ""
        return f"each sub-group iterates as long as its longest lane{body}"
    if klass == "inherent":
        if branch.kind == "loop":
            return "each lane runs the trip count its own data gives, the algorithm's own divergence"
        if branch.reason == "loop-bound":
            return "one lane leaves per step, the triangle the algorithm works through"
        if branch.steers_loop:
            return "lanes finish at different steps, inherent to a data-driven search or walk"
        return f"{_arm_words(branch)} chosen by each lane's own data, the algorithm's own divergence"
    if klass in ("tree-reduction", "tree-scan"):
        steps = f"{sub_group.bit_length() - 1} " if sub_group else ""
        if branch.lanes is not None and branch.lanes.kind == "growing":
            return f"the first {steps}steps run within one sub-group, on more and more of its lanes"
        return f"the last {steps}steps run within one sub-group, on fewer and fewer of its lanes"
    if klass == "heavy-arms":
        if len(arms) >= 2:
            counts = " and ".join(statements(a) for a in arms[:3]) + (", …" if len(arms) > 3 else "")
            return f"{'both' if len(arms) == 2 else len(arms)} arms, {counts}, run one after the other"
        lone = arms[0] if arms else branch.arms[0]
        active = _active(branch, sub_group)
        return (
            f"{statements(lone)} run by {active}"
            if active
            else f"{statements(lone)} run while the lanes that skip them wait"
        )
    if klass == "cheap-arms" and branch.exit is not None and not any(a.statements for a in branch.arms):
        return f"a lone `{branch.exit}`: the lanes that take it idle until the others catch up"
    if klass == "cheap-arms":
        counts = " and ".join(str(a.statements) for a in branch.arms) or "few"
        active = _active(branch, sub_group)
        return f"{counts} statement{'s' if counts != '1' else ''}, short enough to predicate" + (
            f" ({active} take the guarded path)" if active else ""
        )
    return (
        branch.lanes.describe(sub_group)
        if branch.lanes is not None
        else "only the sub-group that straddles the bound runs partly filled"
    )


def _arm_words(branch: Branch) -> str:
    """`both arms, 12 and 9 statements,` or `14 statements` for an inherent branch's paths."""
    arms = [a for a in branch.arms if a.statements]
    if len(arms) >= 2:
        return f"paths of {' and '.join(str(a.statements) for a in arms[:3])} statements"
    return statements(arms[0] if arms else branch.arms[0]) if branch.arms else "paths"


def _active(branch: Branch, sub_group: int | None) -> str | None:
    """`8 of 16 lanes` when the share of lanes on the guarded path and the sub-group size are known."""
    taken = branch.lanes.taken if branch.lanes is not None else None
    if taken is None or not sub_group:
        return None
    return f"{max(1, round(sub_group * taken))} of {sub_group} lanes"


def _serial(arm: ArmCost) -> bool:
    return bool(arm.loops) or arm.statements + arm.calls >= SERIAL_WORK


def heavy(arms: tuple[ArmCost, ...]) -> bool:
    """Arms heavy enough that the compiler branches over them rather than predicating them."""
    return _heavy(arms)


def _heavy(arms: tuple[ArmCost, ...]) -> bool:
    weights = [a.statements + a.calls for a in arms]
    return any(a.loops for a in arms) or max(weights, default=0) >= HEAVY_ARM or sum(weights) >= HEAVY_ARM + 4


def scan_pairs(
    branches: Iterable[Branch], classes: dict[Span, str], same_code: Callable[[Branch, Branch], bool]
) -> None:
    """Re-class as `tree-scan` the two sweeps of a work-efficient scan: a combining step under a doubling
    bound (`if (lid < d)`, `d *= 2`) and a combining tree-reduction step before it in the same code
    (`same_code`). The halving loop is then an up-sweep whose partial sums the down-sweep reads, so a
    reduction would not replace it; a group scan replaces the pair. A doubling step alone (a broadcast
    tree) keeps the class its arms give."""
    listed = [b for b in branches if b.combines and b.span in classes]
    ups = [b for b in listed if classes[b.span] == "tree-reduction"]
    downs = [
        b
        for b in listed
        if b.lanes is not None and b.lanes.kind == "growing" and b.reason == "loop-bound" and b.kind != "loop"
    ]
    for down in downs:
        paired = [up for up in ups if up.span.end_byte < down.span.start_byte and same_code(up, down)]
        if paired:
            classes[down.span] = "tree-scan"
            for up in paired:
                classes[up.span] = "tree-scan"
