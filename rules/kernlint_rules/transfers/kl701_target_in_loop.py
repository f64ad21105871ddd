"""An OpenMP target region in a host loop maps arrays to and from the device on every iteration.

What it does
    Looks at every `target` construct (`target`, `target teams distribute parallel for`, …) that runs on
    each iteration of a host loop, written in the loop or in a function of the same file that the loop
    calls, and at the arrays it maps with a copy: `map(to:)`, `map(from:)`, `map(tofrom:)` or no map
    type, and the arrays with a size it uses without a clause (mapped tofrom implicitly; in Fortran
    every array). An array stays on the device, and is not reported, when an enclosing `target data`
    region maps it (around the construct, or around the call), when a `target enter data` of the file
    maps it, when it is `declare target`, or when the map says `present` or `always` (copying is what
    the program asks for). `alloc`, `is_device_ptr` and `has_device_addr` move nothing. A copy is
    needless when the host does not need it in the loop: the copy to the device when the host does
    not write the array anywhere in the loop, the copy back when it does not read it there. The
    finding names the arrays with a needless copy; an array the host both reads and writes in the loop
    is left out, and so is a construct whose arrays all are.

Why it matters
    Without a data region around the loop, each iteration copies every mapped array over the host link
    when the region starts and back when it ends, an order of magnitude slower than device memory. The
    guide's first rules for offload: keep data on the device for as long as possible and transfer only
    what the host needs.

Example
    for (int step = 0; step < steps; ++step) {
        #pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: b[0:n])   // KL701
        for (int i = 0; i < n; ++i) b[i] += a[i];
    }

Fix
    A `target data` region around the loop keeps the arrays on the device (`map(to:)` what is only
    read, `from` what is only written); `target update` moves them where the host needs them.

    #pragma omp target data map(to: a[0:n]) map(tofrom: b[0:n])
    for (int step = 0; step < steps; ++step) {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; ++i) b[i] += a[i];
    }

Severity
    Warning: every iteration copies the arrays over the host link, and the message names the data
    region that keeps them on the device. Never an error (the results are the same); nothing when a
    copy may be what the host needs (it reads or writes the array in the loop, the section moves with
    the loop, or a map asks for the copy).

Occupancy basis
    None: the cost is data movement, the mapped bytes per iteration (element size × extents, when the
    declarations and constants give them) over the device's host link, × the loop's trip count when
    known. An integrated GPU has no link cost to quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, HostFlow, HostLoop, HostStep, OmpConstruct
from kernlint.facts.openmp import map_item_bytes
from kernlint.facts.openmp_directive import OmpSection
from kernlint.records import record
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import transfer_cost
from kernlint_rules.transfers import map_items
from kernlint_rules.transfers.flows import (
    directive,
    host_access,
    iterations,
    loop_evidence,
    loop_phrase,
    mapped_by_callers,
    repeating_loop,
)

_COPY_IN = frozenset({"to", "tofrom"})
_COPY_OUT = frozenset({"from", "tofrom"})
_KEEPING = frozenset({"present", "always"})
_WORD = re.compile(r"[A-Za-z_]\w*")


@record
class Mapped:
    """An array a target construct copies, with the direction of each needless copy."""

    text: str  # as written in the map clause, or the name of an implicitly mapped array
    name: str  # the variable, as the loop's host code names it (the caller's argument through a call)
    map_type: str
    copy_in: bool
    copy_out: bool
    bytes: int | None

    @property
    def copies(self) -> int:
        return int(self.copy_in) + int(self.copy_out)


@record
class Repeat:
    """Where a target construct repeats: the flow and loop holding it (or the call of its function)."""

    flow: HostFlow
    loop: int
    anchor: HostStep  # the construct's launch step, or the call
    names: dict[str, str]  # the construct's variable -> the loop's name for it


class TargetInLoop(Rule):
    code = "KL701"
    name = "target-in-loop"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran", "cpp", "sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for flow in facts.host_flows:
            resident = set(map_items.resident(facts, flow.span))
            for step in flow.steps:
                if step.kind != "launch" or step.construct is None or step.conditional:
                    continue
                construct = facts.omp[step.construct]
                if "target" not in construct.leaves:
                    continue
                for repeat in _repeats(facts, flow, step):
                    found = self._finding(facts, construct, repeat, resident, ctx)
                    if found is not None:
                        yield found

    def _finding(
        self, facts: FileFacts, construct: OmpConstruct, repeat: Repeat, resident: set[str], ctx: RuleContext
    ) -> Diagnostic | None:
        flow, anchor = repeat.flow, repeat.anchor
        kept = map_items.mapped_around(facts, anchor.span, construct) | resident | map_items.resident(facts, flow.span)
        inside = [flow.steps[p] for p in flow.in_loop(repeat.loop)]
        mapped = []
        for text, own, map_type, nbytes in _copied(construct):
            name = repeat.names.get(own)
            if name is None or own in kept or name in kept or mapped_by_callers(facts, flow, name):
                continue
            reads, writes = host_access(inside, name)
            item = Mapped(
                text, name, map_type, map_type in _COPY_IN and not writes, map_type in _COPY_OUT and not reads, nbytes
            )
            if item.copies:
                mapped.append(item)
        if not mapped:
            return None
        loop = flow.loops[repeat.loop]
        where = loop_phrase(loop, ctx.language)
        through = f" (through the call of `{anchor.callee}` at line {anchor.span.line})" if anchor.callee else ""
        listed = ", ".join(f"`{m.text}` {_copy_words(m)}" for m in mapped)
        if anchor.callee:
            region = "a `target data` region mapping " + ", ".join(f"`{m.name}` ({m.map_type})" for m in mapped)
        else:
            clauses = " ".join(f"map({m.map_type}: {m.text})" for m in mapped)
            region = f"`{directive(ctx.language, 'target data ' + clauses)}`"
        message = (
            f"`{directive(ctx.language, construct.kind or 'target')}` runs on every iteration of {where}{through} "
            f"and copies {listed} each time, with no enclosing `target data` keeping "
            f"{'it' if len(mapped) == 1 else 'them'} on the device, while the loop's host code does not need the "
            f"copies: put {region} around the loop (and `target update` where the host needs the data)"
        )
        return ctx.diagnostic(
            construct.span,
            message,
            evidence={
                "construct": construct.kind,
                "mapped": [
                    {
                        "item": m.text,
                        "map_type": m.map_type,
                        "copy_in": m.copy_in,
                        "copy_out": m.copy_out,
                        "bytes": m.bytes,
                    }
                    for m in mapped
                ],
                "callee": anchor.callee,
                **loop_evidence(loop),
            },
            related=[(loop.span, "the loop the target region repeats in")]
            + ([(anchor.span, "the call that runs it")] if anchor.callee else []),
            cost=target_in_loop_cost(ctx, mapped, loop),
        )


def _repeats(facts: FileFacts, flow: HostFlow, step: HostStep) -> list[Repeat]:
    """Where the construct of `step` repeats: the loop around it in its function, else each call of its
    function made on every iteration of a loop of another function of the file (its mapped parameters
    named by the call's arguments)."""
    loop = repeating_loop(flow, step)
    if loop is not None:
        names = {n: n for n in (*step.reads, *step.writes)}
        return [Repeat(flow, loop, step, names)]
    found = []
    for caller in facts.host_flows:
        for call in caller.steps:
            if call.kind != "launch" or call.callee != flow.function or call.callee is None or call.conditional:
                continue
            outer = repeating_loop(caller, call)
            if outer is None:
                continue
            names = {
                parameter: argument
                for parameter, argument in zip(flow.parameters, call.arguments, strict=False)
                if argument is not None
            }
            if _host_touches_parameters(flow, step, names):
                continue
            found.append(Repeat(caller, outer, call, names))
    return found


def _host_touches_parameters(flow: HostFlow, step: HostStep, names: dict[str, str]) -> bool:
    """Whether the called function's own host code uses an array the construct maps (then the copies
    may be what it needs)."""
    mapped = set(step.reads) | set(step.writes)
    return any(s.kind in ("use", "call") and (set(s.reads) | set(s.writes)) & mapped & set(names) for s in flow.steps)


def _copied(construct: OmpConstruct) -> Iterator[tuple[str, str, str, int | None]]:
    """(text, variable, map type, bytes) of each array the construct copies: its map items with a copying
    type and no `present`/`always`, and the arrays it maps implicitly (tofrom)."""
    directive = construct.directive
    if directive is None:
        return
    for mapped in directive.map_items:
        if mapped.map_type not in _COPY_IN | _COPY_OUT:
            continue
        if any(m.lower() in _KEEPING for m in mapped.modifiers):
            continue
        facts = construct.mapped(mapped.item.text)
        if not mapped.item.dims and (facts is None or facts.storage != "array"):
            continue  # a scalar (a few bytes), or a pointer alone (KL705)
        if _moves_with_the_loop(construct, mapped.item.dims):
            continue  # a different section each iteration (`a[t * tile:tile]`): each copy is new data
        name = map_items.fold(mapped.item.name, construct)
        yield mapped.item.text, name, mapped.map_type, map_item_bytes(construct, mapped.item.text)
    for implicit in construct.implicit_maps:
        yield implicit.name, implicit.name, "tofrom", implicit.bytes


def _moves_with_the_loop(construct: OmpConstruct, dims: tuple[OmpSection, ...]) -> bool:
    """Whether a section's bounds name the index of a loop around the construct."""
    indices = {loop.index for loop in construct.enclosing_loops if loop.index}
    words = {w for d in dims for text in (d.lower, d.length, d.upper) if text for w in _WORD.findall(text)}
    return bool(indices & words)


def _copy_words(mapped: Mapped) -> str:
    if mapped.copy_in and mapped.copy_out:
        return "to the device and back"
    return "to the device" if mapped.copy_in else "back to the host"


def target_in_loop_cost(ctx: RuleContext, mapped: list[Mapped], loop: HostLoop) -> Cost:
    """The needless copies of one iteration (Σ bytes × copies of each array) over the host link, × the
    loop's trip count when known; the first iteration's copies in and the last one's out are needed."""
    total: int | None = 0
    missing = []
    for item in mapped:
        if item.bytes is None:
            missing.append(f"the size of `{item.text}` in bytes")
        if total is not None and item.bytes is not None:
            total += item.bytes * item.copies
        else:
            total = None
    repeats = loop.trip_count
    if repeats is None:
        written = f" (`{loop.bound}`)" if loop.bound else ""
        missing.append(f"the loop's trip count{written} (for the per-loop total)")
    return transfer_cost(
        ctx.devices,
        total,
        1,
        per="per iteration",
        repeats=repeats,
        repeat_word="per loop",
        missing=missing,
        assumptions=(
            f"the mapped arrays' needless copies on each of {iterations(loop)}, summed per iteration",
            "a data region keeps one copy in before the loop and one out after it",
        ),
        share=1.0 - 1.0 / repeats if repeats else 1.0,
    )
