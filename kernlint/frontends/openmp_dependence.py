"""Divergent branches in OpenMP device code, for C/C++ and Fortran alike: the OpenMP side of KL501.

The front-ends describe the code of each device parallel region as neutral statements (assignments
to scalars and conditionals, with the conditionals that guard them); this module lowers them into the
shared work-item dependence analysis (`kernlint.analysis.dependence`) and turns the dependent
conditions into `Branch` facts, which KL501 reports without knowing the language.

What varies between the work-items (lanes) of an OpenMP region:
* the index of a loop shared out by a worksharing construct (`parallel for`, `parallel do`, `loop`,
  combined with `target teams distribute`): each work-item runs its own iterations;
* `omp_get_thread_num()` inside a parallel region;
* in the OpenMP SIMD model (the parallel loop steps by the width V of a `simd simdlen(V)` loop inside
  it), the index of the `simd` loop is the lane, and the parallel index is the same for all lanes.
The index of an inner sequential loop is uniform (every work-item runs the same iterations), unless
its bounds come from an id; team ids and counts are uniform.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from kernlint.analysis import dependence as dep
from kernlint.facts import Span
from kernlint.facts.device import Branch, Reach
from kernlint.facts.openmp import OmpConstruct, OmpLoop
from kernlint.frontends import openmp_expr as ex

_WORKSHARING = frozenset({"for", "do", "loop"})
_THREAD_SEEDS = frozenset({"omp_get_thread_num"})
_UNIFORM_CALLS = frozenset({"omp_get_team_num", "omp_get_num_teams", "omp_get_num_threads",
                            "omp_get_team_size", "omp_get_max_threads", "omp_get_level", "omp_is_initial_device"})
_MONOTONE = frozenset({"min", "max", "fmin", "fmax", "floor", "ceil", "int", "nint", "real", "dble"})


@dataclass(frozen=True)
class RawAssign:
    """`name = value` (`compound`: `name op= value`, `name++`; value None when it adds no new source)."""

    name: str
    value: str | None
    span: Span
    guards: tuple[Span, ...] = ()
    compound: bool = False


@dataclass(frozen=True)
class RawBranch:
    """A conditional: `span` the statement, `condition` its test (text as written), `regions` the
    code it guards, `guards` the conditionals around it (their spans), `varying` names that change
    from one iteration of the loops around it to the next (for a loop, its own included)."""

    span: Span
    condition: Span
    text: str
    kind: str  # if | else-if | switch | loop | ternary
    regions: tuple[Span, ...] = ()
    guards: tuple[Span, ...] = ()
    varying: tuple[str, ...] = ()
    head: Span | None = None
    select_like: bool = False


class DeviceSource(Protocol):
    fortran: bool

    def device_code(self, region: Span) -> list[RawAssign | RawBranch]:
        """The assignments and conditionals inside `region`, in source order."""

    def is_array(self, name: str, at_byte: int) -> bool:
        """Whether `name` is declared as an array (Fortran `a(i)` is then a load, not a call)."""


def openmp_branches(constructs: tuple[OmpConstruct, ...], source: DeviceSource) -> tuple[Branch, ...]:
    """`Branch` facts for the id-dependent conditions of every device parallel region."""
    regions = _parallel_regions(constructs)
    if not regions:
        return ()
    program = dep.Program()
    pending: list[tuple[Span, RawBranch]] = []
    for construct in regions:
        assert construct.region is not None
        unit = program.unit(construct.region)
        lanes = _simd_lanes(construct, constructs)
        for loop in construct.loops:
            if loop.index is None:
                continue
            if lanes is not None and loop.role in ("simd", "parallel-simd") and loop.index in lanes:
                unit.assign(loop.index, dep.Seed("lane", loop.index))
            elif lanes is None and _shared_out(loop, constructs):
                unit.assign(loop.index, dep.Seed("global", loop.index))
        lower = _Lowering(source, unit, construct.region.start_byte)
        skip = {loop.span for loop in construct.loops if loop.role != "sequential"}
        for statement in source.device_code(construct.region):
            if isinstance(statement, RawAssign):
                value = lower.expr(statement.value, statement.span.start_byte) if statement.value else dep.Const()
                unit.assign(statement.name, value, statement.guards, statement.compound)
            elif statement.span not in skip:
                expr = lower.expr(statement.text, statement.condition.start_byte)
                unit.condition(statement.span, expr, statement.guards, statement.varying,
                               "loop" if statement.kind == "loop" else "if")
                pending.append((construct.region, statement))
    program.solve()
    branches = []
    for unit_key, raw in pending:
        grade = program.grade(unit_key, raw.span)
        if grade is None:
            continue
        branches.append(Branch(
            span=raw.span, condition=raw.condition, kind=raw.kind, dependence=grade.dependence,
            reason=grade.reason, regions=raw.regions, lanes=grade.lanes, origin=grade.origin,
            reaches=tuple(Reach(r) for r in raw.regions), head=raw.head, select_like=raw.select_like,
        ))
    return tuple(branches)


def _parallel_regions(constructs: tuple[OmpConstruct, ...]) -> list[OmpConstruct]:
    """The outermost device constructs that start parallel execution (nested ones are inside them)."""
    candidates = [c for c in constructs if c.region is not None and c.device
                  and set(c.leaves) & (_WORKSHARING | {"parallel"})]
    candidates.sort(key=lambda c: (c.region.start_byte, -c.region.end_byte))  # type: ignore[union-attr]
    chosen: list[OmpConstruct] = []
    for construct in candidates:
        if not any(outer.region.contains(construct.region) for outer in chosen):  # type: ignore[union-attr]
            chosen.append(construct)
    return chosen


def _shared_out(loop: OmpLoop, constructs: tuple[OmpConstruct, ...]) -> bool:
    """Whether a worksharing construct (not a bare `distribute`) applies to this loop: it is the
    construct's loop, or one collapsed into it."""
    for construct in constructs:
        owned = construct.loop
        if owned is None or not set(construct.leaves) & _WORKSHARING:
            continue
        if owned.span == loop.span or (loop.role in ("parallel", "parallel-simd") and owned.span.contains(loop.span)):
            return True
    return False


