"""The language-neutral half of the OpenMP facts: from what a front-end found to `OmpConstruct`s.

Each front-end (`kernlint.frontends.cpp.openmp.constructs`, `kernlint.frontends.fortran.openmp`) implements
`OmpSource`: it knows its tree and answers small questions (the loop after a directive, the loops and conditions
around a point, how names are used in a region, what a name means at a point). Everything else —
loop bounds as linear ranges, loop roles, map coverage, prefetch targets, clause values — is decided
here, once, so the facts cannot differ between the languages.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Protocol

from kernlint.facts.base import Span
from kernlint.facts.kinds import LoopKind, LoopRole
from kernlint.facts.openmp import (
    Linear,
    OmpCondition,
    OmpConstruct,
    OmpLoop,
    OmpPrefetchTarget,
    OmpRange,
    OmpVariableUse,
)
from kernlint.facts.openmp_directive import OmpDirective, OmpParseError
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.openmp.expr import Scope, condition_shape, linear_text
from kernlint.frontends.openmp.locate import TextLocator
from kernlint.frontends.openmp.mapped import implicit_map_facts
from kernlint.frontends.openmp.maps import Declared, device_named, mapped_items, own_elements, touched_range
from kernlint.frontends.openmp.names import STANDALONE
from kernlint.records import record

#: Leaves that make a construct's associated loop run in parallel or vectorised.
_PARALLEL_LEAVES = frozenset({"for", "do", "distribute", "loop", "taskloop"})
_LOOP_LEAVES = _PARALLEL_LEAVES | {"simd"}
#: Expression clauses whose constant value rules may need.
_VALUE_CLAUSES = ("thread_limit", "num_teams", "num_threads", "simdlen", "safelen", "collapse")


def has_region(directive: OmpDirective) -> bool:
    """Whether a directive applies to the statement/block after it (not standalone, not an `end`)."""
    kind = directive.kind
    return not (
        directive.is_end or kind.startswith(("begin ", "declare ")) or (kind in STANDALONE and kind != "section")
    )


def is_loop_construct(directive: OmpDirective) -> bool:
    """Whether the directive applies to the loop after it (`for`, `do`, `simd`, `distribute` …)."""
    return has_region(directive) and bool(set(directive.leaves) & _LOOP_LEAVES)


@record
class RawLoop:
    """A loop as a front-end reads it; `span` identifies it. Bounds are text, not yet evaluated.

    `compare` is the condition's operator with the index on the left (`<`, `<=`, `>`, `>=`, `!=`);
    Fortran `do` loops use `<=` for an ascending and `>=` for a descending step.
    """

    span: Span
    body: Span | None
    index: str | None
    lower: str | None
    upper: str | None
    compare: str | None
    step: str | None  # signed step as an expression (`1`, `-1`, `TILE`, `-(2)`); None for 1
    kind: LoopKind = "for"


@record
class RawCondition:
    """A condition around a point: its text and whether the point is in its else branch."""

    span: Span
    text: str
    negated: bool = False


@record
class Access:
    """One use of a mapped variable in a region.

    kind: read | write | rmw | escape. `index` is the subscript as written (None for a bare name or
    a multi-dimensional element); `whole` marks a write of the whole array (`a = 0`,
    `a(:) = 0`); `loop` is the innermost loop around the use inside the region and `conditional`
    whether an `if`/`case`/`where` sits between the use and that loop (or the region). `detail` says
    what an escape or a read-modify-write is (`a member of an element is written`, `passed to `f``).
    `depth` counts the subscripts (or `*`) applied to the variable (`a[i][j]`: 2), `member` names the
    member subscripted or dereferenced through it (`s.p[i]`, `s->p[i]`), and `shape_only` marks a use
    that asks only for the array's shape (Fortran `size(a, 1)`), touching no element. A jump earlier
    in its loop's body (`continue`, Fortran `cycle`, …) makes a write `conditional` too. `statement`
    is the statement holding the use (it reads before it writes, whatever the order in the text).
    """

    name: str
    kind: str
    span: Span
    index: str | None = None
    whole: bool = False
    loop: Span | None = None
    conditional: bool = False
    detail: str = ""
    depth: int = 0
    member: str | None = None
    shape_only: bool = False
    statement: Span | None = None


@record
class Located:
    """A directive as found: where it is, its parse, and the code it applies to."""

    span: Span
    directive: OmpDirective | OmpParseError
    region: Span | None = None
    loops: tuple[Span, ...] = ()  # the associated loop and, for `collapse(n)`, the n-1 nested ones
    append_at: Span | None = None
    append_limit: int | None = None


class OmpSource(Protocol):
    """What the neutral builder asks a front-end."""

    fortran: bool

    @property
    def locator(self) -> TextLocator:
        """Finds where on the file's lines a directive writes a clause, list item or map type."""

    def located(self) -> list[Located]:
        """Every OpenMP directive with its association, in source order."""

    def scope(self, at_byte: int) -> Scope:
        """Constants and substitutable local definitions visible at `at_byte`."""

    def value(self, text: str, at_byte: int) -> int | None:
        """The constant value of an expression written at `at_byte`."""

    def loops_in(self, region: Span) -> list[RawLoop]:
        """Every loop inside `region`, outermost first."""

    def loops_around(self, span: Span) -> list[RawLoop]:
        """The loops containing `span` (in its function), outermost first."""

    def conditions_around(self, span: Span) -> list[RawCondition]:
        """The conditions controlling `span` (in its function), outermost first."""

    def accesses(self, region: Span, names: frozenset[str]) -> list[Access]:
        """Every use of `names` inside `region`."""

    def declared(self, name: str, at_byte: int) -> Declared | None:
        """What the declaration of `name` visible at `at_byte` says."""

    def pointer_members(self, type_name: str) -> tuple[str, ...]:
        """The members of the struct (class, derived type) `type_name` defined in the file that are
        pointers, in declaration order; () when none or not defined here."""

    def device_pointers(self) -> frozenset[str]:
        """Pointers the file assigns device memory to (`omp_target_alloc`, `malloc_device`, `cudaMalloc` …)."""

    def unit_of(self, span: Span) -> Span | None:
        """The function (Fortran: program unit) a directive at `span` is written in."""

    def varying_in(self, region: Span) -> frozenset[str] | None:
        """The names `region` declares or assigns (its loop indices among them), None when unknown."""

    def declared_in(self, region: Span) -> frozenset[str] | None: ...  # names declared inside (None: unknown)
    def referenced(self, region: Span) -> frozenset[str]: ...  # arrays it may map implicitly (`mapped`)


