"""What each rule's finding costs, from the device model: one builder per kind of cost.

Rules call these and pass the result as `ctx.diagnostic(..., cost=…)`. Every builder returns a
`kernlint.cost.Cost` whose value is None, with the missing input named and the formula shown, when an
input is unknown: nothing here guesses a size, a trip count or a bandwidth. Data-movement costs use the
host side of the device profiles (`kernlint.occupancy.host`); occupancy costs use the model's report.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from kernlint.cost import Cost, format_bytes, format_count, format_seconds
from kernlint.facts import Accessor, Buffer, FileFacts, KernelLaunch
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.facts.device import LaneEstimate
from kernlint.occupancy import DeviceProfile, OccupancyReport
from kernlint_rules.launch_checks import SubGroup, WorkGroup, global_items, occupancy

GB = 1e9
_TRANSFER_FORMULA = "bytes × transfers ÷ host-link bandwidth"
_INTEGRATED_NOTE = (
    "{id} is an integrated GPU sharing host memory: a buffer over host memory may not be "
    "copied at all, so no link cost is quoted"
)


# -- data movement (KL101, KL102, KL103) -------------------------------------------------------------


def _device_link(device: DeviceProfile, moved: int | None) -> tuple[float | None, str]:
    """Seconds to move `moved` bytes over `device`'s host link, and how that was decided."""
    host = device.host
    if host.integrated:
        return None, "integrated: shares host memory, may not be copied"
    if host.link_gb_per_s is None:
        return None, "host-link bandwidth unknown"
    if moved is None:
        return None, f"{host.link_name()} at {host.link_gb_per_s:g} GB/s; bytes unknown"
    seconds = moved / (host.link_gb_per_s * GB)
    link = f"{host.link_gb_per_s:g} GB/s ({host.link_name()})"
    return seconds, f"{format_bytes(moved)} ÷ {link} = {format_seconds(seconds)}"


def transfer_cost(
    devices: Sequence[DeviceProfile],
    nbytes: int | None,
    transfers: int,
    *,
    per: str,
    repeats: int | None = None,
    repeat_word: str = "",
    missing: Iterable[str] = (),
    assumptions: Iterable[str] = (),
    share: float = 1.0,
) -> Cost:
    """The time `transfers` copies of `nbytes` take on each device's host link, headline on the device
    where it is longest (a device-independent finding holds for every target).

    `per` names one occurrence ("per iteration", "per submission"); with `repeats` known the headline
    is the total over them (`repeat_word`, e.g. "per loop"). `share` is the needless part of the time.
    """
    missing = list(missing)
    assumptions = list(assumptions)
    moved = None if nbytes is None else nbytes * transfers
    per_device: dict[str, Any] = {}
    timed: list[tuple[float, DeviceProfile]] = []
    for device in devices:
        seconds, how = _device_link(device, moved)
        per_device[device.id] = how
        if seconds is not None:
            timed.append((seconds, device))
    figures: dict[str, Any] = {"bytes": nbytes, "transfers": transfers, "bytes_moved": moved}
    if repeats is not None:
        figures["repeats"] = repeats
    figures["per_device"] = per_device
    formula = _TRANSFER_FORMULA + (f" (× trip count {repeat_word})" if repeat_word else "")
    if nbytes is None and not missing:
        missing.append("the size in bytes")
    linked = [d for d in devices if d.host.link_gb_per_s is not None and not d.host.integrated]
    if timed:
        seconds, device = max(timed, key=lambda t: t[0])
        host = device.host
        total = seconds * repeats if repeats is not None else seconds
        quantity = f"on {device.id}'s {host.link_name()} link {repeat_word if repeats is not None else per}"
        basis = (
            f"{format_bytes(nbytes or 0)} × {transfers} ÷ {host.link_gb_per_s:g} GB/s = {format_seconds(seconds)} {per}"
        )
        if repeats is not None:
            basis += f"; × {repeats} = {format_seconds(total)} {repeat_word}"
        return Cost(
            total,
            "s",
            quantity,
            formula,
            basis,
            tuple(assumptions),
            tuple(missing),
            share,
            total * share,
            device.id,
            figures,
        )
    if linked:
        device = linked[0]
        host = device.host
        basis = f"? bytes × {transfers} ÷ {host.link_gb_per_s:g} GB/s ({host.link_name()}, {device.id}) {per}"
        return Cost(
            None,
            "s",
            f"on {device.id}'s {host.link_name()} link {per}",
            formula,
            basis,
            tuple(assumptions),
            tuple(missing),
            None,
            None,
            device.id,
            figures,
        )
    integrated = [d for d in devices if d.host.integrated]
    if integrated:
        note = _INTEGRATED_NOTE.format(id=integrated[0].id)
        return Cost(
            None,
            "s",
            f"on {integrated[0].id}: none quoted",
            formula,
            note,
            tuple(assumptions) + (note,),
            tuple(missing),
            None,
            None,
            integrated[0].id,
            figures,
        )
    missing.append("the target device's host-link bandwidth")
    return Cost(
        None,
        "s",
        f"on the host link {per}",
        formula,
        f"bytes × {transfers} ÷ ? GB/s",
        tuple(assumptions),
        tuple(missing),
        None,
        None,
        None,
        figures,
    )


