"""A SYCL buffer is constructed inside a host loop.

What it does
    Flags a `sycl::buffer` whose construction sits in the body of a host-side `for`, range-`for`,
    `while` or `do … while` loop, in any of its spellings: a declaration (`sycl::buffer<T, 1> b(…)`),
    `auto b = sycl::buffer<T>(…)`, class template argument deduction (`sycl::buffer b(vec)`), a
    temporary passed straight to a call, or `new sycl::buffer<…>(…)`. Buffers created inside a kernel
    or before the loop are not flagged, nor are loops that run once (`for (i = 0; i < 1; ++i)`,
    `do … while (0)`). It also follows one call level: a function of the same file that builds a
    buffer over host memory (outside any loop of its own), called inside a host loop, is flagged at
    the call, with the buffer it builds.

Why it matters
    A buffer owns its data for its lifetime. Built over host memory, it copies that memory to the
    device on first use and writes it back when it is destroyed, so a buffer that lives for one loop
    iteration pays a host-to-device and a device-to-host transfer on every iteration, and the runtime
    cannot keep the data resident between kernels. A buffer built from a range alone still allocates
    device memory and tracks dependencies anew each time. The guide's advice is to keep data on the
    device for as long as possible and to avoid declaring buffers in a loop.

Example
    for (int step = 0; step < steps; ++step) {
        sycl::buffer<float> grid(host.data(), sycl::range<1>(n));   // KL101
        q.submit([&](sycl::handler &h) { … });
    }

    void smooth(sycl::queue &q, std::vector<float> &host) {
        sycl::buffer<float> grid(host.data(), sycl::range<1>(host.size()));
        q.submit([&](sycl::handler &h) { … });
    }
    for (int step = 0; step < steps; ++step) smooth(q, host);       // KL101, through the call

Fix
    Construct the buffer once, before the loop, and let every iteration's kernels use it (pass it to
    the helper rather than building it there); read results back once after the loop (a
    `host_accessor` or the buffer's destruction):

    sycl::buffer<float> grid(host.data(), sycl::range<1>(n));
    for (int step = 0; step < steps; ++step) {
        q.submit([&](sycl::handler &h) { … });
    }

Severity
    Warning: the message names the change (build the buffer once, before the loop) and prices it
    from the device's host link: bytes × transfers ÷ bandwidth per iteration, a copy an order of
    magnitude slower than device memory, which is material for any kernel run in a loop. Never
    an error: the program still computes its results. A buffer the loop keeps (stored in a
    container or an outer variable) is not reported at all.

Occupancy basis
    None: the cost is data movement, not occupancy. The finding does not depend on the device.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import Accessor, Buffer, FileFacts
from kernlint.occupancy import DeviceProfile
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import transfer_cost
from kernlint_rules.data.host_loops import LOOP_WORDS


class BufferInLoop(Rule):
    code = "KL101"
    name = "buffer-in-loop"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        yield from self._through_calls(facts, ctx)
        for buffer in facts.buffers:
            if buffer.in_device_code or buffer.kept:
                continue  # kept: a setup loop building one buffer per item, none rebuilt per iteration
            loop = facts.repeating_loop(buffer.span, side="host")
            if loop is None:
                continue
            what = f"sycl::buffer `{buffer.name}`" if buffer.name else "a temporary sycl::buffer"
            if buffer.has_host_data is False:
                cost = (
                    "a device allocation and fresh dependency tracking on every iteration, and its "
                    "contents do not survive to the next one"
                )
            else:
                cost = (
                    "a host-to-device copy on first use and a device-to-host write-back at its "
                    "destruction on every iteration"
                )
            yield ctx.diagnostic(
                buffer.span,
                f"{what} is constructed inside the {LOOP_WORDS[loop.kind]} at line {loop.span.line}: "
                f"{cost}; construct it once before the loop",
                evidence={
                    "loop_line": loop.span.line,
                    "loop_kind": loop.kind,
                    "buffer": buffer.name,
                    "construction": buffer.form,
                    "host_data": buffer.has_host_data,
                },
                related=[(loop.span, f"the {LOOP_WORDS[loop.kind]} the buffer is constructed in")],
                cost=buffer_in_loop_cost(facts, [buffer], ctx.devices, loop.trip_count),
            )

    def _through_calls(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        """Calls, inside a host loop, of a function of the file that builds a buffer over host memory
        outside any loop of its own (one inside its own loop is reported where it is built)."""
        for call in facts.calls:
            loop = facts.repeating_loop(call.span, side="host")
            built = [
                b
                for b in facts.buffers_in(call.callee)
                if b.has_host_data and not b.in_device_code and facts.repeating_loop(b.span, side="host") is None
            ]
            if loop is None or not built:
                continue
            first = built[0]
            what = f"sycl::buffer `{first.name}`" if first.name else "a temporary sycl::buffer"
            more = f" and {len(built) - 1} more" if len(built) > 1 else ""
            yield ctx.diagnostic(
                call.span,
                f"`{call.callee}` is called inside the {LOOP_WORDS[loop.kind]} at line {loop.span.line} and "
                f"constructs {what} (line {first.span.line}){more} over host memory: a host-to-device copy "
                "on first use and a device-to-host write-back at its destruction on every iteration; "
                "construct the buffer once before the loop and pass it in",
                evidence={
                    "loop_line": loop.span.line,
                    "loop_kind": loop.kind,
                    "buffer": first.name,
                    "construction": first.form,
                    "host_data": True,
                    "callee": call.callee,
                    "buffers": len(built),
                },
                related=[
                    (loop.span, f"the {LOOP_WORDS[loop.kind]} the call is made in"),
                    *((b.span, f"the buffer `{call.callee}` constructs") for b in built),
                ],
                cost=buffer_in_loop_cost(facts, built, ctx.devices, loop.trip_count),
            )


def element_size_of(facts: FileFacts, buffer: Buffer) -> int | None:
    """Bytes per element of `buffer`, from an accessor over it whose element type is arithmetic."""
    for accessor in facts.accessors_over(buffer.name) if buffer.name else ():
        if accessor.uses is not None and accessor.uses.element_size:
            return accessor.uses.element_size
    return None


def _writers(accessors: Iterable[Accessor]) -> bool | None:
    """Whether any accessor may write (None when there is none to judge by)."""
    modes = [a.mode for a in accessors]
    if not modes:
        return None
    return any(m != "read" for m in modes)


def buffer_in_loop_cost(
    facts: FileFacts, buffers: Sequence[Buffer], devices: Sequence[DeviceProfile], trip_count: int | None = None
) -> Cost:
    """KL101: bytes per iteration (extent × element size, summed over `buffers`: one built in the loop,
    or those a function called in the loop builds) × transfers per iteration ÷ link bandwidth, per
    iteration, and per loop when the trip count is known."""
    hosted = [b for b in buffers if b.has_host_data is not False]
    if not hosted:
        return Cost(
            None,
            "s",
            "on the host link: none (no host memory behind the buffer)",
            "device allocation + dependency tracking per iteration (not in the device model)",
            "the buffer is built from a range alone: each iteration allocates device memory and its "
            "contents are lost, but nothing crosses the host link",
            missing=("the runtime's allocation time (not in the device model)",),
        )
    missing: list[str] = []
    assumptions: list[str] = []
    total: int | None = 0
    transfers = 1
    for buffer in hosted:
        extent, element = buffer.extent, element_size_of(facts, buffer)
        if extent is None or not extent.known:
            missing.append(f"the extent of buffer `{buffer.name or 'temporary'}`")
        if element is None:
            missing.append(f"the element size of buffer `{buffer.name or 'temporary'}`")
        if total is not None and extent is not None and extent.known and element is not None:
            total += math.prod(extent.dims) * element  # type: ignore[arg-type]
        else:
            total = None
        if buffer.has_host_data is None:
            assumptions.append(
                f"buffer `{buffer.name}` is constructed over host memory (the construction does not say)"
            )
        same = [a for a in facts.accessors_over(buffer.name) if a.target == "device"] if buffer.name else []
        if _writers(same) is not False:
            transfers = 2
    if transfers == 1:
        assumptions.append(
            "one host-to-device copy per iteration: every accessor over the buffer is read-only, "
            "so nothing is written back"
        )
    else:
        assumptions.append(
            "two copies per iteration: host-to-device on first use, device-to-host at "
            "destruction (the runtime skips the write-back when no kernel wrote the buffer)"
        )
    if trip_count is None:
        missing.append("the loop's trip count (for the per-loop total)")
    else:
        assumptions.append("one iteration's copies are needed; the others are the waste")
    share = 1.0 - 1.0 / trip_count if trip_count else 1.0
    return transfer_cost(
        devices,
        total,
        transfers,
        per="per iteration",
        repeats=trip_count,
        repeat_word="per loop",
        missing=missing,
        assumptions=assumptions,
        share=share,
    )
