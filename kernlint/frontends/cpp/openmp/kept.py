"""The OpenMP facts of a C/C++ file in the language server's worker: the constructs and the solved
facts (branches, memory accesses) of each component of its device parallel regions kept between
edits, under one key (`reuse`), and worked out again only for the components an edit touched.

Which regions are device parallel regions, and so what the components and their keys are, is read
from the constructs' heads (`_KeepingBuilder.head`: span, directive, region, device flag, the two clauses that make a
region one-lane), before any construct is built. A component's constructs are those written in its
units, or just before one (the directives whose region is the unit: the unit extended back to them,
`_extended`, whose text the key holds whole, comments included, so that everything in it moves by one
offset). Of those, the ones that read nothing but their own code and the names around it are kept:
not a `target` construct (its implicit maps read the declarations of every target region of the
file and the pointers it gives device memory), not one with `map` clauses (how a mapped variable is
used reads its whole function and what may alias it), not a `prefetch` (the maps around it). Each
keeps its facts of its code, loops, conditions, clause values and device flag, which the component's
key covers as it covers the solved facts (`reuse`: the units' texts, the host text before them, what
may write a name they read, every directive's text, the headers, the scope). What it holds outside the
extended units (a loop or condition around it outside them) cannot move with it, so it is built again;
its `unit` (the function it is in) and its directive (which holds its lines) are read anew. The loops
of a kept construct are given to the builder, so the constructs built around them (a `target data`
holding every region) do not work them out again. The components not kept are solved in batches
(`reuse.batches`: one, or one per process where the worker may fork children), the batches other than
the lightest in forked children (`fanout.forked_map`), a batch whose child failed in this process; their
facts are stored in the components' order, as one batch stores them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from kernlint import fanout
from kernlint.facts import OmpConstruct, Pragma, Span
from kernlint.facts.memory import MemoryAccess
from kernlint.facts.openmp import OmpCondition, OmpLoop
from kernlint.facts.openmp_directive import OmpDirective
from kernlint.frontends.cpp.device import reuse
from kernlint.frontends.cpp.openmp import reuse as openmp_reuse
from kernlint.frontends.cpp.openmp.reuse import ComponentFacts, Keys, Source, assembled, planned, solved
from kernlint.frontends.openmp.dependence import device_regions
from kernlint.frontends.openmp.device_code import RegionBranches
from kernlint.frontends.openmp.facts import Located, OmpSource, _Builder
from kernlint.records import record

if TYPE_CHECKING:
    from kernlint.frontends.cpp.unit import CppUnit


class _Source(Source, OmpSource, Protocol):
    """What this module reads of `macros.MacroAwareOmpSource` (which imports it)."""


@record
class _Kept:
    """A component's kept constructs (None: one built each time), in the order of its members, and
    its solved facts."""

    constructs: tuple[OmpConstruct | None, ...]
    facts: ComponentFacts


class _KeepingBuilder(_Builder):
    """The constructs' builder, told the loops of the constructs kept (see the module)."""

    def know(self, constructs: list[OmpConstruct]) -> None:
        for construct in constructs:
            for loop in construct.loops:
                self._loop_cache.setdefault(loop.span, loop)

    def around(self, item: Located) -> tuple[tuple[OmpLoop, ...], tuple[OmpCondition, ...]]:
        """The loops and conditions around a directive, as `construct` reads them."""
        loops = tuple(self.loop(raw) for raw in self.source.loops_around(item.span))
        return loops, tuple(self.condition(raw) for raw in self.source.conditions_around(item.span))

    def head(self, item: Located) -> OmpConstruct:
        directive = item.directive
        on_device = self.in_target(item.span) or (item.region is not None and self.in_target(item.region))
        if not isinstance(directive, OmpDirective):
            return OmpConstruct(item.span, None, region=item.region, device=on_device, error=directive)
        at = item.span.start_byte
        values = tuple(
            (name, self.source.value(clause.expr, at) if clause.expr else None)
            for name in ("thread_limit", "num_threads")  # (what makes a region one-lane)
            if (clause := directive.clause(name)) is not None
        )
        device = on_device or "target" in directive.leaves
        return OmpConstruct(item.span, directive, region=item.region, values=values, device=device)


