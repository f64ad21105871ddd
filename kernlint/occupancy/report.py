"""The result of one occupancy computation, in the shape rules, reporters and the CLI consume.

One report type serves both vendors so a rule can ask "how full is the Xe-core/SM, and why" without
knowing which model answered. ``to_json`` is the docs/contract.md section 4 ``kernlint occupancy`` object.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kernlint.occupancy.launch import LaunchInputs
from kernlint.occupancy.waves import wave_figures
from kernlint.records import record

if TYPE_CHECKING:
    from kernlint.occupancy.profiles import DeviceProfile

#: Limiter names with their wording in prose as (Intel, NVIDIA). While a report is ``valid`` the
#: limiter names what caps the resident work-groups; when not, the constraint the launch violates.
LIMITER_TEXT: dict[str, tuple[str, str]] = {
    "threads": ("thread contexts", "warp slots"),
    "registers": ("registers", "registers"),
    "slm": ("SLM", "shared memory"),
    "barrier-registers": ("barrier registers", "barrier registers"),
    "work-group-cap": ("the work-group cap per Xe-core", "the block cap per SM"),
    "too-few-work-groups": ("too few work-groups in the launch", "too few blocks in the launch"),
    "work-group-size": ("the maximum work-group size", "the maximum block size"),
    "sub-group-size": ("the supported sub-group sizes", "the warp size"),
    "global-size": ("the global size", "the global size"),
}


@record
class OccupancyReport:
    """Occupancy of one launch on one device.

    Intel figures reproduce Intel's GPU Occupancy Calculator, except that a work-group that cannot
    be dispatched at all (the page's silent "0.00 %") is ``valid=False``, and that the average GPU
    occupancy is exact; the page's rounded variant is kept in ``calculator_waves`` and
    ``calculator_average_occupancy_pct``. NVIDIA figures reproduce
    ``cudaOccupancyMaxActiveBlocksPerMultiprocessor``, with launches the runtime refuses marked
    ``valid=False``.
    """

    device: str
    vendor: str
    unit: str
    inputs: LaunchInputs
    valid: bool
    error: str | None
    limiter: str | None
    limiters: tuple[str, ...]
    """Every limit that ties for the binding one, most fundamental first (``limiter`` is the first)."""
    threads_per_work_group: int | None
    """Intel: hardware threads (ceil(wg / sg)); NVIDIA: threads of the launched warps (warps x 32)."""
    work_groups_per_unit: int
    occupancy_pct: float
    """Resident threads (warps) over the Xe-core's (SM's) maximum, in percent, unrounded."""
    slm_bytes_used: int | None
    """Local memory charged per work-group after the hardware's round-up (NVIDIA: with the reserve)."""
    total_work_groups: int | None
    peak_occupancy_pct: float | None
    average_occupancy_pct: float | None
    waves: float | None
    calculator_waves: float | None = None
    calculator_average_occupancy_pct: float | None = None
    bounds: tuple[tuple[str, int], ...] = ()
    """Work-groups per unit each resource alone would allow, e.g. (("threads", 7), ("slm", 8))."""

    @property
    def sg_assumed(self) -> bool:
        return self.inputs.sg_assumed

    def to_json(self) -> dict[str, Any]:
        """The docs/contract.md section 4 object; ``inputs`` also says which values were defaults."""
        i = self.inputs
        return {
            "device": self.device,
            "inputs": {
                "wg": i.wg,
                "sg": i.sg,
                "slm_bytes": i.slm_bytes,
                "global": i.global_size,
                "barrier": i.barrier,
                "large_grf": i.large_grf,
                "regs": i.regs,
                "sg_assumed": i.sg_assumed,
                "regs_assumed": i.regs_assumed,
            },
            "valid": self.valid,
            "error": self.error,
            "threads_per_work_group": self.threads_per_work_group,
            "work_groups_per_unit": self.work_groups_per_unit,
            "unit": self.unit,
            "occupancy_pct": self.occupancy_pct,
            "limiter": self.limiter,
            "slm_bytes_used": self.slm_bytes_used,
            "peak_occupancy_pct": self.peak_occupancy_pct,
            "average_occupancy_pct": self.average_occupancy_pct,
            "waves": self.waves,
        }

    def summary(self) -> str:
        """One sentence for a diagnostic message, e.g. "64 threads per work-group: 1 work-group
        fits an Xe-core, 57% occupancy (limited by thread contexts)"."""
        if not self.valid:
            return self.error or "the launch cannot run on this device"
        nvidia = self.vendor == "nvidia"
        n = self.work_groups_per_unit
        if nvidia:
            warps = -(-self.inputs.wg // self.inputs.sg)
            head = f"{self.inputs.wg} threads per block ({warps} warp{_s(warps)})"
            fits = f"{n} block{_s(n)} fit{_s(n, verb=True)} an SM"
        else:
            t = self.threads_per_work_group
            head = f"{t} thread{_s(t or 0)} per work-group"
            fits = f"{n} work-group{_s(n)} fit{_s(n, verb=True)} an Xe-core"
        text = f"{head}: {fits}, {format_pct(self.occupancy_pct)} occupancy"
        if self.occupancy_pct < 100 and self.limiter:
            text += f" (limited by {LIMITER_TEXT[self.limiter][1 if nvidia else 0]})"
        if self.peak_occupancy_pct is not None and self.peak_occupancy_pct < self.occupancy_pct:
            groups = "blocks" if nvidia else "work-groups"
            text += (
                f"; the {self.total_work_groups} {groups} fill only {format_pct(self.peak_occupancy_pct)} of the GPU"
            )
        return text


def resident(
    dev: DeviceProfile,
    inp: LaunchInputs,
    bounds: Sequence[tuple[str, int]],
    threads: int,
    slots: tuple[int, int],
    slm_bytes_used: int,
) -> OccupancyReport:
    """The report for a launch the device runs, either vendor's: as many work-groups are resident per
    Xe-core/SM as the tightest of `bounds` (resource, work-groups it alone allows) admits; each takes
    `slots[0]` of the unit's `slots[1]` thread (warp) slots. The whole-GPU figures follow from the
    launch's global size, when it is known."""
    n = min(b for _, b in bounds)
    limiters = tuple(name for name, b in bounds if b == n)
    per_group, per_unit = slots
    occupancy = Fraction(100 * per_group * n, per_unit)
    total = peak = average = waves = None
    if inp.global_size is not None:
        total = inp.global_size // inp.wg
        fig = wave_figures(inp.global_size, dev.unit_count * n * inp.wg, occupancy)
        peak, average, waves = float(fig.peak_pct), float(fig.average_pct), float(fig.waves)
    return OccupancyReport(
        device=dev.id,
        vendor=dev.vendor,
        unit=dev.unit,
        inputs=inp,
        valid=True,
        error=None,
        limiter=limiters[0],
        limiters=limiters,
        threads_per_work_group=threads,
        work_groups_per_unit=n,
        occupancy_pct=float(occupancy),
        slm_bytes_used=slm_bytes_used,
        total_work_groups=total,
        peak_occupancy_pct=peak,
        average_occupancy_pct=average,
        waves=waves,
        bounds=tuple(bounds),
    )


def refused(
    dev: DeviceProfile,
    inp: LaunchInputs,
    limiter: str,
    error: str,
    threads: int | None,
    slm_bytes_used: int | None,
) -> OccupancyReport:
    """The report for a launch the device cannot run: nothing is resident, no GPU figures."""
    return OccupancyReport(
        device=dev.id,
        vendor=dev.vendor,
        unit=dev.unit,
        inputs=inp,
        valid=False,
        error=error,
        limiter=limiter,
        limiters=(limiter,),
        threads_per_work_group=threads,
        work_groups_per_unit=0,
        occupancy_pct=0.0,
        slm_bytes_used=slm_bytes_used,
        total_work_groups=None,
        peak_occupancy_pct=None,
        average_occupancy_pct=None,
        waves=None,
    )


def _s(n: int, verb: bool = False) -> str:
    """English plural ending: nouns take "s" when n != 1, verbs when n == 1."""
    return "s" if (n == 1) == verb else ""


def format_pct(value: float) -> str:
    """Short percentage for prose: whole numbers from 10 %, one decimal below."""
    return f"{value:.0f}%" if value >= 10 or value == 0 else f"{value:.1f}%"
