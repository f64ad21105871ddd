"""A SYCL `malloc_shared` allocation that, inside its hot loop, only device code touches.

What it does
    Looks at every array allocated with `sycl::malloc_shared` (or `aligned_alloc_shared`) and at the
    host loops of the same function whose kernels or copies use it. When such a loop's host code never
    touches the array (no read, no write, no call it is passed to) the data only needs to be on the
    device there: the host's uses before the loop (filling it) and after it (reading the results) are
    fine, and are where explicit copies would go. The outermost such loop is named. A loop whose host
    code reads or writes the array, passes it to a function, or calls a function of the file that is
    not followed keeps the finding away: shared memory is then what the program uses. So does a
    `q.prefetch` of the array in the loop: the code already moves its pages ahead of the kernels.

Why it matters
    Shared allocations move between host and device by pages, on demand: the first kernel to touch a
    page faults and migrates it, and so does the host's first access after the loop. A device
    allocation (`sycl::malloc_device`) lives in device memory from the start; the data crosses the host
    link once each way, in bulk, with `q.memcpy` before and after the loop, and nothing is left to the
    page-migration machinery. The guide: device allocations give the best performance, and shared
    allocations transfer only what the host actually references, a page at a time.

Example
    float *grid = sycl::malloc_shared<float>(n, q);            // KL704
    init(grid, n);
    for (int step = 0; step < steps; ++step)
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { grid[i] *= 0.5f; }).wait();
    print(grid, n);

Fix
    float *grid = sycl::malloc_device<float>(n, q);
    q.memcpy(grid, host_grid, n * sizeof(float)).wait();
    for (int step = 0; step < steps; ++step)
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { grid[i] *= 0.5f; });
    q.memcpy(host_grid, grid, n * sizeof(float)).wait();

Severity
    Info: the loop itself runs on device-resident pages once they have migrated; what a device
    allocation saves is the on-demand migration, whose cost the device model cannot time. Nothing when
    the host touches the array in the loop.

Occupancy basis
    None: the cost is page migration, which the device model does not time; the finding gives the
    bytes an explicit copy would move each way over the host link instead. Reported as information:
    the loop itself runs on device-resident pages once they have migrated.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost, format_bytes
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, HostFlow, UsmAllocation
from kernlint.rule import Rule, RuleContext
from kernlint_rules.transfers.flows import loop_evidence, loop_phrase


class SharedUsmDeviceOnly(Rule):
    code = "KL704"
    name = "shared-usm-device-only"
    severity = Severity.INFO
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for allocation in facts.usm:
            if allocation.kind != "shared" or allocation.name is None:
                continue
            for flow in facts.host_flows:
                if flow.function != allocation.function or not flow.span.contains(allocation.span):
                    continue
                loop = _device_only_loop(flow, allocation.name, allocation.span.end_byte)
                if loop is not None:
                    yield self._finding(flow, loop, allocation, ctx)
                    break

    def _finding(self, flow: HostFlow, loop_index: int, allocation: UsmAllocation, ctx: RuleContext) -> Diagnostic:
        loop = flow.loops[loop_index]
        name = allocation.name
        return ctx.diagnostic(
            allocation.span,
            f"`{name}` is shared USM, but in {loop_phrase(loop, ctx.language)} only device code touches it: "
            "allocate it with `sycl::malloc_device` and copy it in before the loop and out after it with "
            "`q.memcpy`, rather than migrating it page by page on demand",
            evidence={"variable": name, "bytes": allocation.bytes, **loop_evidence(loop)},
            related=[(loop.span, "the loop where only kernels use it")],
            cost=shared_usm_cost(allocation),
        )


def _device_only_loop(flow: HostFlow, name: str, after: int) -> int | None:
    """The outermost repeating loop after the allocation whose device steps use `name` and whose host
    steps do not touch it (nor call what is not followed)."""
    for index, loop in enumerate(flow.loops):
        if not loop.repeats or loop.span.start_byte < after:
            continue
        steps = [flow.steps[p] for p in flow.in_loop(index)]
        if not any(s.kind in ("launch", "copy") and s.touches(name) for s in steps):
            continue
        if any(s.kind == "call" or (s.kind == "use" and s.touches(name)) for s in steps):
            continue
        if any(s.kind == "copy" and s.form.endswith("prefetch") and s.touches(name) for s in steps):
            continue  # the loop moves the pages ahead of its kernels itself (`q.prefetch`)
        return index
    return None


def shared_usm_cost(allocation: UsmAllocation) -> Cost:
    """What stays unknown: page migration's time. What is known: the bytes that migrate each way."""
    size = format_bytes(allocation.bytes) if allocation.bytes is not None else "the allocation's bytes"
    return Cost(
        None,
        "s",
        "page migration",
        "page-fault migration of the allocation, each way",
        f"{size} migrate to the device at the first kernel to touch them after the host's writes (the loop's "
        "first, or one before it) and back at the host's first access after the loop; a bulk `q.memcpy` "
        "moves the same bytes at the host link's bandwidth",
        missing=("the page-migration time (not in the device model)",),
        figures={"bytes": allocation.bytes},
    )
