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

from collections.abc import Callable

from kernlint.analysis import dependence as dep
from kernlint.analysis.names import Name, definition_of
from kernlint.facts import LimitReached, Span
from kernlint.facts.device import Branch, Reach
from kernlint.facts.openmp import OmpConstruct
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.openmp import expr as ex
from kernlint.frontends.openmp.device_code import (
    BranchShape,
    DeviceSource,
    RawAssign,
    RawBranch,
    RawCall,
    RawFunction,
    RegionBranches,
    too_deep,
)
from kernlint.frontends.openmp.lanes import doubled_at, geometric, index_seed
from kernlint.frontends.openmp.region_flow import RegionFlow
from kernlint.frontends.openmp.solved import SolvedRegion, SolvedRegions

__all__ = ["BranchShape", "DeviceSource", "RawAssign", "RawBranch", "RawCall", "RawFunction", "openmp_branches"]

_WORKSHARING = frozenset({"for", "do", "loop"})
_THREAD_SEEDS = frozenset({"omp_get_thread_num"})
_UNIFORM_CALLS = frozenset(
    {
        "omp_get_team_num",
        "omp_get_num_teams",
        "omp_get_num_threads",
        "omp_get_team_size",
        "omp_get_max_threads",
        "omp_get_level",
        "omp_is_initial_device",
    }
)
_MONOTONE = frozenset({"min", "max", "fmin", "fmax", "floor", "ceil", "int", "nint", "real", "dble"})


def solve_regions(
    constructs: tuple[OmpConstruct, ...], source: DeviceSource, only: list[OmpConstruct] | None = None
) -> SolvedRegions | None:
    """Lower every device parallel region (and the functions it calls, one level) into one dependence
    program and solve it (None: no region); `only`: those of `device_regions` to lower, in their order
    (the language server's worker solves the regions that share no function apart, see
    `kernlint.frontends.cpp.openmp.reuse`)."""
    regions = _parallel_regions(constructs) if only is None else only
    if not regions:
        return None
    limits: dict[Span, LimitReached] = {}  # one a statement
    program = dep.Program()
    shared = _shared_out_loops(constructs)
    around = SpanIndex((c.region, c) for c in constructs if c.region is not None)  # by region
    inside = SpanIndex((c.span, c) for c in constructs)  # by where the directive is
    simd_loops = SpanIndex(
        (c.span, c)
        for c in constructs
        if "simd" in c.leaves and not set(c.leaves) & _WORKSHARING and c.loop is not None and c.loop.index
    )
    pending: list[tuple[Span, RawBranch]] = []
    solved: list[SolvedRegion] = []
    followed = _Followed(program, source)
    for construct in regions:
        assert construct.region is not None
        if _one_lane(construct, around):
            continue
        unit = program.unit(construct.region)
        lanes = _simd_lanes(construct, simd_loops.inside(construct.region))
        seeds: dict[str, dep.Expr] = {}  # work-item indices: read flow-insensitively, as the seeds they are
        for loop in construct.loops:
            if loop.index is None:
                continue
            if lanes is not None and loop.role in ("simd", "parallel-simd") and loop.index in lanes:
                seeds[loop.index] = dep.Seed("lane", loop.index)
            elif lanes is None and loop.span in shared:
                seeds[loop.index] = index_seed(loop, construct, shared)
            else:
                continue
            unit.assign(loop.index, seeds[loop.index])
        ids = set(seeds)
        statements = source.device_code(construct.region)
        seeded = {
            loop.index: loop.step_value
            for loop in construct.loops
            if loop.index and lanes is None and loop.span in shared
        }
        assigned = {s.name for s in statements if isinstance(s, RawAssign)}
        uniform = {
            loop.index
            for loop in construct.loops
            if loop.index
            and loop.role == "sequential"
            and loop.low is not None
            and not loop.low.names & (set(seeded) | assigned)
        }
        read = _all_names(statements, source.fortran)
        published = _Publication(
            statements, _barriers(construct, inside), _team_shared(construct, source, assigned - ids)
        )
        flow = RegionFlow(statements, assigned - ids, source.fortran, published)
        lower = _Lowering(source, unit, seeded, uniform | {n for n in read if n not in assigned}, flow)
        skip = {loop.span for loop in construct.loops if loop.role != "sequential"}
        limits.update((limit.span, limit) for limit in too_deep(statements, source.fortran))  # said, not dropped
        pending += _lower_code(unit, statements, lower, skip, construct.region)
        # The file's functions it calls, followed one level: their parameters take the arguments (a
        # call's value stays as dependent as its arguments: their `return`s are not read).
        lower.site = -1  # a call's arguments: every definition of the names they read
        for call in source.calls(construct.region):
            function = followed.function(call.name)
            if function is not None:
                args = [lower.expr(arg, call.span.start_byte) for arg in call.args]
                unit.bind_call(function.body, args, call.guards)
        solved.append(SolvedRegion(construct, statements, lower, seeds))
    program.solve()
    ordered = tuple(sorted(limits.values(), key=lambda limit: limit.span.start_byte))
    return SolvedRegions(program, solved, pending + followed.pending, followed.names, ordered)


