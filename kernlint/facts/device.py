"""Facts about device code: divergent branches and sub-group block accesses.

Owned by the device-code analysis of the C++ front-end (`kernlint.frontends.cpp`; the OpenMP layer builds
`Branch` facts for offload regions too, from C and Fortran). A `Branch` is a conditional in device code whose condition
depends on the work-item id, graded by how it splits a sub-group's lanes (`kernlint.analysis.dependence`
decides). Uniform conditions (group ids, kernel arguments, constants) produce no fact at all.
"""

from __future__ import annotations

from kernlint.facts.base import Span
from kernlint.facts.kinds import BlockDirection, BranchExit, BranchKind, BranchReason, Dependence, IdScope, LaneKind
from kernlint.records import record


@record(slots=True)
class LaneEstimate:
    """How many lanes of a diverging sub-group stay busy under a condition.

    kind:
      split        both paths run, each at `taken` of the width (parity: half and half)
      fraction     `taken` of the lanes run the guarded code, the rest idle (`i % 4 == 0`: a quarter)
      single       one lane runs the guarded code (`lid == 0`)
      all-but-one  every lane but one runs it (`lid != 0`)
      shrinking    the active lanes halve from step to step (`lid < s`, `s` halved in a loop)
      growing      the active lanes double from step to step (`lid < d`, `d` doubled in a loop)
      staggered    the lanes leave a loop one step apart (`for (k = 0; k <= lid; ++k)`)
      edge         only the sub-group that straddles a bound runs partly filled (`i < n`)
    `taken` is the fraction of lanes on the guarded path when it is known without the sub-group size.
    """

    kind: LaneKind
    taken: float | None = None

    def describe(self, sub_group_size: int | None = None) -> str:
        """The estimate in words, with lane counts when the sub-group size is known."""
        n = sub_group_size
        if self.kind == "split":
            if self.taken is None:
                return "both paths run one after the other, each with only part of the sub-group's lanes active"
            if n:
                return f"both paths run one after the other, each with {round(n * self.taken)} of {n} lanes active"
            return f"both paths run one after the other, each at {self.taken:.0%} of the sub-group's width"
        if self.kind == "fraction" and self.taken is not None:
            if n:
                return f"about {max(1, round(n * self.taken))} of {n} lanes run the guarded code while the rest idle"
            return f"about {self.taken:.0%} of a sub-group's lanes run the guarded code while the rest idle"
        if self.kind == "single":
            return (
                f"1 of {n} lanes runs the guarded code while {n - 1} idle"
                if n
                else "1 lane of the sub-group runs the guarded code while all the others idle"
            )
        if self.kind == "all-but-one":
            return f"{n - 1} of {n} lanes run the guarded code" if n else "all lanes but one run the guarded code"
        if self.kind == "shrinking":
            if n:
                return (
                    f"the active lanes shrink from step to step: once the bound falls below {n}, "
                    f"a sub-group runs with fewer than {n} lanes, down to 1"
                )
            return (
                "the active lanes shrink from step to step: once the bound falls below the sub-group size, "
                "sub-groups run partly empty, down to 1 active lane"
            )
        if self.kind == "growing":
            if n:
                return (
                    f"the active lanes grow from step to step: until the bound reaches {n}, "
                    f"a sub-group runs with fewer than {n} lanes, from 1 up"
                )
            return (
                "the active lanes grow from step to step: until the bound reaches the sub-group size, "
                "sub-groups run partly empty, from 1 active lane up"
            )
        if self.kind == "staggered":
            return "the lanes leave one iteration apart, so each sub-group runs as long as its last lane"
        if self.kind == "edge":
            return "only the sub-group that straddles the bound runs partly filled"
        return "the lanes of a sub-group take different paths"


