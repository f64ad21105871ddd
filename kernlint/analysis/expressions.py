"""The expression language of the work-item dependence analysis, and what it computes about a value.

A front-end lowers device code into these expressions (`kernlint.analysis.dependence` describes how);
`Taint` says how a value differs between the work-items of a group, `Grade` how a condition splits
the lanes of a sub-group. Three levels of uniformity: no taint (the same in the whole work-group), a
`sub-group` taint (the same in every lane of a sub-group, different between sub-groups: sub-group
ids, `lid / 32`, sub-group collectives), and the per-lane kinds (id, flag, mixed, data).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator

from kernlint.analysis.names import Name
from kernlint.facts.device import LaneEstimate
from kernlint.facts.kinds import BranchReason, Dependence
from kernlint.records import record

# -- expressions ----------------------------------------------------------------------------------


@record(slots=True)
class Const:
    """A literal or compile-time constant; `value` is None when constant but not evaluated."""

    value: int | float | None = None


@record(slots=True)
class Var:
    """A read of a named variable or parameter (a name no unit assigns is uniform)."""

    name: Name


@record(slots=True)
class Seed:
    """A work-item id source. `scope`: global | local | lane (sub-group local id); `text` as written.
    `shared`: an id of a slower dimension of a multi-dimensional range (`item.get_local_id(0)` of an
    `nd_item<2>`), which the lanes of one row, and so of a sub-group, hold in common."""

    scope: str
    text: str
    shared: bool = False


@record(slots=True)
class Uniform:
    """An opaque value that is the same in every work-item (group id, range, group collective).
    `sub_group_size`: the sub-group's size (`sg.get_max_local_range()`), which ids divide into the
    sub-group's number (`gid / sg_size`, the warp-per-item index)."""

    text: str = ""
    sub_group_size: bool = False


@record(slots=True)
class SubGroupUniform:
    """An opaque value that is the same in every lane of a sub-group but may differ between the
    sub-groups of a work-group (a sub-group id, a sub-group collective's result). `straddle`: the same
    along each row of a nest whose row length is not known to be a multiple of the sub-group size (an
    outer index of an OpenMP `collapse`), so a sub-group that straddles two rows holds two values."""

    text: str = ""
    straddle: bool = False


@record(slots=True)
class Broadcast:
    """One work-item's `value` handed to every member of a group (`select_from_group(sg, x, k)`,
    `group_broadcast(g, x, k)`): the same for all when `index` is, per `scope` ("sub-group" or
    "work-group"); `index` None means the group's first member."""

    value: Expr
    index: Expr | None
    scope: str


@record(slots=True)
class Phi:
    """A read of a variable where several of its definitions reach: as dependent as the most
    dependent of them (each option is usually a `Var` naming one definition)."""

    options: tuple[Expr, ...]


@record(slots=True)
class Varying:
    """An opaque value that differs per work-item without being an id (atomic fetch, block load)."""

    text: str = ""


@record(slots=True)
class Load:
    """A memory read `base[index]` (`index` None for `*base`): dependent when either part is."""

    base: Expr
    index: Expr | None = None


@record(slots=True)
class Component:
    """A component of a small value such as an id (`gid[0]`): as dependent as the value itself."""

    base: Expr
    index: Expr | None = None


@record(slots=True)
class Unary:
    op: str  # - + ! ~
    operand: Expr


@record(slots=True)
class Binary:
    op: str  # + - * / % & | ^ << >> < <= > >= == != && ||
    left: Expr
    right: Expr


@record(slots=True)
class Select:
    """`cond ? then : other`."""

    cond: Expr
    then: Expr
    other: Expr


@record(slots=True)
class Call:
    """A call. With `unit` set its value is that unit's return value; otherwise it is as dependent as
    its arguments (`monotone`: min/max-like, keeps an id an id; otherwise an id becomes arithmetic)."""

    name: str
    args: tuple[Expr, ...] = ()
    unit: Hashable | None = None
    monotone: bool = False


Expr = (
    Const
    | Var
    | Seed
    | Uniform
    | SubGroupUniform
    | Broadcast
    | Phi
    | Varying
    | Load
    | Component
    | Unary
    | Binary
    | Select
    | Call
)

SUB_GROUP_MAX = 32  # the widest sub-group of any supported device
COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
LOGICAL = frozenset({"&&", "||"})
MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def sub_expressions(expressions: Iterable[Expr | None]) -> Iterator[Expr]:
    """Every node of the expression trees, each tree walked once (iteratively: no recursion limit)."""
    stack = list(expressions)
    while stack:
        node = stack.pop()
        if node is None:
            continue
        yield node
        if isinstance(node, (Load, Component)):
            stack += [node.base, node.index]
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack += [node.left, node.right]
        elif isinstance(node, Select):
            stack += [node.cond, node.then, node.other]
        elif isinstance(node, Call):
            stack += list(node.args)
        elif isinstance(node, Phi):
            stack += list(node.options)
        elif isinstance(node, Broadcast):
            stack += [node.value, node.index]


def names_in(expr: Expr | None) -> set[Name]:
    """Every variable name an expression reads."""
    return {node.name for node in sub_expressions((expr,)) if isinstance(node, Var)}


# -- taints and grades -----------------------------------------------------------------------


