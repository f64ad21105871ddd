"""Terminal charts of occupancy against work-group size and against local-memory size.

Like the charts of Intel's calculator, they show where a kernel sits and what changing one knob
would do. The sweeps are per Xe-core/SM (the launch's global size is left out, so every point is a
possible work-group), and the SLM sweep uses sizes the hardware really allocates, so unlike the
calculator's SLM chart it never disagrees with the result table.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kernlint.occupancy.api import compute
from kernlint.occupancy.profiles import KB, DeviceProfile, IntelProfile
from kernlint.occupancy.report import OccupancyReport
from kernlint.records import record

if TYPE_CHECKING:
    from rich.text import Text

_LEVELS = " ▁▂▃▄▅▆▇█"
_ROWS = 4
_MAX_POINTS = 64
_NVIDIA_SMEM_STEPS_KB = (0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 160, 192)


@record
class Sweep:
    """Occupancy (None: the launch cannot run) at each x, with the kernel's own point marked."""

    title: str
    x_label: str
    xs: tuple[int, ...]
    values: tuple[float | None, ...]
    marked: int
    """Index of the column drawn for the kernel (the nearest size on the sweep's grid)."""
    current: int
    """The kernel's own value, which may lie between two columns."""


def _again(dev: DeviceProfile, rep: OccupancyReport, wg: int, slm_bytes: int) -> float | None:
    i = rep.inputs
    try:
        other = compute(
            dev,
            wg=wg,
            sg=i.sg,
            slm_bytes=slm_bytes,
            barrier=i.barrier,
            large_grf=i.large_grf,
            regs=i.regs,
            static_slm_bytes=i.static_slm_bytes,
            max_dynamic_slm_bytes=i.max_dynamic_slm_bytes,
            kernel_max_threads=i.kernel_max_threads,
            carveout_pct=i.carveout_pct,
        )
    except ValueError:
        return None
    return other.occupancy_pct if other.valid else None


def wg_sweep(dev: DeviceProfile, rep: OccupancyReport) -> Sweep:
    """Occupancy for work-group sizes in multiples of the sub-group size up to the device maximum."""
    sg = rep.inputs.sg
    step = sg * math.ceil(dev.max_work_group_size / sg / _MAX_POINTS)
    xs = tuple(range(step, dev.max_work_group_size + 1, step))
    values = tuple(_again(dev, rep, x, rep.inputs.slm_bytes) for x in xs)
    marked = max((k for k, x in enumerate(xs) if x <= rep.inputs.wg), default=0)
    noun = "work-group" if dev.is_intel else "block"
    return Sweep(f"occupancy against {noun} size", f"{noun} size", xs, values, marked, rep.inputs.wg)


def slm_sweep(dev: DeviceProfile, rep: OccupancyReport) -> Sweep:
    """Occupancy for the local-memory sizes a work-group can be given, same work-group size."""
    if isinstance(dev, IntelProfile):
        kbs = [kb for kb in dev.slm_kb_allowed_sizes if kb <= dev.slm_kb_max_per_work_group]
        xs = tuple(kb * KB for kb in kbs)
        title, label = "occupancy against SLM per work-group", "SLM per work-group"
    else:
        top = dev.slm_bytes_per_unit - rep.inputs.static_slm_bytes
        xs = tuple(sorted({kb * KB for kb in _NVIDIA_SMEM_STEPS_KB if kb * KB < top} | {max(top, 0)}))
        title, label = "occupancy against dynamic shared memory per block", "shared memory per block"
    values = tuple(_again(dev, rep, rep.inputs.wg, x) for x in xs)
    marked = next((k for k, x in enumerate(xs) if x >= rep.inputs.slm_bytes), len(xs) - 1)
    return Sweep(title, label, xs, values, marked, rep.inputs.slm_bytes)


def _size(nbytes: int, as_bytes: bool) -> str:
    if not as_bytes:
        return str(nbytes)
    return f"{nbytes // KB} KB" if nbytes % KB == 0 else f"{nbytes} B"


def render(sweep: Sweep, as_bytes: bool = False) -> Text:
    """A small bar chart: one column per x, the kernel's column in red with a ▲ under it."""
    from rich.text import Text

    width = max(1, min(4, 48 // len(sweep.xs)))
    gutter = 6
    out = Text()
    out.append(f"{sweep.title}\n", style="bold")
    for row in range(_ROWS - 1, -1, -1):
        label = {_ROWS - 1: "100%", 0: "0%"}.get(row, "")
        out.append(f"{label:>{gutter - 2}} │", style="dim")
        for k, value in enumerate(sweep.values):
            if value is None:
                cell = "·" if row == 0 else " "
            else:
                level = round(value / 100 * _ROWS * 8)
                cell = _LEVELS[max(0, min(8, level - row * 8))]
            out.append(cell * width, style="bold red" if k == sweep.marked else "cyan")
        out.append("\n")
    out.append(" " * gutter + " " * (sweep.marked * width) + "▲" + "\n", style="bold red")
    first, last = _size(sweep.xs[0], as_bytes), _size(sweep.xs[-1], as_bytes)
    here = _size(sweep.current, as_bytes)
    out.append(
        f"{' ' * gutter}{sweep.x_label} {first} … {last}; ▲ this kernel ({here}); · cannot run\n",
        style="dim",
    )
    return out
