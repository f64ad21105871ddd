"""Data copied from the device to the host and back again unchanged, or partial results finished on the host.

What it does
    Follows each copy to the host through the host flow of its function and reports three shapes:

    * a copy to the device of host data that came from the device and that the host did not change in
      between: `q.memcpy(h, d_a, …)` then `q.memcpy(d_b, h, …)`, or `target update from(x)` then
      `target update to(x)`, in that order or round a loop (back at the end of one iteration, out at
      the start of the next). The device data it came from must still hold it: no device step wrote it
      in between (then the copy out restores an older state, which the program may mean);
    * two OpenMP target regions, outside any loop, where the first copies an array back (`from`,
      `tofrom`) and the second copies it out again (`to`, `tofrom`) with no host change in between and
      no data region keeping it on the device (in a loop that is KL701's finding);
    * per-work-group partial results brought to the host and finished there: a kernel writes one
      element per work-group (indexed by `get_group(…)`), the array is copied to the host, and the
      host's next use folds it into one value (`sum += partial[i]` in a loop). Reported as information:
      one small kernel could finish it on the device, a gain that depends on the platform.

    A write to the host data, a call it is passed to, or a call that is not followed keeps the first
    two shapes away.

Why it matters
    The host link is an order of magnitude slower than device memory. Data that goes to the host and
    comes back unchanged crosses it twice for nothing: a device-to-device copy, or keeping the data in
    place, does the same. The guide's advice: keep intermediate results on the device; its reduction
    example shows partial results finished on the host next to a version that finishes them on the
    device with one more small kernel.

Example
    q.memcpy(h_field, d_field, bytes).wait();
    q.memcpy(d_next, h_field, bytes);                       // KL703: nothing changed h_field

    q.memcpy(h_partial, d_partial, groups * sizeof(float)).wait();
    for (int g = 0; g < groups; ++g) sum += h_partial[g];  // KL703 (info): one per work-group

Fix
    q.memcpy(d_next, d_field, bytes);                       // device to device

    Finish a reduction on the device: a kernel of one work-item that sums the partial results (or
    `sycl::reduction`), then copy back the one value. For OpenMP, one `target data` region around
    both target regions, or drop the `target update to` of data the host did not change.

Severity
    Warning for data that comes back and goes out again unchanged: the copy out is provably redundant
    and the message names the device-side alternative. Info when the copies are known to move less than
    a page (4 KiB) each time: the link's time for them is negligible, and what dropping them saves is
    each copy's own latency, which the device model does not price. Info for partial results finished
    on the host: true, but finishing them on the device pays only on some platforms (the guide says so).

Occupancy basis
    None: the cost is data movement, the bytes of the needless copies over the host link (per
    iteration, × the loop's trip count when known, for copies in a loop).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, HostFlow, HostStep, OmpConstruct
from kernlint.facts.openmp import map_item_bytes
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import transfer_cost
from kernlint_rules.transfers.flows import loop_evidence, loop_phrase, mapped_by_callers, repeating_loop

#: Copies moving fewer bytes than a page per iteration cost their latency, not link time: information.
SMALL_COPY_BYTES = 4096


class RoundTrip(Rule):
    code = "KL703"
    name = "round-trip"
    severity = Severity.WARNING

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for flow in facts.host_flows:
            for position, step in enumerate(flow.steps):
                if step.kind == "copy" and step.direction == "to-host" and len(step.writes) == 1:
                    yield from self._copied_back(flow, position, step, ctx)
                    found = self._partials(flow, position, step, ctx)
                    if found is not None:
                        yield found
                elif step.kind == "launch" and step.construct is not None:
                    yield from self._target_pairs(facts, flow, position, step, ctx)

    # -- a copy back, then out again --------------------------------------------------------------

    def _copied_back(self, flow: HostFlow, position: int, back: HostStep, ctx: RuleContext) -> Iterator[Diagnostic]:
        host = back.writes[0]
        sources = set(back.reads) if back.construct is None else {host}
        for later, between in _following(flow, position):
            step = flow.steps[later]
            out = step.kind == "copy" and step.direction == "to-device" and host in step.reads
            if out and not step.conditional:
                yield self._round_trip(flow, back, step, sources, between, ctx)
                return
            if step.kind == "call" or (step.kind == "use" and host in step.writes):
                return
            if step.kind in ("launch", "copy") and (set(step.writes) & (sources | {host})):
                return  # the device data changed, or the host data was overwritten by another copy

    def _round_trip(
        self,
        flow: HostFlow,
        back: HostStep,
        out: HostStep,
        sources: set[str],
        between: list[HostStep],
        ctx: RuleContext,
    ) -> Diagnostic:
        host = back.writes[0]
        read = any(s.kind == "use" and host in s.reads for s in between)
        loop_index = repeating_loop(flow, out)
        loop = flow.loops[loop_index] if loop_index is not None and loop_index in back.loops else None
        copies = 1 if read or loop is None else 2
        source = sorted(sources)[0] if sources else host
        round_loop = loop is not None and out.span.start_byte < back.span.start_byte
        target = out.writes[0] if out.writes else "the destination"
        if out.construct is not None:
            advice = f"the device still holds it: drop `{out.form}`"
        elif target == source and round_loop and loop is not None:
            advice = (
                f"`{target}` still holds it from the previous iteration: copy `{host}` in once before "
                f"{loop_phrase(loop, ctx.language)} and drop this copy"
            )
        elif target == source:
            advice = f"`{target}` still holds it: drop this copy"
        else:
            advice = f"copy device to device (`{target}` from `{source}`) and leave `{host}` out of it"
        where = f" round {loop_phrase(loop, ctx.language)}" if loop is not None and round_loop else ""
        message = (
            f"`{out.form}` copies `{host}` to the device, but `{host}` came from the device (`{back.form}`, line "
            f"{back.span.line}){where} and the host has not changed it since: {advice}"
        )
        repeats = loop.trip_count if loop is not None else None
        nbytes = out.bytes if out.bytes is not None else back.bytes
        return ctx.diagnostic(
            out.span,
            message,
            severity=Severity.INFO if nbytes is not None and nbytes * copies < SMALL_COPY_BYTES else None,
            evidence={
                "variable": host,
                "copied_back_line": back.span.line,
                "host_reads_between": read,
                **(loop_evidence(loop) if loop is not None else {}),
            },
            related=[(back.span, f"where `{host}` came back from the device")],
            cost=transfer_cost(
                ctx.devices,
                nbytes,
                copies,
                per="per iteration" if loop is not None else "each time",
                repeats=repeats,
                repeat_word="per loop" if repeats is not None else "",
                missing=() if nbytes is not None else (f"the size of `{host}` in bytes",),
                assumptions=(
                    "the copy out is needless"
                    + ("" if copies == 1 else "; so is the copy back, which the loop's host code never reads"),
                ),
            ),
        )

    # -- two target regions ------------------------------------------------------------------------

    def _target_pairs(
        self, facts: FileFacts, flow: HostFlow, position: int, first: HostStep, ctx: RuleContext
    ) -> Iterator[Diagnostic]:
        if repeating_loop(flow, first) is not None or first.construct is None:
            return
        construct = facts.omp[first.construct]
        if "target" not in construct.leaves or facts.constructs_around(construct.span):
            return
        for name in first.writes:
            if name not in first.reads and name not in _mapped(construct, ("from", "tofrom")):
                continue
            if name in flow.parameters and mapped_by_callers(facts, flow, name) is not False:
                continue  # the caller may keep it on the device around the call
            for later in range(position + 1, len(flow.steps)):
                step = flow.steps[later]
                if (step.kind == "use" and name in step.writes) or step.kind == "call" or step.conditional:
                    break
                if step.kind == "launch" and step.construct is not None and name in step.reads:
                    second = facts.omp[step.construct]
                    if "target" in second.leaves and name in _mapped(second, ("to", "tofrom")):
                        between = list(flow.steps[position + 1 : later])
                        yield self._pair(construct, second, name, between, ctx)
                    break
                if step.touches(name) and step.kind != "use":
                    break

    def _pair(
        self, first: OmpConstruct, second: OmpConstruct, name: str, between: list[HostStep], ctx: RuleContext
    ) -> Diagnostic:
        read = any(s.kind == "use" and name in s.reads for s in between)
        items = second.directive.map_items if second.directive is not None else ()
        item = next((m.item for m in items if m.item.name == name), None)
        nbytes = map_item_bytes(second, item.text) if item is not None else None
        return ctx.diagnostic(
            second.span,
            f"this target region copies `{name}` to the device, but the target region at line {first.span.line} "
            f"copied it back to the host when it ended and the host has not changed it since: put both regions in "
            f"one `#pragma omp target data map(tofrom: {item.text if item is not None else name})` region",
            evidence={"variable": name, "first_line": first.span.line, "host_reads_between": read},
            related=[(first.span, f"the target region that copies `{name}` back")],
            cost=transfer_cost(
                ctx.devices,
                nbytes,
                1 if read else 2,
                per="each time",
                missing=() if nbytes is not None else (f"the size of `{name}` in bytes",),
                assumptions=("the copy back is needed only where the host reads it",),
            ),
        )

    # -- partial results -----------------------------------------------------------------------------

    def _partials(self, flow: HostFlow, position: int, back: HostStep, ctx: RuleContext) -> Diagnostic | None:
        host = back.writes[0]
        source = back.reads[0] if len(back.reads) == 1 else None
        if source is None or back.construct is not None:
            return None
        writer = next(
            (s for s in reversed(flow.steps[:position]) if s.kind in ("launch", "copy") and source in s.writes), None
        )
        if writer is None or writer.kind != "launch" or source not in writer.per_group:
            return None
        use = next((s for s in flow.steps[position + 1 :] if s.kind != "wait" and s.touches(host)), None)
        if use is None or use.kind != "use" or not use.reduces:
            return None
        return ctx.diagnostic(
            use.span,
            f"`{host}` holds one partial result per work-group, copied from `{source}` (line {back.span.line}) "
            "and finished on the host: one more small kernel (a single work-item, or `sycl::reduction`) can "
            "finish it on the device and copy back one value",
            severity=Severity.INFO,
            evidence={"variable": host, "partials": source, "copied_back_line": back.span.line},
            related=[(back.span, "the copy of the partial results"), (writer.span, "the kernel that writes them")],
            cost=transfer_cost(
                ctx.devices,
                back.bytes,
                1,
                per="each time",
                missing=() if back.bytes is not None else (f"the size of `{host}` in bytes",),
                assumptions=("a device-side finish copies back one element instead",),
            ),
        )


def _following(flow: HostFlow, position: int) -> Iterator[tuple[int, list[HostStep]]]:
    """The steps after `position` in the order they run, each with the steps between: to the end of
    the function, or round the innermost repeating loop (up to `position` again)."""
    step = flow.steps[position]
    loop = repeating_loop(flow, step)
    if loop is None:
        order = list(range(position + 1, len(flow.steps)))
    else:
        inside = flow.in_loop(loop)
        order = [p for p in inside if p > position] + [p for p in inside if p < position]
    for index, later in enumerate(order):
        yield later, [flow.steps[p] for p in order[:index]]


def _mapped(construct: OmpConstruct, types: tuple[str, ...]) -> set[str]:
    directive = construct.directive
    if directive is None:
        return set()
    names = {m.item.name for m in directive.map_items if m.map_type in types}
    return names | ({m.name for m in construct.implicit_maps} if "tofrom" in types else set())