def build_constructs(source: OmpSource) -> tuple[OmpConstruct, ...]:
    """All OmpConstructs of a file: associations, loops with roles, uses, prefetch targets."""
    located = source.located()
    if not located:
        return ()
    builder = _Builder(source, located)
    return tuple(builder.construct(item) for item in located)


def fold_name(name: str, fortran: bool) -> str:
    return name.lower() if fortran else name


class _Builder:
    def __init__(self, source: OmpSource, located: list[Located]) -> None:
        self.source = source
        self.fortran = source.fortran
        self.located = located
        self.roles: dict[Span, LoopRole] = {}
        self.targets: list[Span] = []
        for item in located:
            directive = item.directive
            if not isinstance(directive, OmpDirective) or directive.is_end:
                continue
            leaves = set(directive.leaves)
            if "target" in leaves and item.region is not None:
                self.targets.append(item.region)
            parallel = bool(leaves & _PARALLEL_LEAVES)
            simd = "simd" in leaves
            for loop in item.loops:
                role = self.roles.get(loop, "sequential")
                parallel_now = parallel or role in ("parallel", "parallel-simd")
                simd_now = simd or role in ("simd", "parallel-simd")
                self.roles[loop] = (
                    ("parallel-simd" if simd_now else "parallel")
                    if parallel_now
                    else ("simd" if simd_now else "sequential")
                )
        self._loop_cache: dict[Span, OmpLoop] = {}
        self._varying: dict[Span, frozenset[str] | None] = {}  # what each region assigns, asked once
        self._target_starts, self._target_ends = _disjoint(self.targets)
        # `target update` directives by where they are, mapping constructs by region
        self._updates: SpanIndex[OmpDirective] = SpanIndex(
            (o.span, o.directive)
            for o in located
            if isinstance(o.directive, OmpDirective) and o.directive.kind == "target update"
        )
        self._mapping: SpanIndex[Located] = SpanIndex(
            (o.region, o)
            for o in located
            if o.region is not None and isinstance(o.directive, OmpDirective) and o.directive.has("map")
        )
        self._device_named = device_named(
            (o.directive for o in located if isinstance(o.directive, OmpDirective)), self.fortran
        )

    # -- pieces ------------------------------------------------------------------------------

    def in_target(self, span: Span) -> bool:
        at = bisect_right(self._target_starts, span.start_byte) - 1
        return at >= 0 and span.end_byte <= self._target_ends[at]

    def loop(self, raw: RawLoop) -> OmpLoop:
        cached = self._loop_cache.get(raw.span)
        if cached is None:
            cached = _loop_fact(
                raw, self.source, self.fortran, self.roles.get(raw.span, "sequential"), self.in_target(raw.span)
            )
            self._loop_cache[raw.span] = cached
        return cached

    def condition(self, raw: RawCondition) -> OmpCondition:
        scope = self.source.scope(raw.span.start_byte)
        shape = condition_shape(raw.text, fortran=self.fortran, scope=scope, negate=raw.negated)
        text = (
            f"!({raw.text})"
            if raw.negated and not self.fortran
            else (f".not.({raw.text})" if raw.negated else raw.text)
        )
        return OmpCondition(raw.span, text, shape.names, shape.bounds, shape.masks, shape.opaque)

    # -- one construct -----------------------------------------------------------------------

    def construct(self, item: Located) -> OmpConstruct:
        directive = item.directive
        on_device = self.in_target(item.span) or (item.region is not None and self.in_target(item.region))
        if not isinstance(directive, OmpDirective):
            snippet = directive.text[max(0, directive.column - 1) :][:16]
            return OmpConstruct(
                item.span,
                None,
                region=item.region,
                append_at=item.append_at,
                append_limit=item.append_limit,
                device=on_device,
                error=directive,
                problem=self.source.locator.locate(item.span, snippet) if snippet.strip() else None,
            )
        at = item.span.start_byte
        leaves = set(directive.leaves)
        loops: tuple[OmpLoop, ...] = ()
        if item.region is not None and not directive.is_end:
            loops = tuple(self.loop(raw) for raw in self.source.loops_in(item.region))
        associated = next((loop for loop in loops if item.loops and loop.span == item.loops[0]), None)
        around = tuple(self.loop(raw) for raw in self.source.loops_around(item.span))
        conditions = tuple(self.condition(raw) for raw in self.source.conditions_around(item.span))
        if_clause = directive.clause("if")
        if_condition = None
        if if_clause is not None and if_clause.expr:
            if_condition = self.condition(RawCondition(item.span, if_clause.expr))
        values = tuple(
            (name, self.source.value(clause.expr, at) if clause.expr else None)
            for name in _VALUE_CLAUSES
            if (clause := directive.clause(name)) is not None
        )
        if directive.kind == "prefetch":
            hint = directive.prefetch_hint
            values += (("hint", self.source.value(hint, at) if hint is not None else 0),)
        locator = self.source.locator
        texts = {c.text for c in directive.clauses} | {i.text for c in directive.clauses for i in c.items}
        locations = tuple((t, found) for t in sorted(texts) if (found := locator.locate(item.span, t)))
        map_types = tuple(
            site
            for clause in directive.clauses_named("map")
            if (site := locator.map_type(item.span, clause)) is not None
        )
        return OmpConstruct(
            item.span,
            directive,
            region=item.region,
            append_at=item.append_at,
            append_limit=item.append_limit,
            locations=locations,
            map_types=map_types,
            implicit_maps=implicit_map_facts(self.source, item.region, directive, at, self.targets, self._device_named),
            loop=associated,
            loops=loops,
            enclosing_loops=around,
            conditions=conditions,
            if_condition=if_condition,
            values=values,
            variables=self.variables(item, directive, loops) if item.region is not None else (),
            targets=self.prefetch_targets(item, directive) if directive.kind == "prefetch" else (),
            device=on_device or "target" in leaves,
            maps=mapped_items(self.source, directive, at, self._device_named) if directive.has("map") else (),
            unit=self.source.unit_of(item.span),
        )

    # -- prefetch ------------------------------------------------------------------------------

    def prefetch_targets(self, item: Located, directive: OmpDirective) -> tuple[OmpPrefetchTarget, ...]:
        at = item.span.start_byte
        scope = self.source.scope(at)
        targets = []
        for data in directive.prefetch_sections:
            base = fold_name(data.name, self.fortran)
            index_text = data.dims[0].lower if len(data.dims) == 1 else None
            if len(data.dims) == 1 and data.dims[0].lower is None and data.dims[0].is_range:
                index_text = None  # `b[:n]` / `b(:)`: the first element depends on the declaration
            index = linear_text(index_text, fortran=self.fortran, scope=scope) if index_text else None
            declared = self.source.declared(base, at)
            lower = None
            if declared is not None and declared.lower is not None:
                value = self.source.value(declared.lower, at)
                lower = value
            elif not self.fortran:
                lower = 0
            targets.append(
                OmpPrefetchTarget(
                    base,
                    data.text,
                    index_text,
                    index,
                    declared.element_bytes if declared is not None else None,
                    lower,
                    self.array_upper(base, item.span),
                )
            )
        return tuple(targets)

    def array_upper(self, base: str, span: Span) -> Linear | None:
        """The last valid index of an array at `span`: from the map clause of an enclosing construct
        (innermost first), else from the array's declaration."""
        enclosing = self._mapping.containing(span)
        for outer in sorted(enclosing, key=lambda o: o.region.end_byte - o.region.start_byte):  # type: ignore
            for mapped in outer.directive.map_items:  # type: ignore[union-attr]
                if fold_name(mapped.item.name, self.fortran) == base and mapped.item.dims:
                    found = self.section_range(mapped.item, outer.span.start_byte)
                    if found is not None:
                        return found[1]
        declared = self.source.declared(base, span.start_byte)
        if declared is not None and declared.upper is not None:
            return linear_text(declared.upper, fortran=self.fortran, scope=self.source.scope(span.start_byte))
        return None

    # -- mapped variables ----------------------------------------------------------------------

    def variables(
        self, item: Located, directive: OmpDirective, loops: tuple[OmpLoop, ...]
    ) -> tuple[OmpVariableUse, ...]:
        region = item.region
        assert region is not None
        mapped = [m for m in directive.map_items if _simple_name(m.item.name)]
        if not mapped:
            return ()
        names = frozenset(fold_name(m.item.name, self.fortran) for m in mapped)
        accesses = self.source.accesses(region, names)
        updated = self.updated_names(region)
        by_loop = {loop.span: loop for loop in loops}
        uses = []
        for name in sorted(names):
            mine = sorted((a for a in accesses if a.name == name), key=lambda a: a.span.start_byte)  # source order
            item_map = next(m for m in mapped if fold_name(m.item.name, self.fortran) == name)
            uses.append(
                OmpVariableUse(
                    name,
                    reads=sum(a.kind == "read" for a in mine),
                    writes=sum(a.kind == "write" for a in mine),
                    read_modify_writes=sum(a.kind == "rmw" for a in mine),
                    escapes=any(a.kind == "escape" for a in mine),
                    unknown=tuple(
                        dict.fromkeys(
                            a.detail or "used where the analysis cannot follow it" for a in mine if a.kind == "escape"
                        )
                    ),
                    writes_cover=self.writes_cover(
                        item_map.item, [a for a in mine if a.kind == "write"], by_loop, item.span.start_byte
                    ),
                    updated=name in updated,
                    touched=self.touched(name, mine, loops, item.span.start_byte, region),
                    dereferences=max((a.depth for a in mine), default=0),
                    members=tuple(sorted({a.member for a in mine if a.member is not None})),
                    written_first=self.written_first(item, item_map.item, mine, by_loop),
                )
            )
        return tuple(uses)

    def touched(
        self, name: str, accesses: list[Access], loops: tuple[OmpLoop, ...], at: int, region: Span
    ) -> OmpRange | None:
        """The indices a rank-1 array's element accesses reach in the region (see `touched_range`)."""
        declared = self.source.declared(name, at)
        rank = len(declared.extents if self.fortran else declared.indirections) if declared is not None else 0
        if rank != 1:
            return None
        uses = [
            (a.index if a.kind in ("read", "write", "rmw") and not a.whole and a.member is None else None, a.span)
            for a in accesses
            if not a.shape_only
        ]
        if not uses or any(index is None for index, _span in uses):
            return None  # decided without asking what the region assigns
        if region not in self._varying:
            self._varying[region] = self.source.varying_in(region)
        varying = self._varying[region]
        if varying is None:
            return None
        return touched_range(
            uses,
            loops,
            self.source.scope,
            fortran=self.fortran,
            rank_one=frozenset({name}) if self.fortran else frozenset(),
            varying=varying,
        )

    def written_first(self, item: Located, mapped, mine: list[Access], by_loop: dict[Span, OmpLoop]) -> bool:
        """The region's first use of a variable (`mine`, in source order) is a device loop that
        overwrites the whole mapped section and runs whenever the region does, and every other use
        comes after that loop: nothing in the region can see what was copied in."""
        region = item.region
        if region is None or not mine or mine[0].kind != "write" or mine[0].loop is None:
            return False
        first, loop = mine[0], mine[0].loop
        if not self.writes_cover(mapped, [first], by_loop, item.span.start_byte):
            return False
        owner = next((o for o in self.located if o.loops and o.loops[0] == loop), None)
        if (
            owner is None
            or not isinstance(owner.directive, OmpDirective)
            or (owner is not item and owner.directive.has("nowait"))
            or not (self.in_target(loop) or "target" in owner.directive.leaves)
        ):
            return False  # not a device loop (the construct's own, or one in its region) ordered before the rest
        if any(region.contains(outer.span) for outer in self.source.loops_around(owner.span)):
            return False  # a loop of the region around it may run no iteration
        if any(region.start_byte <= c.span.start_byte for c in self.source.conditions_around(owner.span)):
            return False  # it may not run
        if not self.same_iteration(first, [a for a in mine[1:] if a.span.start_byte < loop.end_byte], by_loop):
            return False
        # The section and the loop are compared by their bounds' names: none may change in between.
        section = self.section_range(mapped, item.span.start_byte)
        names = frozenset().union(*(bound.names for bound in section or () if bound is not None))
        return not any(
            a.kind != "read" and a.span.start_byte < loop.start_byte for a in self.source.accesses(region, names)
        )

    def same_iteration(self, first: Access, later: list[Access], by_loop: dict[Span, OmpLoop]) -> bool:
        """Every use in `later`, inside the loop of the covering write `first`, touches the element that
        iteration stored, after the write's statement: it reads what the iteration wrote."""
        loop = by_loop.get(first.loop) if first.loop is not None else None
        if not later or loop is None or loop.index is None or first.statement is None:
            return not later
        inner = {raw.index for raw in self.source.loops_in(loop.span) if raw.span != loop.span}
        return loop.index not in inner and own_elements(
            later, loop.index, first.statement.end_byte, self.source.scope, fortran=self.fortran
        )

    def updated_names(self, region: Span) -> frozenset[str]:
        return frozenset(
            fold_name(i.name, self.fortran)
            for directive in self._updates.inside(region)
            for c in directive.clauses
            if c.name in ("to", "from")
            for i in c.items
        )

    def section_range(self, item, at: int) -> tuple[Linear, Linear] | None:
        """The first and last index a map item covers, when it is one-dimensional and known."""
        scope = self.source.scope(at)
        name = fold_name(item.name, self.fortran)
        if len(item.dims) > 1:
            return None
        declared = self.source.declared(name, at)
        section = item.dims[0] if item.dims else None
        lower_text = section.lower if section is not None else None
        if section is not None and not section.is_range:
            return None  # a single element
        if self.fortran:
            upper_text = section.upper if section is not None else None
            if lower_text is None:
                lower_text = declared.lower if declared is not None else None
            if upper_text is None:
                upper_text = declared.upper if declared is not None else None
            if lower_text is None or upper_text is None:
                return None
            lo = linear_text(lower_text, fortran=True, scope=scope)
            hi = linear_text(upper_text, fortran=True, scope=scope)
            return (lo, hi) if lo is not None and hi is not None else None
        if section is None:
            if declared is None or declared.upper is None:
                return None
            lo, hi = (
                linear_text(declared.lower or "0", fortran=False, scope=scope),
                linear_text(declared.upper, fortran=False, scope=scope),
            )
            return (lo, hi) if lo is not None and hi is not None else None
        if section.length is None:
            return None
        lo = linear_text(lower_text or "0", fortran=False, scope=scope)
        length = linear_text(section.length, fortran=False, scope=scope)
        if lo is None or length is None:
            return None
        return lo, lo + length - Linear.const(1)

    def writes_cover(self, item, writes: list[Access], by_loop: dict[Span, OmpLoop], at: int) -> bool | None:
        if not writes:
            return None
        wanted = self.section_range(item, at)
        for write in writes:
            if write.conditional:
                return None
            if write.whole:
                if item.dims and not all(
                    d.is_range and d.lower is None and d.upper is None and d.length is None for d in item.dims
                ):
                    return None
                continue
            loop = by_loop.get(write.loop) if write.loop is not None else None
            if loop is None or not loop.vectorised or loop.index is None or write.index is None or wanted is None:
                return None
            index = linear_text(write.index, fortran=self.fortran, scope=self.source.scope(write.span.start_byte))
            if index != Linear.name(loop.index) or (loop.low, loop.high) != wanted:
                return None
        return True


