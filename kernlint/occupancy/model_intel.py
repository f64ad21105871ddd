"""Intel Xe-core occupancy, reproducing Intel's GPU Occupancy Calculator.

The calculator (oneAPI-samples ``Tools/GPU-Occupancy-Calculator``, written up in
``shared/devices/intel-occupancy-model.md``) treats an Xe-core as one pool of hardware threads:

    t          = ceil(wg / sg)                       threads per work-group
    by_threads = (T, or T/2 with large GRF) // t
    cap        = barrier registers if the kernel uses barriers, else the work-group cap
    by_slm     = SLM per Xe-core // rounded SLM per work-group   (cap when no SLM)
    n          = min(by_threads, by_slm, cap, total work-groups)
    occupancy  = 100 * t * n / T                      (T even with large GRF)

Where this model departs from the page, on purpose:

* A work-group with more threads than an Xe-core can hold gets n = 0 on the page, shown as a
  silent "0.00 %". Here that is ``valid=False`` with an error: such a launch cannot run.
* The page rounds the wave count to 2 decimals before computing the average GPU occupancy; the
  report's ``average_occupancy_pct`` is exact and the page's value is ``calculator_average_occupancy_pct``.
* The page's SLM slider cannot go above the per-work-group maximum; a larger request here is
  ``valid=False`` (the kernel would not launch) instead of being clamped.
* When both sizes are multi-dimensional with the same rank, divisibility is checked per dimension
  as SYCL requires; the page checks only the products.
* The page names no limiting resource; the report does.
"""

from __future__ import annotations

from dataclasses import replace

from kernlint.occupancy.launch import LaunchInputs, indivisible
from kernlint.occupancy.profiles import KB, IntelProfile
from kernlint.occupancy.report import OccupancyReport, refused, resident
from kernlint.occupancy.waves import calculator_waves


def rounded_slm_kb(dev: IntelProfile, requested_bytes: int) -> int | None:
    """SLM a work-group is charged, in KB: the first allowed size >= the request (None: too big)."""
    kb = -(-requested_bytes // KB)
    if kb > dev.slm_kb_max_per_work_group:
        return None
    return next(size for size in dev.slm_kb_allowed_sizes if size >= kb)


def compute_intel(dev: IntelProfile, inp: LaunchInputs) -> OccupancyReport:
    """Occupancy of one launch on an Intel GPU (inputs already normalised by ``compute``)."""
    wg, sg = inp.wg, inp.sg
    threads = -(-wg // sg)
    slm_bytes = inp.slm_bytes + inp.static_slm_bytes
    slm_kb = rounded_slm_kb(dev, slm_bytes)

    def refuse(limiter: str, error: str) -> OccupancyReport:
        return refused(dev, inp, limiter, error, threads, None if slm_kb is None else slm_kb * KB)

    if sg not in dev.sub_group_sizes:
        return refuse(
            "sub-group-size",
            f"sub-group size {sg} is not supported by {dev.id} (supported: {', '.join(map(str, dev.sub_group_sizes))})",
        )
    if slm_kb is None:
        return refuse(
            "slm",
            f"{slm_bytes} bytes of SLM per work-group exceed the {dev.slm_kb_max_per_work_group} KB "
            f"a work-group can allocate on {dev.id}",
        )
    if wg > dev.max_work_group_size:
        return refuse(
            "work-group-size",
            f"work-group size {wg} exceeds the maximum of {dev.max_work_group_size} on {dev.id}",
        )
    if inp.kernel_max_threads is not None and wg > inp.kernel_max_threads:
        return refuse(
            "work-group-size",
            f"work-group size {wg} exceeds the kernel's limit of {inp.kernel_max_threads}",
        )
    reason = indivisible(inp)
    if reason:
        return refuse("global-size", reason)

    usable = dev.threads_per_xe_core // 2 if inp.large_grf else dev.threads_per_xe_core
    by_threads = usable // threads
    if by_threads == 0:
        mode = " in large-GRF mode" if inp.large_grf else ""
        return refuse(
            "threads",
            f"a work-group of {wg} work-items at sub-group size {sg} needs {threads} hardware "
            f"threads, but an Xe-core of {dev.id} holds {usable}{mode}: it does not fit",
        )

    # Barriers only lower the cap on resident work-groups: one barrier register per group.
    cap = dev.barrier_registers if inp.barrier else dev.max_work_groups_per_xe_core
    cap_name = "barrier-registers" if cap < dev.max_work_groups_per_xe_core else "work-group-cap"
    bounds: list[tuple[str, int]] = [("threads", by_threads)]
    if slm_kb > 0:
        bounds.append(("slm", dev.slm_kb_per_xe_core // slm_kb))
    bounds.append((cap_name, cap))
    global_size = inp.global_size
    total = global_size // wg if global_size is not None else None
    if total is not None:
        bounds.append(("too-few-work-groups", total))
    report = resident(dev, inp, bounds, threads, (threads, dev.threads_per_xe_core), slm_kb * KB)
    if global_size is None:
        return report
    n = report.work_groups_per_unit
    calc_waves, calc_average = calculator_waves(
        global_size, dev.xve_count / dev.xves_per_xe_core * n * wg, 100 * threads * n / dev.threads_per_xe_core
    )
    return replace(report, calculator_waves=calc_waves, calculator_average_occupancy_pct=calc_average)