def element_size_of(facts: FileFacts, buffer: Buffer) -> int | None:
    """Bytes per element of `buffer`, from an accessor over it whose element type is arithmetic."""
    for accessor in facts.accessors:
        if buffer.name and accessor.buffer == buffer.name and accessor.uses is not None and accessor.uses.element_size:
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
        same = [a for a in facts.accessors if buffer.name and a.buffer == buffer.name and a.target == "device"]
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


def accessor_copy_cost(uses: AccessorUses, direction: str, devices: Sequence[DeviceProfile]) -> Cost:
    """KL102/KL103: the needless copy of the whole buffer, once per submission, on the host link. A
    buffer without host memory is never copied back, so a read-only one saves no copy: what remains is
    later kernels waiting for this one, which the device model cannot time."""
    if direction == "device-to-host" and uses.buffer_has_host_data is False:
        return Cost(
            None,
            "s",
            "on the host link: none",
            "later kernels' wait for this one",
            "no host memory behind the buffer, so no copy back is saved; later kernels using it still "
            "wait for this one",
            missing=("how long later kernels wait (not in the device model)",),
        )
    missing = []
    if uses.buffer_bytes is None:
        if uses.buffer_extent is None or not uses.buffer_extent.known:
            missing.append("the buffer's extent")
        if uses.element_size is None:
            missing.append("the element size")
    assumptions = [f"one needless {direction} copy of the whole buffer per submission"]
    if uses.buffer_has_host_data is False:
        assumptions.append("the buffer has no host memory behind it: the copy happens only after the host accessed it")
    return transfer_cost(devices, uses.buffer_bytes, 1, per="per submission", missing=missing, assumptions=assumptions)


def map_copy_cost(devices: Sequence[DeviceProfile], direction: str, nbytes: int | None = None) -> Cost:
    """KL102 for OpenMP `map(tofrom:)`: the needless copy of the mapped section, once per region."""
    return transfer_cost(
        devices,
        nbytes,
        1,
        per="per region",
        missing=() if nbytes is not None else ("the mapped section's size in bytes",),
        assumptions=(f"one needless {direction} copy of the mapped section each time the region runs",),
    )


# -- launches and occupancy (KL2xx, KL301) ------------------------------------------------------------


def failure_cost(consequence: str, device: str | None = None) -> Cost:
    """A finding whose code does not run (launch fails, deadlock, fault): all its work is lost."""
    return Cost(
        100.0,
        "%",
        f"of the kernel's work lost: {consequence}",
        "100% when the code cannot run",
        consequence,
        score=1.0,
        device=device,
    )