def device_regions(constructs: tuple[OmpConstruct, ...]) -> list[OmpConstruct]:
    """The device parallel regions `solve_regions` lowers, in order (those running one thread per
    team left out)."""
    around = SpanIndex((c.region, c) for c in constructs if c.region is not None)
    return [c for c in _parallel_regions(constructs) if not _one_lane(c, around)]


def openmp_branches(
    constructs: tuple[OmpConstruct, ...], source: DeviceSource, solved: SolvedRegions | None = None
) -> RegionBranches:
    """`Branch` facts for the id-dependent conditions of every device parallel region, with the limits
    their analysis met (`solved`: the regions' program when the caller already solved it for other passes)."""
    solved = solved if solved is not None else solve_regions(constructs, source)
    if solved is None:
        return RegionBranches()
    program, pending = solved.program, solved.pending
    loops = [raw.span for _unit, raw in pending if raw.kind == "loop"]
    branches = []
    for unit_key, raw in pending:
        grade = program.grade(unit_key, raw.span)
        if grade is None:
            continue
        shape = raw.shape()
        branches.append(
            Branch(
                span=raw.span,
                condition=raw.condition,
                kind=raw.kind,
                dependence=grade.dependence,
                reason=grade.reason,
                regions=raw.regions,
                lanes=grade.lanes,
                origin=grade.origin,
                id_scope=grade.id_scope,  # type: ignore[arg-type]
                bound=grade.bound,
                loop=min(
                    (span for span in loops if span != raw.span and span.contains(raw.span)),
                    key=lambda span: span.end_byte - span.start_byte,
                    default=None,
                ),
                reaches=tuple(Reach(r) for r in raw.regions),
                head=raw.head,
                select_like=raw.select_like,
                arms=shape.arms,
                steers_loop=shape.steers_loop,
                rewritable=shape.rewritable,
                comparison=shape.comparison,
                combines=shape.combines,
                function=solved.functions.get(unit_key),
            )
        )
    return RegionBranches(tuple(branches), solved.limits)


def _lower_code(
    unit: dep.Unit, statements: list[RawAssign | RawBranch], lower: _Lowering, skip: set[Span], key: Span
) -> list[tuple[Span, RawBranch]]:
    """Lower the statements of one region (or followed function) into `unit`; its conditions to grade."""
    flow = lower.flow
    assigns = [(a.name, a.span, a.scaling) for a in statements if isinstance(a, RawAssign)]
    loops = [(b.span, b.condition) for b in statements if isinstance(b, RawBranch) and b.kind == "loop"]
    scaling_names = geometric(assigns, loops)  # halved or doubled by every loop step
    pending = []
    for index, statement in enumerate(statements):
        lower.site = index
        if isinstance(statement, RawAssign):
            value = lower.expr(statement.value, statement.span.start_byte) if statement.value else dep.Const()
            if statement.name in flow.tracked:
                if statement.compound:  # `x += v`, `x++`: the old value moved by the new one
                    value = dep.Binary("+", flow.read(index, statement.name, statement.span), value)
                unit.assign(flow.key(index), value)
                unit.assign(statement.name, dep.Var(flow.key(index)), statement.guards)
            else:
                unit.assign(statement.name, value, statement.guards, statement.compound)
        elif statement.span not in skip:
            expr = lower.expr(statement.text, statement.condition.start_byte)
            scaled = {name for name in dep.names_in(expr) if _variable(name) in scaling_names}
            doubled = doubled_at(statement.condition, assigns, loops) if scaled else set()
            unit.condition(
                statement.span,
                expr,
                statement.guards,
                flow.varying(index, expr),
                "loop" if statement.kind == "loop" else "if",
                geometric=scaled,
                doubling={name for name in scaled if _variable(name) in doubled},
            )
            pending.append((key, statement))
    flow.lower_variants(unit)
    return pending


