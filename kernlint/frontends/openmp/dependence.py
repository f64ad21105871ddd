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
from kernlint.facts.openmp import OmpConstruct
from kernlint.frontends.openmp import expr as ex

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

    def scope(self, at_byte: int) -> ex.Scope:
        """Constants and substitutable local definitions at `at_byte`."""


def openmp_branches(constructs: tuple[OmpConstruct, ...], source: DeviceSource) -> tuple[Branch, ...]:
    """`Branch` facts for the id-dependent conditions of every device parallel region."""
    regions = _parallel_regions(constructs)
    if not regions:
        return ()
    program = dep.Program()
    shared = _shared_out_loops(constructs)
    simd_loops = [c for c in constructs if "simd" in c.leaves and not set(c.leaves) & _WORKSHARING
                  and c.loop is not None and c.loop.index]
    pending: list[tuple[Span, RawBranch]] = []
    for construct in regions:
        assert construct.region is not None
        unit = program.unit(construct.region)
        lanes = _simd_lanes(construct, simd_loops)
        for loop in construct.loops:
            if loop.index is None:
                continue
            if lanes is not None and loop.role in ("simd", "parallel-simd") and loop.index in lanes:
                unit.assign(loop.index, dep.Seed("lane", loop.index))
            elif lanes is None and loop.span in shared:
                unit.assign(loop.index, dep.Seed("global", loop.index))
        statements = source.device_code(construct.region)
        seeded = {loop.index: loop.step_value for loop in construct.loops if loop.index and
                  lanes is None and loop.span in shared}
        assigned = {s.name for s in statements if isinstance(s, RawAssign)}
        uniform = {loop.index for loop in construct.loops if loop.index and loop.role == "sequential"
                   and loop.low is not None and not loop.low.names & (set(seeded) | assigned)}
        read = _all_names(statements, source.fortran)
        lower = _Lowering(source, unit, seeded, uniform | {n for n in read if n not in assigned})
        skip = {loop.span for loop in construct.loops if loop.role != "sequential"}
        for statement in statements:
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


def _shared_out_loops(constructs: tuple[OmpConstruct, ...]) -> set[Span]:
    """The loops a worksharing construct (not a bare `distribute`) applies to: each construct's own
    loop and the loops collapsed into it."""
    found: set[Span] = set()
    for construct in constructs:
        owned = construct.loop
        if owned is None or not set(construct.leaves) & _WORKSHARING:
            continue
        found.add(owned.span)
        found |= {l.span for l in construct.loops
                  if l.role in ("parallel", "parallel-simd") and owned.span.contains(l.span)}
    return found


def _simd_lanes(construct: OmpConstruct, simd_loops: list[OmpConstruct]) -> set[str] | None:
    """With the SIMD programming model (the parallel loop steps by an inner simdlen), the simd loops'
    indices, which are the lanes; None otherwise."""
    steps = {l.step_value for l in construct.loops if l.role in ("parallel", "parallel-simd")}
    lanes = {inner.loop.index for inner in simd_loops  # type: ignore[union-attr]
             if construct.encloses(inner.span) and inner.value("simdlen") in steps}
    return lanes or None  # type: ignore[return-value]


def _all_names(statements: list[RawAssign | RawBranch], fortran: bool) -> set[str]:
    """Every name the statements read (to tell region-local values from uniform inputs)."""
    names: set[str] = set()
    for statement in statements:
        text = statement.value if isinstance(statement, RawAssign) else statement.text
        names |= ex.names_in(text or "", fortran=fortran)
    return names


class _Lowering:
    """From the OpenMP expression tree to the dependence analysis' expressions.

    `seeded` maps the work-item loop indices to their (constant) steps, `uniform` holds names known
    to be the same in every work-item: `(i + c) % m` is uniform when `i` steps by a multiple of `m`
    (a tile loop `for (t = 0; t < n; t += 32)` tested with `% 16`), which the shared analysis cannot
    know, so such a remainder is lowered as a uniform value.
    """

    def __init__(self, source: DeviceSource, unit: dep.Unit, seeded: dict[str, int | None],
                 uniform: set[str]) -> None:
        self.source = source
        self.fortran = source.fortran
        self.unit = unit
        self.seeded = seeded
        self.uniform = uniform

    def _aligned_remainder(self, node: ex.Binary, at: int) -> bool:
        scope = self.source.scope(at)
        modulus = ex.linear(node.right, scope)
        subject = ex.linear(node.left, scope)
        if modulus is None or not modulus.is_constant or modulus.constant < 2 or subject is None:
            return False
        m = modulus.constant
        ids = [(name, c) for name, c in subject.terms if name in self.seeded]
        if not ids or any(n not in self.seeded and n not in self.uniform for n, _c in subject.terms):
            return False
        return all(self.seeded[n] is not None and (c * self.seeded[n]) % m == 0 for n, c in ids)  # type: ignore

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
            if node.op == "%" and self._aligned_remainder(node, at):
                return dep.Uniform("aligned remainder")
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