def launch_cost(report: OccupancyReport, *, whole_gpu: bool = True) -> Cost:
    """KL2xx: occupancy and the share of thread slots left idle, with waves and the last wave's fill.

    `whole_gpu` (KL206, a launch too small for the GPU): 100% − the average GPU occupancy over the
    launch's waves, the last, partial wave included. Otherwise (KL202, a work-group shape that leaves
    each Xe-core/SM part empty): 100% − the Xe-core/SM occupancy, which fixing the shape recovers;
    waves and tail are then figures only."""
    if not report.valid:
        return failure_cost(
            f"the launch cannot run on {report.device}" + (f" ({report.error})" if report.error else ""), report.device
        )
    figures: dict[str, Any] = {
        "occupancy_pct": report.occupancy_pct,
        "limiter": report.limiter,
        "work_groups_per_unit": report.work_groups_per_unit,
    }
    unit = "Xe-core" if report.unit == "xe-core" else "SM"
    assumptions = (
        "occupancy counts resident hardware threads, not throughput: a latency-bound kernel loses "
        "about this share, a compute-bound one less",
    )
    waves = report.waves
    tail_text = ""
    if report.average_occupancy_pct is not None and waves is not None:
        full = math.floor(waves)
        tail = waves - full
        figures.update(
            {
                "average_occupancy_pct": report.average_occupancy_pct,
                "peak_occupancy_pct": report.peak_occupancy_pct,
                "waves": waves,
                "full_waves": full,
                "tail_fill_pct": 100.0 * tail if tail else None,
            }
        )
        tail_text = f", the last wave {100 * tail:.3g}% full" if tail else ""
    if not whole_gpu or report.average_occupancy_pct is None or waves is None:
        idle = 100.0 - report.occupancy_pct
        over = f" ({format_count(waves)} waves{tail_text})" if waves is not None else ""
        missing = () if waves is not None or not whole_gpu else ("the global size (for waves and the whole-GPU share)",)
        return Cost(
            idle,
            "%",
            f"of each {unit}'s thread slots idle on {report.device}",
            "100% − occupancy",
            f"100% − {report.occupancy_pct:.4g}% = {idle:.4g}%{over}",
            assumptions,
            missing,
            idle / 100,
            None,
            report.device,
            figures,
        )
    idle = 100.0 - report.average_occupancy_pct
    basis = (
        f"100% − average GPU occupancy {report.average_occupancy_pct:.4g}% = {idle:.4g}% "
        f"({format_count(waves)} waves: occupancy {report.occupancy_pct:.4g}% × {format_count(waves)} ÷ "
        f"{math.ceil(waves):,} wave slots{tail_text})"
    )
    return Cost(
        idle,
        "%",
        f"of the GPU's thread slots idle on {report.device} over {format_count(waves)} waves",
        "100% − occupancy × waves ÷ ceil(waves)",
        basis,
        assumptions,
        (),
        idle / 100,
        None,
        report.device,
        figures,
    )


def launch_occupancy_cost(
    device: DeviceProfile,
    launch: KernelLaunch,
    group: WorkGroup,
    sg: SubGroup | None,
    slm_bytes: int = 0,
    barrier: bool = False,
) -> Cost | None:
    """KL202: `launch_cost` with the whole-GPU waves when the launch's global size is constant, else
    with the Xe-core/SM figures alone; None when the model rejects the shape."""
    if group.known_dims is None:
        return None
    items = global_items(launch, group)
    report = occupancy(device, group.known_dims, sg, slm_bytes, barrier, items) if items is not None else None
    if report is None or not report.valid:
        report = occupancy(device, group.known_dims, sg, slm_bytes, barrier)
    return launch_cost(report, whole_gpu=False) if report is not None else None


