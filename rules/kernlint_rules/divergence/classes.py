"""What a divergent construct costs and whether it can be changed: the class KL501 grades by.

The dependence analysis says *that* lanes disagree (`Branch.dependence`, `Branch.reason`); this module
says what the disagreement costs, from the statement counts of the arms (`Branch.arms`), and names the
class a developer can act on:

  divergent-loop   the trip count varies across the lanes of a sub-group
  serial-leader    a loop or heavy block run by one lane (`if (lid == 0) { for … }`)
  heavy-arms       one arm with real work, or both arms, run one after the other
  cheap-arms       arms of a statement or two: predicated or if-converted, a select at most
  data-search      a search or walk steered by data loaded at the lane's index: inherent to the algorithm
  boundary         a tail guard, halo, leader with trivial work or stride tail (graded by meaning upstream)

Only the first three cost enough, and can be changed, to be warnings.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernlint.facts.device import ArmCost, Branch

HEAVY_ARM = 6  # statements (and calls) in one arm from which divergence costs more than predication would
SERIAL_WORK = 10  # straight-line statements under a leader test from which the other lanes' idling matters
WALK_BODY = 8  # statements in a search loop's body from which it is heavy, search or not
COSTLY = frozenset({"divergent-loop", "serial-leader", "heavy-arms"})


@dataclass(frozen=True, slots=True)
class Rewrite:
    """A replacement for the whole construct: `text` as C/C++ source, `safe` when provably equivalent."""

    text: str
    safe: bool
    description: str


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
    if branch.kind == "loop":
        body = branch.arms[0] if branch.arms else None
        light = body is not None and not body.loops and not body.calls and body.statements < WALK_BODY
        searching = branch.reason in ("data", "arithmetic") and branch.steers_loop  # `while (lo < hi)` bisection
        return "data-search" if searching and light else "divergent-loop"
    if _heavy(branch.arms):
        return "heavy-arms"
    if branch.reason == "data" and branch.steers_loop:
        return "data-search"
    return "cheap-arms"


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
        return f"about {statements(branch.arms[0])} run by {share}"
    if klass == "divergent-loop":
        body = f" (body: {statements(branch.arms[0])})" if branch.arms else ""
        return f"each sub-group iterates as long as its longest lane{body}"
    if klass == "data-search":
        return "lanes finish at different steps, inherent to a data-driven search or walk"
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


def _active(branch: Branch, sub_group: int | None) -> str | None:
    """`8 of 16 lanes` when the share of lanes on the guarded path and the sub-group size are known."""
    taken = branch.lanes.taken if branch.lanes is not None else None
    if taken is None or not sub_group:
        return None
    return f"{max(1, round(sub_group * taken))} of {sub_group} lanes"


def rewrite(branch: Branch, condition: str, chooser: str) -> Rewrite | None:
    """A select or min/max replacing an `if` whose arms each assign one variable, or None.

    `chooser` is `ternary` (C: `x = c ? a : b;`) or `std` (C++: `std::min` / `std::max` where the
    condition compares the two values). A one-armed `if (v > m) m = v;` is `m = std::max(m, v);`
    exactly (std::max returns its second argument only when the first is less), so it is safe; other
    shapes may change the type the value is converted through, and are offered as unsafe fixes.
    """
    if branch.kind != "if" or not branch.rewritable or not branch.arms or len(branch.arms) > 2:
        return None
    targets = {a.target for a in branch.arms}
    if len(targets) != 1 or None in targets or any(a.value is None for a in branch.arms):
        return None
    target = branch.arms[0].target
    then = branch.arms[0].value
    other = branch.arms[1].value if len(branch.arms) == 2 else target
    assert target is not None and then is not None and other is not None
    if chooser == "std" and len(branch.arms) == 1:
        pick = _min_max(branch.comparison, target, then)
        if pick is not None:  # a literal may differ in type from the variable (std::min(float, int))
            return Rewrite(
                f"{target} = std::{pick}({target}, {then});",
                branch.arms[0].literal is None,
                f"replace the branch by std::{pick}",
            )
    # both int literals: no conversion through another type (a one-armed `if` keeps the variable itself)
    both_literal = len(branch.arms) == 2 and all(a.literal == "int" for a in branch.arms)
    return Rewrite(
        f"{target} = ({condition}) ? {then} : {other};",
        both_literal,
        "replace the branch by a select (check that both values have the variable's type)",
    )


def _min_max(comparison: tuple[str, str, str] | None, target: str, value: str) -> str | None:
    """`max` for `if (v > m) m = v;` / `if (m < v) m = v;`, `min` for the mirrored tests (strict only:
    with `>=` equal values and NaN pick differently)."""
    if comparison is None:
        return None
    left, operator, right = comparison
    target, value = " ".join(target.split()), " ".join(value.split())
    if (left, right) == (value, target):
        return "max" if operator == ">" else "min"
    if (left, right) == (target, value):
        return "max" if operator == "<" else "min"
    return None


def _serial(arm: ArmCost) -> bool:
    return bool(arm.loops) or arm.statements + arm.calls >= SERIAL_WORK


def _heavy(arms: tuple[ArmCost, ...]) -> bool:
    weights = [a.statements + a.calls for a in arms]
    return any(a.loops for a in arms) or max(weights, default=0) >= HEAVY_ARM or sum(weights) >= HEAVY_ARM + 4