class _Followed:
    """Functions of the file that device parallel regions call, followed one level: each is a unit of
    its own, its parameters bound at every call, its conditions graded like the region's."""

    def __init__(self, program: dep.Program, source: DeviceSource) -> None:
        self.program = program
        self.source = source
        self.pending: list[tuple[Span, RawBranch]] = []
        self.names: dict[Span, str] = {}
        self._functions: dict[str, RawFunction | None] = {}

    def function(self, name: str) -> RawFunction | None:
        """The function `name` as a unit of the program (lowered on first use), None when not followed."""
        if name not in self._functions:
            function = self.source.function(name)
            self._functions[name] = function
            if function is not None:
                self._lower(function)
        return self._functions[name]

    def _lower(self, function: RawFunction) -> None:
        unit = self.program.unit(function.body, function.params)
        self.names[function.body] = function.name
        statements = self.source.device_code(function.body)
        assigned = {s.name for s in statements if isinstance(s, RawAssign)}
        read = _all_names(statements, self.source.fortran)
        flow = RegionFlow(statements, assigned - set(function.params), self.source.fortran)
        outside = {n for n in read if n not in assigned and n not in function.params}
        lower = _Lowering(self.source, unit, {}, outside, flow)  # (no calls followed further)
        self.pending += _lower_code(unit, statements, lower, set(), function.body)


def _variable(name: Name) -> str | None:
    """The variable a program name stands for (a definition's or variant's variable, or the name)."""
    definition = definition_of(name)
    variable = definition.variable if definition is not None else name
    return variable if isinstance(variable, str) else None


_PRIVATE_CLAUSES = ("private", "firstprivate", "lastprivate", "reduction", "linear")


def _barriers(construct: OmpConstruct, inside: SpanIndex[OmpConstruct]) -> tuple[Span, ...]:
    """The `barrier` directives inside the region (`inside`: the constructs by where they are)."""
    region = construct.region
    return tuple(c.span for c in inside.inside(region) if c.leaves == ("barrier",)) if region is not None else ()


def _team_shared(construct: OmpConstruct, source: DeviceSource, assigned: set[str]) -> frozenset[str]:
    """Names the region assigns that its threads share: declared outside it and in no data-sharing
    clause that gives each thread its own copy. Empty when the front-end cannot tell declarations."""
    assert construct.region is not None
    declared = source.declared_in(construct.region)
    if declared is None or construct.directive is None:
        return frozenset()
    private = {item.name for clause in _PRIVATE_CLAUSES for item in construct.directive.items(clause)}
    return frozenset(assigned - declared - private)


class _Publication:
    """Whether a definition reaches a read only through a barrier that publishes it: a variable the
    team shares, written (by any thread, under any condition) before a `#pragma omp barrier` that lies
    on every path to the read, is read from the same memory by every thread, so the read is uniform.
    The barrier must sit in no conditional or loop that does not also hold the write and the read."""

    def __init__(
        self, statements: list[RawAssign | RawBranch], barriers: tuple[Span, ...], shared: frozenset[str]
    ) -> None:
        self._statements = statements
        self._shared = shared
        # each barrier with the conditionals and loops around it, found once per region
        self._barriers = [
            (barrier, [s.span for s in statements if isinstance(s, RawBranch) and s.span.contains(barrier)])
            for barrier in barriers
        ]

    def __call__(self, definition: int, read: Span) -> bool:
        written = self._statements[definition]
        if not isinstance(written, RawAssign) or written.name not in self._shared:
            return False
        return any(
            written.span.end_byte <= barrier.start_byte
            and barrier.end_byte <= read.start_byte
            and all(around.contains(written.span) and around.contains(read) for around in arounds)
            for barrier, arounds in self._barriers
        )