@record(slots=True)
class Grade:
    """How a condition diverges: `dependence` strong | boundary | sub-group (the same in each sub-group,
    different between them: no lane of a sub-group diverges, but the sub-groups of a work-group do),
    a `reason` (see `Branch.reason`), the lanes it leaves active and the id source it depends on."""

    dependence: Dependence
    reason: BranchReason
    lanes: LaneEstimate | None
    origin: str
    # For a comparison of the plain id (no arithmetic) with a constant: the id's scope (global | local |
    # lane) and the bound, as `id < bound` splits the ids (`lid <= 49` and `lid > 49` have bound 50).
    id_scope: str | None = None
    bound: int | None = None

    @property
    def strong(self) -> bool:
        return self.dependence == "strong"


@record(slots=True)
class Taint:
    """How a value depends on the work-item id.

    kind: sub-group  the same in every lane of a sub-group, different between sub-groups
          id    a monotone function of an id (`gid`, `base + lid`, `row * w + col`)
          flag  a truth value of a dependent condition (`bool ok = i < n;`, or set under one)
          mixed non-monotone arithmetic of an id (`i % 2`, `i & 1`, `i * i`, unknown calls)
          data  a value loaded with an id-derived index, or otherwise varying per work-item
    """

    kind: str
    origin: str
    grade: Grade | None = None  # for flags: the grade of the condition they encode
    lane: bool = False  # for ids: the sub-group lane id itself (up to constant arithmetic), which
    # every sub-group spans in full, so any bound inside it splits every sub-group
    clamped: bool = False  # for ids: clamped by a uniform bound (`min(n - i, K)`), so the same in every
    # lane but those near the bound
    shared: bool = False  # for ids: several lanes of a sub-group may hold the same value (`lid / 4`,
    # a slower dimension's id), so `== c` selects a band of lanes, not one lane
    straddle: bool = False  # for sub-group values: the same along a row, and a sub-group may straddle two
    # an id shifted right by an amount kernlint cannot evaluate (`tid >> LG`), or computed from such
    # values alone: the lanes share it in blocks that may hold whole sub-groups, so no split is proven
    unknown_block: bool = False


_RANK = {"sub-group": 0, "id": 1, "flag": 2, "mixed": 3, "data": 4}


def retaint(taint: Taint, *, shared: bool | None = None, unknown_block: bool | None = None) -> Taint:
    """`taint` with `shared` and/or `unknown_block` changed: `dataclasses.replace` without its
    per-call field introspection (the solver makes thousands of these)."""
    return Taint(
        taint.kind,
        taint.origin,
        taint.grade,
        taint.lane,
        taint.clamped,
        taint.shared if shared is None else shared,
        taint.straddle,
        taint.unknown_block if unknown_block is None else unknown_block,
    )


def join(*taints: Taint | None) -> Taint | None:
    """The least upper bound: the strongest kind wins; flags keep their strongest grade."""
    if len(taints) == 2:  # the common case, answered without the loop when one side is missing
        first, second = taints
        if second is None and (first is None or not first.unknown_block):
            return first
        if first is None and not second.unknown_block:  # type: ignore[union-attr]
            return second
    best: Taint | None = None
    for taint in taints:
        if taint is None:
            continue
        if best is None or _RANK[taint.kind] > _RANK[best.kind]:
            best = taint
        elif taint.kind == "id" == best.kind and best.lane and not taint.lane:
            best = taint  # the lane id, or something wider: not the lane id
        elif taint.kind == "sub-group" == best.kind and taint.straddle and not best.straddle:
            best = taint  # the same along rows a sub-group may straddle: not the same in every sub-group
        elif (
            taint.kind == "flag" == best.kind
            and taint.grade
            and best.grade
            and strongest(best.grade, taint.grade) is taint.grade is not best.grade
        ):
            best = taint
    if best is not None and best.unknown_block and not unknown_block(*taints):
        return retaint(best, unknown_block=False)  # another part surely differs between the lanes
    return best


def unknown_block(*taints: Taint | None) -> bool:
    """Whether every part that differs within a sub-group is an id shifted right by an amount
    kernlint cannot evaluate (see `Taint.unknown_block`)."""
    varying = [t for t in taints if t is not None and t.kind != "sub-group"]
    return bool(varying) and all(t.unknown_block for t in varying)


def strongest(*grades: Grade | None) -> Grade | None:
    """The grade that splits the most: strong, then boundary, then sub-group (the first of equals)."""
    present = [g for g in grades if g is not None]
    if not present:
        return None
    order = {"strong": 0, "boundary": 1, "sub-group": 2}
    return min(present, key=lambda g: order.get(g.dependence, 1))


def unproven(grade: Grade | None, *taints: Taint | None) -> Grade | None:
    """A grade whose dependent parts are all blocks of unknown size (`(tid >> LG) & 1`): the blocks
    may hold whole sub-groups, so it is `unknown-block`, not a proven split (and a flag set under it
    stays a value of such blocks)."""
    if grade is None or grade.dependence == "sub-group" or not unknown_block(*taints):
        return grade
    return Grade("boundary", "unknown-block", None, grade.origin)


def flag_of(grade: Grade | None) -> Taint | None:
    """The truth value of a dependent condition, as a taint."""
    if grade is None:
        return None
    return Taint("flag", grade.origin, grade, unknown_block=grade.reason == "unknown-block")