@record(slots=True)
class ArmCost:
    """What one arm of a divergent construct costs, counted on the tree: what KL501 ranks by.

    `target` and `value` are set when the arm is exactly one plain assignment (`x = v`, as written)
    whose value has no side effect: the shape a select, `min` or `max` can replace."""

    statements: int = 0  # statements, nested ones included (a loop counts once, its body too)
    loops: int = 0
    calls: int = 0  # calls into device functions or unknown code (math builtins are not counted)
    exits: bool = False  # a `break` or `return` leaves the loop or function from this arm
    target: str | None = None
    value: str | None = None
    # With `target`: the types the target and the value are declared with (a literal's, a cast's), when
    # the file shows them (None: unknown), and whether the target is a private local of the code there
    # (by value, not static, declared in the same function or lambda with no OpenMP construct between):
    # what tells whether a rewrite is the same program.
    target_type: str | None = None
    value_type: str | None = None
    target_private: bool = False
    loop_trips: int | None = None  # the most iterations one of its loops runs, when the bounds are constants
    over_group: bool = False  # one of its loops runs over the work-group (bounded by its size: `get_local_range`)


@record(slots=True)
class Reach:
    """Device code that runs only under a branch: one of the branch's own regions, or the body of a
    device function called (possibly through others) from inside the branch."""

    region: Span
    calls: tuple[Span, ...] = ()  # the call sites leading there, outermost first; () for own code
    function: str | None = None  # the called function whose body `region` is


@record(slots=True)
class Branch:
    """A conditional in device code whose condition depends on the work-item id; `reason` says why it
    diverges (the words are explained at `kernlint.facts.kinds.BranchReason`)."""

    span: Span  # the whole statement or expression
    condition: Span
    kind: BranchKind
    dependence: Dependence
    reason: BranchReason
    regions: tuple[Span, ...] = ()  # the code that runs under the condition
    lanes: LaneEstimate | None = None
    origin: str | None = None  # the id source (or id-indexed load) the condition depends on, as written
    reaches: tuple[Reach, ...] = ()  # `regions` plus the bodies of device functions called from them
    exit: BranchExit | None = None  # the guarded code jumps out early
    skipped: tuple[Reach, ...] = ()  # with `exit`: the code the jump skips (rest of the function, the loop)
    head: Span | None = None  # else-if: the `if` statement that starts the chain
    select_like: bool = False  # a ?: whose arms are plain values: compiled to a select, no branch
    function: str | None = None  # the device function it is in, when not in a kernel body
    arms: tuple[ArmCost, ...] = ()  # what each guarded path costs (a loop: its body); () when not counted
    steers_loop: bool = False  # it decides when a loop around it (or itself) stops: a search or walk
    rewritable: bool = False  # the statement holds only code (no comments, no preprocessor lines)
    # A condition that is one strict comparison, `left < right` or `left > right` (operands as written,
    # spaces folded, with no comparison or logical operator inside): the shape `min` and `max` replace.
    comparison: tuple[str, str, str] | None = None
    # A test of the plain work-item id (no arithmetic on it): which id (global | local | lane) and, when
    # it is compared with a known constant, the bound `id < bound` that splits the ids, so a rule can
    # tell whether a group holds ids on both sides (`lid < 50` in a work-group of 64 always does).
    id_scope: IdScope | None = None
    bound: int | None = None
    loop: Span | None = None  # the innermost loop around it in the same function (a tree's step loop)
    # the guarded code combines array elements (`s[lid] += s[lid + d]`): a reduction or scan step; for a
    # loop, its body accumulates into a scalar (`sum += a[k]`): a prefix when the trip count follows the id
    combines: bool = False


@record(slots=True)
class SubGroupBlockAccess:
    """A sub-group block load/store (`sg.load`, `group_load` on a sub-group, intel builtins)."""

    span: Span
    form: str  # as written, e.g. "sg.load<4>", "group_load", "intel_sub_group_block_read"
    direction: BlockDirection = "load"
    function: str | None = None  # the device function it is in, when not in a kernel body
