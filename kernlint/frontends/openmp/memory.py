"""Memory accesses of OpenMP offload regions, for C/C++ and Fortran alike: the OpenMP side of KL601–KL603.

A front-end lists the array elements each device parallel region reads and writes (`RawArrayAccess`:
the array, its subscripts as written, the declared extents, the element's size); this module lowers
the subscripts with the region's lowering in the solved dependence program
(`kernlint.frontends.openmp.dependence.solve_regions`), flattens them row-major (C) or column-major
(Fortran: `a(i, k)` walks the first index fastest), and reads the lane stride of the address with
`kernlint.analysis.strides`. The lane is the work-item's own iteration: the innermost loop a
worksharing construct shares out (after `collapse`), or the `simd` loop's index in the SIMD model;
an outer collapsed index is the same across a sub-group. Every array is in global memory (arrays a
region declares itself are private, and not listed).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Protocol

from kernlint.analysis import dependence as dep
from kernlint.analysis.names import Name
from kernlint.analysis.strides import SeedRole, StrideSource, classify, constant_apart, lane_form
from kernlint.facts.base import Span
from kernlint.facts.kinds import AccessKind, LaneKind
from kernlint.facts.memory import LaneStride, MemoryAccess
from kernlint.facts.openmp import OmpConstruct
from kernlint.frontends.openmp import expr as ex
from kernlint.frontends.openmp.dependence import RawBranch
from kernlint.frontends.openmp.solved import SolvedRegion, SolvedRegions
from kernlint.records import record


@record
class RawArrayAccess:
    """One array element a region uses, as written. `indices` in the language's order (C: `[i][k]`,
    Fortran: `(i, k)`), `extents` the declared extent of each dimension (as written, None when not
    known: a pointer's first, an assumed shape). For a struct member (`p[i].x`), `member` and `struct`
    name it, `element_bytes` is the member's size and `pitch_bytes` the struct's."""

    span: Span
    array: str
    indices: tuple[str, ...]
    kind: AccessKind
    element_bytes: int | None
    extents: tuple[str | None, ...]
    pitch_bytes: int | None = None
    element_type: str | None = None
    struct: str | None = None
    member: str | None = None
    declared_at: int | None = None  # where the array is declared (a byte), when in the same file
    member_bytes: tuple[tuple[str, int], ...] = ()  # for a struct member: every member of the struct, with its size


class ArraySource(Protocol):
    fortran: bool

    def array_accesses(self, region: Span) -> list[RawArrayAccess]:
        """The array elements the code of `region` uses, in source order."""

    def scope(self, at_byte: int) -> ex.Scope:
        """Constants and substitutable local definitions at `at_byte`."""


def openmp_memory_accesses(
    solved: SolvedRegions, source: ArraySource, constructs: tuple[OmpConstruct, ...] = ()
) -> tuple[MemoryAccess, ...]:
    """The accesses of every solved region; an array a `target` region declares outside its parallel
    region is the team's, in local (shared) memory."""
    return tuple(members_used(region_accesses(solved, source, constructs)))


def region_accesses(
    solved: SolvedRegions, source: ArraySource, constructs: tuple[OmpConstruct, ...] = ()
) -> list[tuple[MemoryAccess, tuple[tuple[str, int], ...]]]:
    """`openmp_memory_accesses` before `members_used`: each access with the members (and their
    sizes) of the struct it reads a member of."""
    teams = [c.region for c in constructs if c.region is not None and "target" in c.leaves]
    found: list[tuple[MemoryAccess, tuple[tuple[str, int], ...]]] = []
    for region in solved.regions:
        assert region.construct.region is not None
        reader = _RegionReader(solved.program, region, source, teams)
        for raw in source.array_accesses(region.construct.region):
            access = reader.access(raw)
            if access is not None:
                found.append((access, raw.member_bytes))
    return found


class _OmpStrides:
    """`StrideSource` for one region: the seeded work-item indices are the lanes (an outer collapsed
    index is the same across a sub-group), other names are read through the solved program."""

    def __init__(self, program: dep.Program, region: SolvedRegion, scope: ex.Scope) -> None:
        assert region.construct.region is not None
        self._program = program
        self._unit = region.construct.region
        self._seeds = region.seeds
        self._scope = scope
        # loop indices: a Fortran `do k = 1, m` gives its index one assignment (the start), which is no
        # definition to follow
        self._counters = {loop.index for loop in region.construct.loops if loop.index}
        # a collapsed nest whose inner loops run fewer iterations than a sub-group has lanes (an outer
        # index that is a band of lanes): a sub-group's lanes wrap from row to row, so its indices are
        # neither one lane step apart nor the same across the sub-group
        self._wrapping = (region.construct.value("collapse") or 1) >= 2 and any(
            isinstance(seed, dep.Seed) and seed.shared for seed in region.seeds.values()
        )

    def taint(self, expr: dep.Expr) -> dep.Taint | None:
        return self._program.taint(self._unit, expr)

    def definition(self, name: Name) -> dep.Expr | None:
        if isinstance(name, str) and name in self._seeds:
            return self._seeds[name]
        if isinstance(name, str) and name in self._counters:
            return None
        return self._program.definition(self._unit, name)

    def constant(self, name: Name) -> int | None:
        return self._scope.constant(name) if isinstance(name, str) else None

    def seed_role(self, seed: dep.Seed, dimension: int | None) -> SeedRole | None:
        if self._wrapping and seed.scope == "global":
            return None
        if seed.scope in ("lane", "local"):
            return "lane"
        return "uniform" if seed.shared else "lane"

    def arguments(self, name: Name) -> list[tuple[dep.Expr, StrideSource]] | None:
        return None

    def inline(self, call: dep.Call) -> dep.Expr | None:
        return None


class _RegionReader:
    def __init__(self, program: dep.Program, region: SolvedRegion, source: ArraySource, teams: list[Span]) -> None:
        self.teams = teams
        self.program = program
        self.region = region
        self.source = source
        self.fortran = source.fortran
        construct = region.construct
        self.sequential = [loop for loop in construct.loops if loop.role == "sequential"]
        self.loops = [s for s in region.statements if isinstance(s, RawBranch) and s.kind == "loop"]
        self.branches = [s for s in region.statements if isinstance(s, RawBranch) and s.kind != "loop"]
        parallel = {loop.span for loop in construct.loops if loop.role != "sequential"}
        self.loops = [s for s in self.loops if s.span not in parallel]
        self.memo: dict[Hashable, object] = {}

    def access(self, raw: RawArrayAccess) -> MemoryAccess | None:
        if len(raw.indices) != len(raw.extents) or not raw.indices:
            return None
        lowering = self.region.lowering
        at = raw.span.start_byte
        lowering.site = -1  # an access is no statement: names are read through all their definitions
        try:
            indices = [lowering.expr(text, at) for text in raw.indices]
            extents: list[dep.Expr | None] = [lowering.expr(text, at) if text else None for text in raw.extents]
        except (ValueError, RecursionError):
            return None
        address = _flatten(indices, extents, raw.array, self.fortran)
        self._strides = _OmpStrides(self.program, self.region, self.source.scope(at))
        form = lane_form(address, self._strides, self.memo)  # type: ignore[arg-type]
        if form is None:
            return None
        loops = [loop for loop in self.sequential if loop.span.contains(raw.span)]
        counters = {loop.index for loop in loops if loop.index}
        counters |= {name for loop in self.loops if loop.span.contains(raw.span) for name in loop.varying}
        named = classify(form, lambda name: name in counters)
        if named is None:
            return None
        index_shape, apart = constant_apart(form)
        inner = min(
            [loop.span for loop in loops] + [loop.span for loop in self.loops if loop.span.contains(raw.span)],
            key=lambda span: span.end_byte - span.start_byte,
            default=None,
        )
        return MemoryAccess(
            span=raw.span,
            array=raw.array,
            index=_written(raw, self.fortran),
            space="local" if self._team_local(raw) else "global",
            kind=raw.kind,
            stride=LaneStride(
                named.form,
                _number(named.elements),
                named.symbol,
                named.counter,
                steps=self._steps(indices) if len(indices) > 1 and self._team_local(raw) else (),
                shape=index_shape,
                offset=_number(apart),
            ),
            extents=tuple(_int(e) for e in extents) if self._team_local(raw) else (),
            element_bytes=raw.element_bytes,
            pitch_bytes=raw.pitch_bytes or raw.element_bytes,
            element_type=raw.element_type,
            struct=raw.struct,
            member=raw.member,
            loop=inner,
            main=not self.sequential and not self.loops,
            lanes=self._lanes(raw.span),
        )

    def _steps(self, indices: list[dep.Expr]) -> tuple[tuple[float | None, float | None], ...]:
        """How far the lane moves each subscript of a team tile (for the padding a rule may suggest)."""
        found = []
        for index in indices:
            form = lane_form(index, self._strides, self.memo)  # type: ignore[arg-type]
            if form is None:
                return ()
            found.append((_number(form.lane.value), _number(form.row.value)))
        return tuple(found)

    def _team_local(self, raw: RawArrayAccess) -> bool:
        at = raw.declared_at
        return at is not None and any(team.contains_byte(at) for team in self.teams)

    def _lanes(self, span: Span) -> LaneKind | None:
        """ "single" under a leader test; "edge" under the `else` of a bound test (C, whose arms the
        front-end tells apart)."""
        found: LaneKind | None = None
        for branch in self.branches:
            if not branch.span.contains(span) or not branch.regions:
                continue
            grade = self.program.grade(self.region.construct.region, branch.span)
            lanes = grade.lanes.kind if grade is not None and grade.lanes is not None else None
            if branch.regions[0].contains(span) and lanes == "single":
                return "single"
            if (
                not self.fortran
                and len(branch.regions) > 1
                and branch.regions[1].contains(span)
                and grade is not None
                and grade.dependence == "boundary"
                and lanes == "edge"
            ):
                found = "edge"
        return found


def _int(expr: dep.Expr | None) -> int | None:
    return expr.value if isinstance(expr, dep.Const) and isinstance(expr.value, int) else None


def _flatten(indices: list[dep.Expr], extents: list[dep.Expr | None], array: str, fortran: bool) -> dep.Expr:
    """Row-major for C (`a[i][k]` of extents (E0, E1): i × E1 + k), column-major for Fortran
    (`a(i, k)` of extents (E0, E1): i + k × E0); an unknown extent is a named symbol."""
    order = list(range(len(indices)))
    if not fortran:
        order.reverse()  # C: the last subscript moves fastest
    address: dep.Expr | None = None
    pitch: dep.Expr = dep.Const(1)
    for dimension in order:
        term = dep.Binary("*", indices[dimension], pitch) if address is not None else indices[dimension]
        address = term if address is None else dep.Binary("+", address, term)
        extent = extents[dimension]
        size = extent if extent is not None else dep.Uniform(f"size({array}, {dimension + 1})")
        pitch = dep.Binary("*", pitch, size) if not isinstance(pitch, dep.Const) else size
    assert address is not None
    return address


def _written(raw: RawArrayAccess, fortran: bool) -> str:
    if fortran:
        return f"({', '.join(raw.indices)})"
    return "".join(f"[{index}]" for index in raw.indices)


def _number(value: Fraction | None) -> float | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def members_used(accesses: list[tuple[MemoryAccess, tuple[tuple[str, int], ...]]]) -> list[MemoryAccess]:
    """For struct members: the members the same array's accesses in the file use, and their bytes
    (`accesses`: each with its struct's members and their sizes, `region_accesses`)."""
    used: dict[str, set[str]] = {}
    for access, _raw in accesses:
        if access.member is not None:
            used.setdefault(access.array, set()).add(access.member)
    found = []
    for access, member_bytes in accesses:
        if access.member is None:
            found.append(access)
            continue
        members = used.get(access.array, set())
        covered = sum(size for name, size in member_bytes if name in members) if member_bytes else None
        if member_bytes and all(name in members for name, _size in member_bytes):
            covered = access.pitch_bytes  # every member: the whole struct, its padding too
        found.append(replace(access, members_used=tuple(sorted(members)), used_bytes=covered))
    return found
