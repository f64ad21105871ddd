"""The work-group size is not a multiple of the sub-group size: the last sub-group runs partly empty.

What it does
    For each SYCL launch with a constant work-group size (nd_range local range,
    `parallel_for_work_group` local range or `reqd_work_group_size`), checks that the number of
    work-items per work-group is a whole number of sub-groups. With a `reqd_sub_group_size` the
    check uses that size. Without one the compiler picks the size, so the launch is reported only
    when no sub-group size the device supports divides the work-group (for example 100 work-items:
    not a multiple of 8, 16 or 32); the figures then use the model's default size for the device,
    which the message names. NVIDIA GPUs have one size, the 32-wide warp. Work-groups above the
    device maximum are left to KL201.

Why it matters
    A sub-group is one hardware thread running its work-items as the lanes of a SIMD instruction
    (a warp on NVIDIA). Work-items are packed into sub-groups within their work-group, so when the
    work-group size is not a multiple of the sub-group size its last sub-group is partial: it still
    occupies a whole thread, with idle lanes in every instruction it executes. The occupancy model
    counts it that way too: ceil(work-group size / sub-group size) threads per work-group. The NVIDIA
    chapter of the guide states the rule directly: the work-group size should always be a multiple
    of the sub-group size of 32.

Example
    // KL203: 4 threads, 28 of 128 lanes idle
    h.parallel_for(sycl::nd_range<1>(N, 100), [=](sycl::nd_item<1> it) { … });

Fix
    Round the work-group size to a multiple of the sub-group size (96 or 128 here) and let the
    global range follow, guarding the surplus work-items with a bounds check if the problem size
    requires it.

Severity
    Warning: the message names the change (a multiple of the sub-group size) and the idle SIMD
    lanes of the partial sub-group the model counts in every work-group. Never an error: the
    kernel runs.

Occupancy basis
    `kernlint.occupancy.compute(device, wg=local range, sg=…)`: threads per work-group =
    ceil(wg / sg), lanes = threads x sg, idle lanes = lanes - wg. The evidence holds the model's
    report and the lane figures.

Cost
    The share of each work-group's SIMD lanes left idle: idle lanes ÷ lanes (the score).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, KernelLaunch
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.model import occupancy, pct
from kernlint_rules.launch.shape import launch_shape, once_per_template


class PartialSubGroup(Rule):
    code = "KL203"
    name = "partial-sub-group"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for launch in facts.launches:
            # A launch in a function template: once, naming the instantiations whose size is partial.
            found = once_per_template(launch, lambda each, note: self._finding(ctx, each, note))
            if found is not None:
                yield found

    @staticmethod
    def _finding(ctx: RuleContext, launch: KernelLaunch, note: str) -> Diagnostic | None:
        device = ctx.target_device
        shape = launch_shape(launch, device)
        if shape is None:
            return None
        group, sg, size = shape.group, shape.sg, shape.size
        if size > device.max_work_group_size:
            return None
        sizes = (sg.size,) if sg.required else device.sub_group_sizes
        if any(size % s == 0 for s in sizes):
            return None
        report = occupancy(device, shape.dims, sg)
        if report is None or not report.valid:
            return None
        threads = -(-size // sg.size)
        lanes = threads * sg.size
        idle = lanes - size
        lower, upper = size // sg.size * sg.size, (size // sg.size + 1) * sg.size
        choices = " or ".join(str(c) for c in (lower, upper) if 0 < c <= device.max_work_group_size)
        others = (
            ""
            if sg.required or len(sizes) == 1
            else (f"; no supported sub-group size ({', '.join(map(str, sizes))}) divides it")
        )
        thread_word = ("warp" if device.vendor == "nvidia" else "hardware thread") + ("s" if threads != 1 else "")
        return ctx.diagnostic(
            launch.span,
            f"{group.phrase()}{note} is not a multiple of the sub-group size {sg.size}: "
            f"each work-group runs as {threads} {thread_word} with {lanes} SIMD lanes, {idle} of them "
            f"({pct(100 * idle / lanes)}) idle in the last, partial sub-group{others}; use a multiple of "
            f"{sg.size} ({choices}) [{sg.note(device)}]",
            kernel=launch.name,
            evidence={
                "occupancy": report.to_json(),
                "work_group_size": size,
                "source": group.source,
                **sg.evidence(),
                "threads_per_work_group": threads,
                "lanes": lanes,
                "idle_lanes": idle,
            },
            cost=idle_lanes_cost(idle, lanes, device.id),
        )


def idle_lanes_cost(idle: int, lanes: int, device: str) -> Cost:
    """KL203: SIMD lanes of each work-group left idle by its last, partial sub-group."""
    share = idle / lanes
    return Cost(
        100 * share,
        "%",
        f"of each work-group's SIMD lanes idle on {device}",
        "idle lanes ÷ lanes per work-group",
        f"{idle} ÷ {lanes} = {100 * share:.3g}%",
        ("the partial sub-group runs as long as the full ones",),
        (),
        share,
        None,
        device,
        {"idle_lanes": idle, "lanes": lanes},
    )