def _one_lane(construct: OmpConstruct, around: SpanIndex[OmpConstruct]) -> bool:
    """Whether the region runs one thread per team (`thread_limit(1)`, `num_threads(1)` on it or on a
    construct around it; `around`: the constructs by region): nothing can diverge."""
    assert construct.region is not None
    return any(
        c.value("thread_limit") == 1 or c.value("num_threads") == 1
        for c in [construct, *around.containing(construct.region)]
    )


def _parallel_regions(constructs: tuple[OmpConstruct, ...]) -> list[OmpConstruct]:
    """The outermost device constructs that start parallel execution (nested ones are inside them)."""
    candidates = [
        (c.region, c)
        for c in constructs
        if c.region is not None and c.device and set(c.leaves) & (_WORKSHARING | {"parallel"})
    ]
    candidates.sort(key=lambda pair: (pair[0].start_byte, -pair[0].end_byte))
    chosen: list[tuple[Span, OmpConstruct]] = []
    for region, construct in candidates:
        # the chosen regions are disjoint and sorted: only the last can hold one starting after them all
        if not chosen or not chosen[-1][0].contains(region):
            chosen.append((region, construct))
    return [construct for _region, construct in chosen]


def _shared_out_loops(constructs: tuple[OmpConstruct, ...]) -> set[Span]:
    """The loops a worksharing construct (not a bare `distribute`) applies to: each construct's own
    loop and the loops collapsed into it."""
    found: set[Span] = set()
    for construct in constructs:
        owned = construct.loop
        if owned is None or not set(construct.leaves) & _WORKSHARING:
            continue
        found.add(owned.span)
        found |= {
            loop.span
            for loop in construct.loops
            if loop.role in ("parallel", "parallel-simd") and owned.span.contains(loop.span)
        }
    return found


def _simd_lanes(construct: OmpConstruct, simd_loops: list[OmpConstruct]) -> set[str] | None:
    """With the SIMD programming model (the parallel loop steps by an inner simdlen), the simd loops'
    indices, which are the lanes (`simd_loops`: the simd constructs inside the region); None otherwise."""
    steps = {loop.step_value for loop in construct.loops if loop.role in ("parallel", "parallel-simd")}
    lanes = {
        inner.loop.index or ""  # a loop without an index still makes the model SIMD (matches no name)
        for inner in simd_loops
        if inner.loop is not None and inner.value("simdlen") in steps
    }
    return lanes or None


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

    def __init__(
        self,
        source: DeviceSource,
        unit: dep.Unit,
        seeded: dict[str, int | None],
        uniform: set[str],
        flow: RegionFlow,
    ) -> None:
        self.source = source
        self.fortran = source.fortran
        self.unit = unit
        self.seeded = seeded
        self.uniform = uniform
        self.flow = flow
        self.site = 0  # the statement being lowered (its index)

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
            if node.name in self.flow.tracked:
                return self.flow.read(self.site, node.name)
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
        if isinstance(node, ex.Member):
            return convert(node.base)  # `nodes[i].start`: read from the element, as the element is
        if isinstance(node, ex.Call):
            name = node.name.lower() if self.fortran else node.name
            if name in _THREAD_SEEDS:
                return dep.Seed("local", f"{node.name}()")
            if name in _UNIFORM_CALLS:
                return dep.Uniform(f"{node.name}()")
            args = tuple(convert(a) for a in node.args)
            if self.fortran and self.source.is_array(name, at):
                return dep.Load(
                    dep.Var(name), args[0] if len(args) == 1 else (dep.Call("index", args) if args else None)
                )
            return dep.Call(name, args, monotone=name in _MONOTONE)
        return dep.Uniform(getattr(node, "text", ""))  # unreadable: never guessed dependent