def kept_facts(
    unit: CppUnit, source: _Source, pragmas: tuple[Pragma, ...], cache: reuse.ComponentCache
) -> tuple[tuple[OmpConstruct, ...], RegionBranches, tuple[MemoryAccess, ...]] | None:
    """The file's constructs, and the branches and memory accesses of its device parallel regions, as
    `build_constructs`, `solve_regions`, `openmp_branches` and `openmp_memory_accesses` give them,
    from `cache` where a component's key is unchanged; None when the file must be analysed whole (units
    that overlap; a syntax error, unless children may be forked: then every component is solved, in
    batches, and none is looked up or stored)."""
    if unit.root.has_error and not fanout.children():
        return None
    located = source.located()
    builder = _KeepingBuilder(source, located)
    if not located:
        return (), RegionBranches(), ()
    heads = tuple(builder.head(item) for item in located)
    regions = device_regions(heads)
    if not regions:
        return tuple(builder.construct(item) for item in located), RegionBranches(), ()
    plan = planned(source, regions)
    if plan is None:
        return None
    starts = _extended(located, plan.every)
    if starts is None:
        return None
    keys = None if unit.root.has_error else Keys(unit, source, heads, pragmas, plan.every, cache.scope)
    data = unit.root.text or b""
    built: list[OmpConstruct | None] = [None] * len(located)
    found: list[ComponentFacts | None] = []
    wanted: list[tuple[int, list[Span], tuple[object, ...] | None, list[int]]] = []
    for index, (own, functions) in enumerate(plan.components):
        units = [c.region for c in own if c.region is not None] + functions
        members = [
            at
            for at, item in enumerate(located)
            if any(starts[u] <= item.span.start_byte and item.span.end_byte <= u.end_byte for u in units)
        ]
        key = keys.key(units) if keys is not None else None
        if key is not None:
            key = ("constructs", key, tuple(data[starts[u] : u.start_byte] for u in units))
        placed = tuple((starts[u], u.end_byte, located_line(located, starts[u], u)) for u in units)
        kept = cache.get(key, placed) if key is not None else None
        if isinstance(kept, _Kept) and len(kept.constructs) == len(members):
            for at, construct in zip(members, kept.constructs, strict=True):
                item = located[at]
                if construct is not None and isinstance(item.directive, OmpDirective):
                    loops, conditions = builder.around(item)
                    built[at] = replace(
                        construct,
                        directive=item.directive,
                        unit=source.unit_of(item.span),
                        enclosing_loops=loops,
                        conditions=conditions,
                    )
            builder.know([c for c in kept.constructs if c is not None])
            found.append(kept.facts)
        else:
            found.append(None)
            wanted.append((index, units, key, members))
    constructs = tuple(c if c is not None else builder.construct(item) for c, item in zip(built, located, strict=True))
    full = {id(head): construct for head, construct in zip(heads, constructs, strict=True)}
    if openmp_reuse.SOLVED_TOGETHER:
        batches = [[wanted[at] for at in batch] for batch in openmp_reuse.batches([w[1] for w in wanted])]
    else:
        batches = [[one] for one in wanted]
    calls = []
    for batch in batches:
        chosen = {id(c) for index, _u, _k, _m in batch for c in plan.components[index][0]}
        own = [full[id(c)] for c in regions if id(c) in chosen]
        calls.append((source, constructs, own, [units for _i, units, _k, _m in batch]))
    weights = [sum(openmp_reuse.weight(units) for _i, units, _k, _m in batch) for batch in batches]
    ahead = fanout.forked_map(solved, calls, weights, openmp_reuse.SHARE_BYTES) if len(calls) > 1 else {}
    for at, (batch, call) in enumerate(zip(batches, calls, strict=True)):
        facts = ahead[at] if at in ahead else solved(*call)
        if facts is None:
            return None
        for (index, _u, _k, _m), part in zip(batch, facts, strict=True):
            found[index] = part
    for index, units, key, members in wanted:  # (stored in the order the components come)
        solved_now = found[index]
        if key is not None and solved_now is not None:
            placed = tuple((starts[u], u.end_byte, located_line(located, starts[u], u)) for u in units)
            mine = tuple(_keepable(constructs[at], placed) for at in members)
            cache.put(key, placed, _Kept(mine, solved_now))
    parts = [part for part in found if part is not None]
    full_regions = [full[id(c)] for c in regions]
    branches, memory = assembled(parts, [c.region for c in full_regions], plan.follows)
    return constructs, branches, memory


def located_line(located: list[Located], start: int, unit: Span) -> int:
    """The line of `start`: the unit's, or the directive's that starts there."""
    if start == unit.start_byte:
        return unit.line
    return next(item.span.line for item in located if item.span.start_byte == start)


def _extended(located: list[Located], units: list[Span]) -> dict[Span, int] | None:
    """Where each unit starts when extended back to the directives whose region it is (None: that
    would reach into the unit before it)."""
    starts = {unit: unit.start_byte for unit in units}
    for item in located:
        region = item.region
        if region is not None and region in starts and item.span.start_byte < starts[region]:
            starts[region] = item.span.start_byte
    ends = [0] + [unit.end_byte for unit in units]
    if any(starts[unit] < end for unit, end in zip(units, ends, strict=False)):
        return None
    return starts


def _keepable(construct: OmpConstruct, placed: tuple[tuple[int, int, int], ...]) -> OmpConstruct | None:
    """The construct to keep, without its `unit` (read anew), or None: one read from more than its own
    code and the names around it (see the module), or holding a position outside its extended unit."""
    directive = construct.directive
    if directive is None or "target" in directive.leaves or directive.has("map") or directive.kind == "prefetch":
        return None
    kept = replace(construct, unit=None, enclosing_loops=(), conditions=())
    try:
        reuse.Moves(tuple((s, e, line, s + 1, line + 1) for s, e, line in placed)).value(kept)
    except reuse.NotMovable:
        return None
    return kept