def _disjoint(regions: list[Span]) -> tuple[list[int], list[int]]:
    """Regions merged into sorted disjoint byte intervals (starts, ends), for bisection."""
    starts: list[int] = []
    ends: list[int] = []
    for region in sorted(regions, key=lambda r: r.start_byte):
        if ends and region.start_byte <= ends[-1]:
            ends[-1] = max(ends[-1], region.end_byte)
        else:
            starts.append(region.start_byte)
            ends.append(region.end_byte)
    return starts, ends


def _simple_name(name: str) -> bool:
    return name.replace("_", "a").isalnum() and not name[0].isdigit()


def _loop_fact(raw: RawLoop, source: OmpSource, fortran: bool, role: LoopRole, device: bool) -> OmpLoop:
    """Evaluate a loop's bounds into the inclusive range its index takes."""
    at = raw.span.start_byte
    scope = source.scope(at)
    step_value = source.value(raw.step, at) if raw.step is not None else 1
    first = linear_text(raw.lower, fortran=fortran, scope=scope) if raw.lower else None
    bound = linear_text(raw.upper, fortran=fortran, scope=scope) if raw.upper else None
    low = high = None
    one = Linear.const(1)
    if raw.compare in ("<", "<=", "!=") and (step_value is None or step_value > 0):
        low = first
        high = None if bound is None else (bound if raw.compare == "<=" else bound - one)
    elif raw.compare in (">", ">=") and step_value is not None and step_value < 0:
        high = first
        low = None if bound is None else (bound if raw.compare == ">=" else bound + one)
    step_text = raw.step
    if step_text is not None and step_value is not None and step_text.strip() in ("1", "-1", "-(1)"):
        step_text = None if step_value == 1 else step_text
    return OmpLoop(
        span=raw.span,
        body=raw.body,
        index=raw.index,
        lower=raw.lower,
        upper=raw.upper,
        upper_inclusive=raw.compare in ("<=", ">="),
        step=step_text,
        low=low,
        high=high,
        step_value=step_value,
        role=role,
        device=device,
        kind=raw.kind,
    )
