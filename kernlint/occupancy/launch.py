"""Launch inputs: checking what a caller passed and filling in the device's defaults.

Values that make no sense on any device (a zero-sized work-group, negative memory, an option the
device does not have) raise ``ValueError`` here: they are usage errors, not facts about the
launch. Launches that are well-formed but cannot run on the device become ``valid=False`` reports
in the models instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from kernlint.occupancy.profiles import DeviceProfile, IntelProfile, NvidiaProfile
from kernlint.records import record

Extent = int | Sequence[int]
"""A 1-, 2- or 3-dimensional size: ``512`` or ``(8, 8, 4)``."""


@record
class LaunchInputs:
    """The launch as the model used it (defaults filled in, dimensions kept)."""

    wg_dims: tuple[int, ...]
    sg: int
    sg_assumed: bool
    """True when no sub-group size was given and the device default was used."""
    slm_bytes: int
    """Local memory per work-group the kernel requests (NVIDIA: dynamic shared memory)."""
    global_dims: tuple[int, ...] | None
    barrier: bool
    large_grf: bool
    regs: int | None
    """Registers per thread used (NVIDIA: given or the device default; Intel: None)."""
    regs_assumed: bool
    static_slm_bytes: int = 0
    max_dynamic_slm_bytes: int | None = None
    kernel_max_threads: int | None = None
    carveout_pct: int | None = None

    @property
    def wg(self) -> int:
        return _product(self.wg_dims)

    @property
    def global_size(self) -> int | None:
        return None if self.global_dims is None else _product(self.global_dims)


def _product(dims: tuple[int, ...]) -> int:
    out = 1
    for d in dims:
        out *= d
    return out


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def extent(value: Extent, what: str) -> tuple[int, ...]:
    """``512`` -> ``(512,)``; ``(8, 8, 4)`` stays; anything else is a ValueError naming ``what``."""
    dims: tuple[object, ...] = (value,) if _is_int(value) else tuple(value) if isinstance(value, Sequence) else ()
    sizes = tuple(d for d in dims if _is_int(d) and d > 0)
    if not 1 <= len(dims) <= 3 or len(sizes) != len(dims):
        raise ValueError(f"{what} must be a positive integer or 1 to 3 positive integers (got {value!r})")
    return sizes


def _count(value: int | None, what: str, minimum: int = 0) -> None:
    if value is not None and (not _is_int(value) or value < minimum):
        raise ValueError(f"{what} must be an integer >= {minimum} (got {value!r})")


def normalize(
    dev: DeviceProfile,
    wg: Extent,
    sg: int | None,
    slm_bytes: int,
    global_size: Extent | None,
    barrier: bool,
    large_grf: bool,
    regs: int | None,
    static_slm_bytes: int,
    max_dynamic_slm_bytes: int | None,
    kernel_max_threads: int | None,
    carveout_pct: int | None,
) -> LaunchInputs:
    """Check the caller's values and fill in device defaults (ValueError on a usage error)."""
    wg_dims = extent(wg, "wg")
    global_dims = None if global_size is None else extent(global_size, "global_size")
    _count(sg, "sg", 1)
    _count(slm_bytes, "slm_bytes")
    _count(static_slm_bytes, "static_slm_bytes")
    _count(max_dynamic_slm_bytes, "max_dynamic_slm_bytes")
    _count(kernel_max_threads, "kernel_max_threads", 1)
    _count(carveout_pct, "carveout_pct")
    if large_grf and not (isinstance(dev, IntelProfile) and dev.large_grf):
        raise ValueError(f"large GRF mode is not available on {dev.id}")
    regs_assumed = False
    if isinstance(dev, NvidiaProfile):
        if regs is None:
            regs, regs_assumed = dev.default_registers_per_thread, True
        elif not _is_int(regs) or not 1 <= regs <= dev.max_registers_per_thread:
            raise ValueError(
                f"regs must be an integer from 1 to {dev.max_registers_per_thread} on {dev.id} (got {regs!r})"
            )
        if carveout_pct is not None and carveout_pct > 100:
            raise ValueError(f"carveout_pct must be from 0 to 100 (got {carveout_pct})")
    else:
        nvidia_only = {
            "regs": regs,
            "max_dynamic_slm_bytes": max_dynamic_slm_bytes,
            "carveout_pct": carveout_pct,
        }
        given = [name for name, value in nvidia_only.items() if value is not None]
        if given:
            raise ValueError(
                f"{given[0]} applies to NVIDIA devices only, not to {dev.id} "
                "(Intel register pressure is modelled through large_grf)"
            )
    return LaunchInputs(
        wg_dims=wg_dims,
        sg=dev.default_sub_group_size if sg is None else sg,
        sg_assumed=sg is None,
        slm_bytes=slm_bytes,
        global_dims=global_dims,
        barrier=bool(barrier),
        large_grf=bool(large_grf),
        regs=regs,
        regs_assumed=regs_assumed,
        static_slm_bytes=static_slm_bytes,
        max_dynamic_slm_bytes=max_dynamic_slm_bytes,
        kernel_max_threads=kernel_max_threads,
        carveout_pct=carveout_pct,
    )


def indivisible(inp: LaunchInputs) -> str | None:
    """Why the global size cannot be split into whole work-groups, or None when it can.

    With the same number of dimensions on both sides each dimension must divide, as SYCL
    requires; otherwise only the totals are compared (all Intel's calculator ever checks).
    """
    if inp.global_dims is None:
        return None
    if len(inp.global_dims) == len(inp.wg_dims) > 1:
        for axis, (g, w) in enumerate(zip(inp.global_dims, inp.wg_dims)):
            if g % w:
                return f"global size {g} is not a multiple of work-group size {w} in dimension {axis}"
        return None
    total = _product(inp.global_dims)
    if total % inp.wg:
        return f"global size {total} is not a multiple of work-group size {inp.wg}"
    return None
