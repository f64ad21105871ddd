"""What a launch's occupancy costs (KL202, KL206): the share of thread slots left idle, from the model's
report. A builder only one rule uses lives in that rule's module."""

from __future__ import annotations

import math
from typing import Any

from kernlint.cost import Cost, failure_cost, format_count
from kernlint.occupancy import OccupancyReport


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