def _simd_lanes(construct: OmpConstruct, constructs: tuple[OmpConstruct, ...]) -> set[str] | None:
    """With the SIMD programming model (the parallel loop steps by an inner simdlen), the simd loops'
    indices, which are the lanes; None otherwise."""
    steps = {l.step_value for l in construct.loops if l.role in ("parallel", "parallel-simd")}
    lanes: set[str] = set()
    for inner in constructs:
        if "simd" in inner.leaves and not set(inner.leaves) & _WORKSHARING and construct.encloses(inner.span) \
                and inner.loop is not None and inner.loop.index and inner.value("simdlen") in steps:
            lanes.add(inner.loop.index)
    return lanes or None


class _Lowering:
    """From the OpenMP expression tree to the dependence analysis' expressions."""

    def __init__(self, source: DeviceSource, unit: dep.Unit, at: int) -> None:
        self.source = source
        self.fortran = source.fortran
        self.unit = unit
        self.at = at

    def expr(self, text: str, at: int) -> dep.Expr:
        return self.convert(ex.parse(text, fortran=self.fortran), at)

    def convert(self, node: ex.Expr, at: int) -> dep.Expr:
        convert: Callable[[ex.Expr], dep.Expr] = lambda n: self.convert(n, at)  # noqa: E731
        if isinstance(node, ex.Num):
            return dep.Const(node.value)
        if isinstance(node, ex.Name):
            return dep.Var(node.name)
        if isinstance(node, ex.Unary):
            if node.op in ("-", "+", "!", "~"):
                return dep.Unary(node.op, convert(node.operand))
            if node.op == "*":
                return dep.Load(convert(node.operand))
            return convert(node.operand)  # ++x, x++: the value of x
        if isinstance(node, ex.Binary):
            if node.op == "**":
                return dep.Call("**", (convert(node.left), convert(node.right)))
            return dep.Binary(node.op, convert(node.left), convert(node.right))
        if isinstance(node, ex.Subscript):
            return dep.Load(convert(node.base), convert(node.index))
        if isinstance(node, ex.Call):
            name = node.name.lower() if self.fortran else node.name
            if name in _THREAD_SEEDS:
                return dep.Seed("local", f"{node.name}()")
            if name in _UNIFORM_CALLS:
                return dep.Uniform(f"{node.name}()")
            args = tuple(convert(a) for a in node.args)
            if self.fortran and self.source.is_array(name, at):
                return dep.Load(dep.Var(name), args[0] if len(args) == 1 else
                                (dep.Call("index", args) if args else None))
            return dep.Call(name, args, monotone=name in _MONOTONE)
        return dep.Uniform(getattr(node, "text", ""))  # unreadable: never guessed dependent
