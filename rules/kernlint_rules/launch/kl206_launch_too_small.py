"""A constant launch has too few work-groups to fill the GPU.

What it does
    For each SYCL launch whose global size and work-group size are both constant (an `nd_range`,
    `parallel_for_work_group` with a local range, or a `range` launch of a kernel with
    `reqd_work_group_size`), computes with the occupancy model how much of the whole GPU the launch
    keeps busy at its fullest moment, and warns when that peak is below the `min-gpu-occupancy-pct`
    option (default 25 %). Constants come from literals, macros, constexpr values (also in quoted
    headers), single-assignment locals and template arguments when every instantiation in the file
    agrees (a `VectorAdd2<N>` called with several N is not evaluated). Launches whose sizes are read
    at run time (device queries, problem sizes from input) are not reported. Whether the size is a
    choice decides the severity (below): a kernel with a grid-stride loop (`for (i = gid; i < n; i +=
    it.get_global_range(0))`) is written for more data than its grid, one without it has the
    problem's size as its global size. The evidence's `class` says which (`grid-stride`,
    `one-item-per-work-item`, or `single-work-group` for one work-group striding over its data).

Why it matters
    Occupancy is the share of the GPU's thread contexts that have work. The guide estimates it for
    its VectorAdd2 kernel on Xe-LP, whose 6 Xe-cores hold 672 threads: one work-group of 512
    work-items at sub-group size 32 is 16 threads, 16/672 = 2.4 % of the GPU, and it takes 42 such
    work-groups to occupy every thread context once. A launch that small leaves most Xe-cores (SMs)
    idle for its whole duration however fast each work-item is, and nothing else can hide the
    latency of its memory accesses. The guide's advice is to create many more independent work-items
    than there are compute resources; the NVIDIA chapter makes the global size a multiple of the
    number of compute units and loops inside the kernel over the problem (grid-stride).

Example
    // Xe-LP: 1 work-group x 16 threads = 2.4 % of 672 thread contexts
    h.parallel_for(sycl::nd_range<1>(512, 512),
                   [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] { … });   // KL206

Fix
    For a grid-stride kernel, size the launch from the device (number of compute units times the
    work-groups one holds: the message's "one full wave") and let the loop cover the data. For one
    item per work-item, give the launch more work (batch problems together) or leave it: a small
    problem is small.

Severity
    Warning only where the size is a choice the code can change: the kernel holds a grid-stride
    loop (`i += global size`), so it is written for more data than the grid, and launching a
    full wave (the figure the message gives) lets the loop share the data over the whole GPU;
    the threshold is `min-gpu-occupancy-pct` (25 % by default: below a quarter, three of four
    Xe-cores/SMs idle for the whole kernel). Info otherwise: a kernel that does one item per
    work-item has the problem's size as its global size (a final reduction stage, one group per
    column, a small problem), small by design, and more work-groups would need more work; so is one
    work-group striding over its data (a final reduction over partial results), which synchronises
    through local memory.

Occupancy basis
    `kernlint.occupancy.compute(device, wg=local range, sg=…, slm_bytes=…, barrier=…,
    global_size=global range)`: the report's `peak_occupancy_pct`, the occupancy of the first wave
    as a share of the whole GPU (Intel: resident threads over Xe-cores x threads per Xe-core, as in
    Intel's GPU Occupancy Calculator; NVIDIA: resident warps over SMs x warp slots). The number of
    work-groups one full wave needs comes from the same model without the global size. The
    sub-group size is the kernel's required one or the model's default for the device, named in the
    message. The evidence holds the report.

Options
    min-gpu-occupancy-pct (float, default 25.0): warn when the launch's peak GPU occupancy is below
    this. Below a quarter, three of every four Xe-cores/SMs have nothing to do for the whole kernel,
    the regime of the guide's VectorAdd2<1> to <8> (2.4 % to 19 %); small launches that are
    deliberate (a final reduction stage) can be suppressed where they are written.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, ClassVar, cast

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.occupancy import DeviceProfile, IntelProfile, NvidiaProfile
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.costs import launch_cost
from kernlint_rules.launch.model import occupancy, pct, unit_word
from kernlint_rules.launch.residency import unit_binding
from kernlint_rules.launch.shape import global_items, launch_shape


class LaunchTooSmall(Rule):
    code = "KL206"
    name = "launch-too-small"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})
    needs_device = True
    options: ClassVar[dict[str, Any]] = {"min-gpu-occupancy-pct": 25.0}

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        threshold = float(ctx.options["min-gpu-occupancy-pct"])
        for launch in facts.launches:
            shape = launch_shape(launch, device)
            if shape is None:
                continue
            group, sg = shape.group, shape.sg
            items = global_items(launch, group)
            if items is None:
                continue
            binding = unit_binding(facts, launch)
            slm, barrier = binding.local.known_bytes, binding.synchronises
            report = occupancy(device, shape.dims, sg, slm, barrier, items)
            per_unit = occupancy(device, shape.dims, sg, slm, barrier)
            if report is None or per_unit is None or not report.valid or report.peak_occupancy_pct is None:
                continue
            if report.waves is None or report.waves >= 1 or report.peak_occupancy_pct >= threshold:
                continue  # a launch of one full wave or more is as full as its work-group shape allows (KL202)
            units = device.unit_count
            groups = report.total_work_groups or 0
            wave = math.ceil(units * per_unit.work_groups_per_unit)
            width, per_unit_slots, slot, slots = _thread_slots(device)
            threads = (per_unit.threads_per_work_group or 0) // width
            capacity = units * per_unit_slots
            unit = unit_word(report.unit, plural=True)
            group_word = "block" if isinstance(device, NvidiaProfile) else "work-group"
            if launch.grid_stride and groups == 1:
                klass = "single-work-group"
                advice = (
                    "an info: one work-group striding over its data is a final stage (a last reduction over "
                    "partial results, a configuration step): it synchronises through local memory, so its "
                    "size is the algorithm's, small by design"
                )
            elif launch.grid_stride:
                klass = "grid-stride"
                advice = (
                    f"the kernel loops over its data by the grid's size (a grid-stride loop), so the grid "
                    f"is a choice, not the problem's size: launch {wave} {group_word}s (a full wave, sized "
                    "from the device's compute units) and let the loop cover the rest"
                )
            else:
                klass = "one-item-per-work-item"
                advice = (
                    "an info: the kernel has no grid-stride loop, so its global size is the problem it is "
                    "given (one item per work-item), small by design; more work-groups need more work"
                )
            yield ctx.diagnostic(
                launch.span,
                f"the launch has {groups} {group_word}{'s' if groups != 1 else ''} of {group.total} work-items "
                f"({threads} {slot}{'s' if threads != 1 else ''} each): at its peak it keeps "
                f"{pct(report.peak_occupancy_pct)} of {device.id}'s {int(capacity)} {slots} busy, on "
                f"{_count(units)} {unit}; one full wave takes {wave} such {group_word}s "
                f"({per_unit.work_groups_per_unit} per {unit_word(report.unit)}) [{sg.note(device)}]\n{advice}",
                kernel=launch.name,
                severity=None if klass == "grid-stride" else Severity.INFO,
                evidence={
                    "class": klass,
                    "occupancy": report.to_json(),
                    "threshold_pct": threshold,
                    "total_work_groups": groups,
                    "work_groups_per_full_wave": wave,
                    "work_group_size": group.total,
                    "global_size": math.prod(items),
                    **sg.evidence(),
                },
                cost=launch_cost(report),
            )


def _count(value: object) -> str:
    """A unit count, which Intel's tables allow to be fractional (1.5 Xe-cores)."""
    number = float(value)  # type: ignore[arg-type]
    return str(int(number)) if number.is_integer() else f"{number:g}"


def _thread_slots(device: DeviceProfile) -> tuple[int, int, str, str]:
    """(work-items per slot, slots per Xe-core/SM, and the words for one and for all): warps of an SM
    on NVIDIA, hardware threads of an Xe-core on Intel."""
    if isinstance(device, NvidiaProfile):
        return device.warp_size, device.max_warps_per_sm, "warp", "warp slots"
    intel = cast(IntelProfile, device)  # the occupancy model answered: an Intel profile when not NVIDIA
    return 1, intel.threads_per_xe_core, "thread", "hardware threads"