def clamped_team_cost(requested: int, clamped: int, device: str) -> Cost:
    """KL201 for OpenMP `thread_limit`: the runtime clamps the team; what that costs depends on the kernel."""
    return Cost(
        None,
        "%",
        "of the kernel's work affected",
        "depends on how the kernel uses its team size",
        f"the runtime clamps {requested} work-items per team to {clamped} on {device}",
        (),
        ("how the kernel's work depends on the team size (not in the device model)",),
        None,
        None,
        device,
        {"requested": requested, "clamped_to": clamped},
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


def occupancy_at_cost(device: str, working: int, figures: dict[str, Any], broken: int) -> Cost:
    """KL301: the code fails at sub-group size `broken`; the cost is the occupancy at `working`."""
    at = figures.get(f"sg{working}", {}).get("occupancy_pct") if figures else None
    consequence = f"block loads/stores do not work at sub-group size {broken} on {device}"
    if at is None:
        return Cost(
            None,
            "%",
            f"Xe-core occupancy at sub-group size {working}, the size that works",
            "the occupancy model at the working sub-group size",
            consequence,
            (),
            ("the work-group size",),
            1.0,
            None,
            device,
            {},
        )
    before = figures.get(f"sg{broken}", {}).get("occupancy_pct")
    basis = f"{consequence}; at {working}: {at:.4g}% occupancy" + (
        f" (at {broken}: {before:.4g}%)" if before is not None else ""
    )
    return Cost(
        at,
        "%",
        f"Xe-core occupancy at sub-group size {working}, the size that works",
        "the occupancy model at the working sub-group size",
        basis,
        (),
        (),
        1.0,
        None,
        device,
        dict(figures),
    )


# -- prefetches (KL401–KL405) -------------------------------------------------------------------------


_LOCAL_SHARE = (
    "ranked after findings with a score: the share of the kernel's time this code takes is not known statically"
)


def prefetch_waste_cost(count: int, why: str, device: str | None = None, *, per: str = "per cache line") -> Cost:
    """KL404/KL405: `count` prefetches are issued (`per` cache line, simd step …) where one suffices.

    No score: the wasted share is of the prefetches, not of the kernel, whose time they are a part of
    that is not known."""
    share = (count - 1) / count
    return Cost(
        100 * share,
        "%",
        f"of the prefetches wasted ({count} {per} where 1 suffices)",
        f"(prefetches {per} − 1) ÷ prefetches {per}",
        f"({count} − 1) ÷ {count} = {100 * share:.3g}%; {why}",
        (_LOCAL_SHARE,),
        (),
        None,
        None,
        device,
        {"prefetches": count, "per": per, "wasted_share": share},
    )


def prefetch_width_unknown_cost(what: str) -> Cost:
    """KL404 when the simd width is not written: the formula only."""
    return Cost(
        None,
        "%",
        "of the prefetches wasted",
        "(lanes − 1) ÷ lanes",
        f"each of the simd lanes prefetches {what}",
        (),
        ("the simd width (simdlen)",),
        None,
    )


def no_op_prefetch_cost() -> Cost:
    """KL402: every prefetch of the directive does nothing."""
    return Cost(
        100.0,
        "%",
        "of the prefetches wasted: hint 0 is a no-op",
        "all of them",
        "hint 0 prefetches nothing",
        ("the instruction issue itself costs little; the loss is the prefetch's missed benefit", _LOCAL_SHARE),
    )


def out_of_range_prefetch_cost(overshoot: int | None, step: int, trip: int | None) -> Cost:
    """KL401: how far prefetches reach outside the array; on Intel Max any one of them faults.

    With a unit step every element of the overshoot is prefetched once per pass of the loop, so that
    many prefetches are outside, and with the trip count known their share of the loop's prefetches."""
    consequence = "a prefetch outside the array faults on Intel Data Center GPU Max"
    formula = "elements the index passes the array's end by (= prefetches outside per pass with step 1)"
    if overshoot is None:
        return Cost(
            None,
            "elements",
            "prefetched outside the array",
            formula,
            consequence,
            (),
            ("how far the index passes the array's bound",),
            1.0,
        )
    figures: dict[str, Any] = {"overshoot_elements": overshoot, "step": step, "trip_count": trip}
    basis = f"the index passes the array's bound by {overshoot} element{'s' if overshoot != 1 else ''}"
    if step == 1:
        basis += f": {overshoot} prefetch{'es' if overshoot != 1 else ''} per pass leave the array"
        if trip:
            figures["outside_share_pct"] = 100 * min(overshoot, trip) / trip
            basis += f", {min(overshoot, trip)} of {trip} = {figures['outside_share_pct']:.3g}% of them"
    basis += f"; {consequence}"
    return Cost(
        float(overshoot),
        "elements",
        "prefetched outside the array (one is enough to fault on Intel Max)",
        formula,
        basis,
        (),
        (),
        1.0,
        None,
        None,
        figures,
    )


def invalid_hint_cost(value: int) -> Cost:
    """KL403: a hint the extension does not define: the prefetch is rejected or ignored."""
    return Cost(
        100.0,
        "%",
        f"of the prefetch's effect lost (hint {value} is undefined: rejected or ignored)",
        "all of it",
        f"the extension defines hints 0, 2 and 4 only, not {value}",
        score=1.0,
    )


# -- costs the device model cannot put a number on (KL207, KL406) ---------------------------------------


def queue_in_loop_cost(trip_count: int | None) -> Cost:
    """KL207: a queue (and, outside DPC++, a context and kernel compilation) per iteration."""
    repeats = f"{trip_count} × " if trip_count else "trip count × "
    return Cost(
        None,
        "s",
        "per loop creating queues",
        f"{repeats}queue creation time",
        "the creation time of a queue (and, outside DPC++, of a context and its kernels) depends on the runtime",
        (),
        ("the runtime's queue creation time (not in the device model)",)
        + (() if trip_count else ("the loop's trip count",)),
        None,
        None,
        None,
        {"trip_count": trip_count},
    )


def malformed_directive_cost() -> Cost:
    """KL406: the directive is rejected or skipped, so whatever it was meant to gain is lost."""
    return Cost(
        None,
        "%",
        "of what the directive was meant to do lost",
        "all of it, if the compiler skips it",
        "compilers reject the directive or skip it silently",
        (),
        ("what the directive was meant to gain (not in the device model)",),
    )


# -- no run-time cost (KL104, KL001) -------------------------------------------------------------------


def no_cost(reason: str) -> Cost:
    """A finding about spelling or hygiene: nothing is lost at run time."""
    return Cost(0.0, "s", f"at run time ({reason})", "none", f"no run-time cost: {reason}", score=0.0, seconds=0.0)


# -- divergence (KL501, KL502) --------------------------------------------------------------------------


def divergence_cost(lanes: LaneEstimate | None, sub_group_size: int | None, device: str | None = None) -> Cost:
    """KL501: the lane-utilisation estimate of the divergence analysis, as the share of a sub-group's
    lanes busy while the branch's code runs. No score: the idle share is of the branch's code, whose
    share of the kernel's time is not known (`figures["idle_share"]` keeps it)."""
    n = sub_group_size
    formula, basis, use, missing = _utilisation(lanes, n)
    if use is None:
        return Cost(
            None,
            "%",
            "of a sub-group's lanes busy under the branch",
            formula,
            basis,
            (),
            missing,
            None,
            None,
            device,
            {"sub_group_size": n},
        )
    assumptions = (("both paths take equal time",) if lanes is not None and lanes.kind == "split" else ()) + (
        _LOCAL_SHARE,
    )
    return Cost(
        100 * use,
        "%",
        "of a sub-group's lanes busy under the branch",
        formula,
        basis,
        assumptions,
        (),
        None,
        None,
        device,
        {"sub_group_size": n, "lane_kind": lanes.kind if lanes else None, "idle_share": 1 - use},
    )


def _utilisation(lanes: LaneEstimate | None, n: int | None) -> tuple[str, str, float | None, tuple[str, ...]]:
    """(formula, basis, utilisation or None, missing) for one lane estimate."""
    if lanes is None:
        return "busy lanes ÷ sub-group size", "the analysis gives no lane estimate", None, ("the lane estimate",)
    need_n = ("the sub-group size",)
    if lanes.kind == "split":
        return (
            "(taken + not taken) ÷ (2 × sub-group size): both paths run in turn",
            "each path runs with its own lanes while the others idle: 1 ÷ 2 = 50%",
            0.5,
            (),
        )
    if lanes.kind == "fraction":
        if lanes.taken is None:
            return (
                "taken lanes ÷ sub-group size",
                "the share of lanes taking it is unknown",
                None,
                ("the share of lanes that take the branch",),
            )
        return (
            "taken lanes ÷ sub-group size",
            f"{lanes.taken:.3g} of the lanes = {100 * lanes.taken:.3g}%",
            lanes.taken,
            (),
        )
    if lanes.kind == "single":
        if not n:
            return "1 ÷ sub-group size", "one lane runs it", None, need_n
        return "1 ÷ sub-group size", f"1 ÷ {n} = {100 / n:.3g}%", 1 / n, ()
    if lanes.kind == "all-but-one":
        if not n:
            return "(sub-group size − 1) ÷ sub-group size", "all lanes but one run it", None, need_n
        return "(sub-group size − 1) ÷ sub-group size", f"{n - 1} ÷ {n} = {100 * (n - 1) / n:.3g}%", (n - 1) / n, ()
    if lanes.kind == "shrinking":
        formula = "(n − 1) ÷ (n × log2 n) over the last log2 n steps (n = sub-group size)"
        if not n or n & (n - 1):
            return formula, "the active lanes halve each step", None, need_n
        steps = int(math.log2(n))
        use = (n - 1) / (n * steps)
        return formula, f"({n} − 1) ÷ ({n} × {steps}) = {100 * use:.3g}% in the last {steps} steps", use, ()
    return (
        "1 for every sub-group but the one that straddles the bound",
        "only the sub-group that straddles the bound runs partly filled: at most one per launch",
        None,
        ("the global size (the straddling sub-group's share of the launch)",),
    )


def divergent_barrier_cost(lanes: LaneEstimate | None, sub_group_size: int | None, device: str | None = None) -> Cost:
    """KL502: a barrier not every work-item reaches deadlocks or is undefined: all the kernel's work is
    at stake; the lane estimate of the condition is kept among the figures."""
    cost = failure_cost("a barrier under a work-item-dependent condition: deadlock or undefined behaviour", device)
    _formula, basis, use, _missing = _utilisation(lanes, sub_group_size)
    figures = {
        "lane_kind": lanes.kind if lanes else None,
        "lanes_busy_pct": None if use is None else 100 * use,
        "lanes_basis": basis,
    }
    return Cost(
        cost.value, cost.unit, cost.quantity, cost.formula, cost.basis, score=1.0, device=device, figures=figures
    )
