"""``compute``: the one call rules make to get the occupancy of a launch on a device."""

from __future__ import annotations

from kernlint.occupancy.launch import Extent, normalize
from kernlint.occupancy.model_intel import compute_intel
from kernlint.occupancy.model_nvidia import compute_nvidia
from kernlint.occupancy.profiles import DeviceProfile, IntelProfile, NvidiaProfile
from kernlint.occupancy.report import OccupancyReport


def compute(
    dev: DeviceProfile,
    wg: Extent,
    sg: int | None = None,
    slm_bytes: int = 0,
    global_size: Extent | None = None,
    barrier: bool = False,
    large_grf: bool = False,
    regs: int | None = None,
    *,
    static_slm_bytes: int = 0,
    max_dynamic_slm_bytes: int | None = None,
    kernel_max_threads: int | None = None,
    carveout_pct: int | None = None,
) -> OccupancyReport:
    """Occupancy of a launch of work-groups of ``wg`` work-items on ``dev``.

    ``wg`` and ``global_size`` are an int or up to three ints (multiplied). ``sg=None`` takes the
    device's default sub-group size (the report's ``sg_assumed`` says so). ``slm_bytes`` is local
    memory per work-group (NVIDIA: dynamic shared memory); ``static_slm_bytes`` adds statically
    declared local memory. ``global_size=None`` leaves the GPU-level figures out.

    NVIDIA only: ``regs`` registers per thread (None: the profile's documented default),
    ``max_dynamic_slm_bytes`` the kernel's MaxDynamicSharedMemorySize attribute (None: opted in to
    exactly ``slm_bytes``), ``carveout_pct`` the preferred shared-memory carveout (None: default).
    ``kernel_max_threads`` is the kernel's own work-group limit (``__launch_bounds__``) on both.
    ``barrier`` only matters on Intel GPUs whose barrier registers cap resident work-groups, and
    ``large_grf`` only exists on Intel GPUs that have the mode.

    Raises ValueError for values that are malformed on any device; a launch that is well-formed
    but cannot run on ``dev`` is a report with ``valid=False`` and ``error`` set.
    """
    inp = normalize(
        dev,
        wg,
        sg,
        slm_bytes,
        global_size,
        barrier,
        large_grf,
        regs,
        static_slm_bytes,
        max_dynamic_slm_bytes,
        kernel_max_threads,
        carveout_pct,
    )
    if isinstance(dev, IntelProfile):
        return compute_intel(dev, inp)
    if isinstance(dev, NvidiaProfile):
        return compute_nvidia(dev, inp)
    raise TypeError(f"no occupancy model for {type(dev).__name__}")
