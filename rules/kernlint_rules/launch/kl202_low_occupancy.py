"""A work-group that must live on one Xe-core/SM leaves it badly occupied.

What it does
    For each SYCL launch with a constant work-group size (nd_range local range,
    `parallel_for_work_group` local range or `reqd_work_group_size`) whose work-group is tied to a
    single Xe-core (Intel) or SM (NVIDIA), computes with the occupancy model how many such
    work-groups one Xe-core/SM holds and how many of its hardware threads (warp slots) they keep
    busy. It warns when that occupancy is below the `min-occupancy-pct` option (default 75 %). A
    work-group is tied to one Xe-core/SM when its device code (the kernel body or a function it
    calls) contains a work-group barrier, when its command group allocates local memory
    (`local_accessor`, `target::local` accessors), or when it is a `parallel_for_work_group` launch.

Why it matters
    Work-items that synchronise through a barrier or share local memory must run on the Xe-core whose
    SLM holds that memory, so the whole work-group is placed on one Xe-core. An Xe-core only takes
    another work-group when all of its threads fit in the thread contexts left over; otherwise those
    contexts idle for the life of the kernel. The guide's example: local range (1, 4, 128) at
    sub-group size 8 on Xe-LP needs 64 of an Xe-core's 112 threads, so one work-group fits and the
    Xe-core is only 57 % occupied (4 of 7 threads per vector engine); the remaining three of seven
    cannot take a second work-group, wasting 43 % of the Xe-core. Gen9 shows the same 57 % with
    (1, 4, 64). Local memory can be the limit instead: SLM is allocated in fixed sizes, so a
    work-group's request is rounded up and fewer work-groups fit than the raw bytes suggest. Without
    barriers or local memory the threads of a work-group can spread over Xe-cores and the
    work-group size hardly matters, so such launches are not reported.

Example
    // Xe-LP, sub-group size 8: 64 threads per work-group, one per Xe-core, 57 % occupancy
    h.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, 4, 128}),
                   [=](sycl::nd_item<3> it) [[intel::reqd_sub_group_size(8)]] {   // KL202 on xe-lp
                     …; it.barrier(); …
                   });

Fix
    Pick a work-group size whose thread count divides the Xe-core's threads (the message suggests a
    divisor of the current size that does, so the global range still divides), use a larger
    sub-group size, or shrink the local memory per work-group below the next allocation size:

    h.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, 1, 128}), …);   // 7 work-groups, 100 %

Severity
    Warning: the message names the change (a larger work-group, less local memory or no barrier)
    and the share of each Xe-core/SM's thread slots the model leaves idle; reported below `min-
    occupancy-pct` (75 % by default, between the guide's 57 % it calls wasteful and the 86 % it
    accepts). Never an error: the kernel runs.

Occupancy basis
    `kernlint.occupancy.compute(device, wg=local range, sg=…, slm_bytes=local memory of the command
    group, barrier=True when a barrier is present)`, without the global size, so the figure describes
    the work-group shape rather than the launch size (KL206 covers small launches). Intel figures
    follow Intel's GPU Occupancy Calculator (threads = ceil(wg / sg); work-groups per Xe-core limited
    by thread contexts, rounded-up SLM, the work-group cap and, with barriers, the barrier
    registers); NVIDIA figures follow `cudaOccupancyMaxActiveBlocksPerMultiprocessor` (warp slots,
    blocks, registers at the profile's default count, shared memory with its 1 KB reserve). The
    sub-group size is the kernel's `reqd_sub_group_size`, or the model's default for the device
    (stated in the message) when the kernel requires none; a required size whose value cannot be
    evaluated silences the rule. Local memory of unknown size counts as zero, which can only
    overstate occupancy, so every warning stands. The evidence holds the model's report.

Options
    min-occupancy-pct (float, default 75.0): warn below this Xe-core/SM occupancy. The default sits
    between the guide's 57 % (which it calls wasteful) and the 86 % of its R = 2 and R = 3 cases
    (which it does not).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, KernelLaunch
from kernlint.occupancy import DeviceProfile, OccupancyReport
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.costs import launch_cost
from kernlint_rules.launch.model import kb, occupancy, pct, unit_word
from kernlint_rules.launch.residency import unit_binding
from kernlint_rules.launch.shape import LaunchShape, SubGroup, global_items, launch_shape


class LowOccupancy(Rule):
    code = "KL202"
    name = "low-occupancy"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})
    needs_device = True
    options: ClassVar[dict[str, Any]] = {"min-occupancy-pct": 75.0}

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        threshold = float(ctx.options["min-occupancy-pct"])
        for launch in facts.launches:
            shape = launch_shape(launch, device)
            if shape is None:
                continue
            group, sg = shape.group, shape.sg
            binding = unit_binding(facts, launch)
            if not binding:
                continue
            slm = binding.local.known_bytes
            report = occupancy(device, shape.dims, sg, slm, binding.synchronises)
            if report is None or not report.valid or report.occupancy_pct >= threshold:
                continue
            unit = unit_word(report.unit)
            better = _better_work_group(device, shape.size, sg, slm, binding.synchronises, report)
            message = (
                f"{group.phrase()} must stay on one {unit} because of "
                f"{' and '.join(binding.reasons())}: {report.summary()}; {_idle(device, report)}"
                f"{_slm_note(report, slm)}{_suggestion(better, unit)} [{sg.note(device)}]"
            )
            yield ctx.diagnostic(
                launch.span,
                message,
                kernel=launch.name,
                related=binding.related(report.unit),
                evidence={
                    "occupancy": report.to_json(),
                    "threshold_pct": threshold,
                    "work_group_size": shape.size,
                    "local_range": list(shape.dims),
                    "source": group.source,
                    **sg.evidence(),
                    "bound_by": binding.reasons(),
                    "local_memory_bytes": slm,
                    "local_memory_complete": binding.local.complete,
                    "idle_threads": _capacity(device) - _busy(device, report),
                    "suggested_work_group_size": better[0] if better else None,
                },
                cost=launch_occupancy_cost(device, launch, shape, slm, binding.synchronises),
            )


def _capacity(device: DeviceProfile) -> int:
    """Hardware threads of an Xe-core, or warp slots of an SM."""
    return device.threads_per_xe_core if device.is_intel else device.max_warps_per_sm  # type: ignore[attr-defined]


def _busy(device: DeviceProfile, report: OccupancyReport) -> int:
    """Hardware threads (warps) the resident work-groups occupy."""
    per_group = report.threads_per_work_group or 0
    if not device.is_intel:
        per_group //= device.warp_size  # type: ignore[attr-defined]  # the report counts the warps' threads
    return per_group * report.work_groups_per_unit


def _idle(device: DeviceProfile, report: OccupancyReport) -> str:
    """What the idle part of the Xe-core/SM is, and why nothing else can use it."""
    capacity, busy = _capacity(device), _busy(device, report)
    idle = capacity - busy
    if device.is_intel:
        slots = f"{idle} of the Xe-core's {capacity} hardware threads stay idle"
        engines, per_engine = device.xves_per_xe_core, device.threads_per_xve  # type: ignore[attr-defined]
        if idle % engines == 0:
            slots += f" ({idle // engines} of {per_engine} per vector engine)"
    else:
        slots = f"{idle} of the SM's {capacity} warp slots stay idle"
    reason = {
        "threads": f"too few for another {_group_word(report)}",
        "slm": "the local memory is used up",
        "barrier-registers": "each resident work-group with a barrier holds one of the Xe-core's "
        f"{report.work_groups_per_unit} barrier registers",
        "work-group-cap": f"the {unit_word(report.unit)} holds at most {report.work_groups_per_unit} "
        f"{_group_word(report)}s",
        "registers": "the register file is used up",
    }.get(report.limiter or "", "")
    return f"{slots}{': ' + reason if reason else ''}"


def _group_word(report: OccupancyReport) -> str:
    return "block" if report.vendor == "nvidia" else "work-group"


def _slm_note(report: OccupancyReport, requested: int) -> str:
    if report.limiter != "slm" or report.slm_bytes_used is None:
        return ""
    if report.vendor == "nvidia":
        return (
            f"; each block is charged {kb(report.slm_bytes_used)} of shared memory ({kb(requested)} "
            "requested plus the per-block reserve, in allocation units)"
        )
    if report.slm_bytes_used > requested:
        return (
            f"; its {kb(requested)} of local memory is allocated as {kb(report.slm_bytes_used)}, the next "
            "size the hardware hands out"
        )
    return f"; each work-group takes {kb(report.slm_bytes_used)} of SLM"


def _better_work_group(
    device: DeviceProfile, size: int, sg: SubGroup, slm: int, barrier: bool, current: OccupancyReport
) -> tuple[int, OccupancyReport] | None:
    """The largest divisor of `size` (a whole number of sub-groups) with the best occupancy, when that
    beats the current one. A divisor keeps the global range divisible by the work-group size."""
    if current.limiter not in ("threads", "barrier-registers", "work-group-cap"):
        return None  # local memory is the limit: a smaller work-group does not obviously help
    best: tuple[int, OccupancyReport] | None = None
    for threads in range(size // sg.size, 0, -1):
        candidate = threads * sg.size
        if candidate >= size or size % candidate:
            continue
        report = occupancy(device, (candidate,), sg, slm, barrier)
        if report is None or not report.valid:
            continue
        if best is None or report.occupancy_pct > best[1].occupancy_pct:
            best = (candidate, report)
    if best is None or best[1].occupancy_pct <= current.occupancy_pct:
        return None
    return best


def _suggestion(better: tuple[int, OccupancyReport] | None, unit: str) -> str:
    if better is None:
        return ""
    size, report = better
    n = report.work_groups_per_unit
    return (
        f"; {size} work-items per {_group_word(report)} would fit {n} per {unit} for "
        f"{pct(report.occupancy_pct)} occupancy"
    )


def launch_occupancy_cost(
    device: DeviceProfile, launch: KernelLaunch, shape: LaunchShape, slm_bytes: int = 0, barrier: bool = False
) -> Cost | None:
    """`launch_cost` with the whole-GPU waves when the launch's global size is constant, else with the
    Xe-core/SM figures alone; None when the model rejects the shape."""
    items = global_items(launch, shape.group)
    report = occupancy(device, shape.dims, shape.sg, slm_bytes, barrier, items) if items is not None else None
    if report is None or not report.valid:
        report = occupancy(device, shape.dims, shape.sg, slm_bytes, barrier)
    return launch_cost(report, whole_gpu=False) if report is not None else None
