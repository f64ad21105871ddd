"""NVIDIA SM occupancy, reproducing ``cudaOccupancyMaxActiveBlocksPerMultiprocessor``.

The formula (``shared/devices/nvidia-occupancy-model.md``) reproduces all 27,732 answers the CUDA
13.0 runtime gave on an H100. What a textbook formula misses, and why each piece is here:

* registers are granted per warp in units of 256, and each warp takes them from one of the four
  sub-partition register files, so a block's warps are counted per quarter, not pooled per SM;
* shared memory is charged in 128-byte units and every block carries a 1 KB reserve;
* the shared-memory capacity of an SM is one of a few carveout steps; the preference is rounded up
  to a step, and raised if one block would not fit.

``max_active_blocks`` is the runtime's answer, quirks included (it still reports a count for a
block above the kernel's ``__launch_bounds__`` and ignores a too-small dynamic-memory attribute when
the kernel did not opt in). ``compute_nvidia`` turns launches the runtime would refuse into
``valid=False`` reports instead of occupancies.
"""

from __future__ import annotations

from kernlint.occupancy.launch import LaunchInputs, indivisible
from kernlint.occupancy.profiles import KB, NvidiaProfile
from kernlint.occupancy.report import OccupancyReport, refused, resident
from kernlint.records import record


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


@record
class BlockLimits:
    """Resident blocks per SM that each resource alone allows; the runtime answers their minimum."""

    warps: int
    blocks: int
    registers: int | None
    """None when the kernel uses no registers (the runtime then ignores the register file)."""
    shared_memory: int
    shared_bytes_per_block: int
    """Shared memory charged per block: static + dynamic + reserve, rounded to the allocation unit."""

    @property
    def active_blocks(self) -> int:
        regs = self.blocks if self.registers is None else self.registers
        return min(self.warps, self.blocks, regs, self.shared_memory)


def max_active_blocks(
    dev: NvidiaProfile,
    block_size: int,
    regs_per_thread: int,
    static_smem: int = 0,
    dynamic_smem: int = 0,
    max_dynamic_smem: int | None = None,
    carveout_pct: int | None = None,
) -> BlockLimits:
    """What ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` returns, limit by limit.

    ``max_dynamic_smem`` is the kernel's ``cudaFuncAttributeMaxDynamicSharedMemorySize`` (None:
    the CUDA default, 48 KB minus the static size); ``carveout_pct`` the preferred carveout
    (None: the default, i.e. the largest capacity).
    """
    warps = -(-block_size // dev.warp_size)
    lim_warps = 0 if block_size > dev.max_work_group_size else dev.max_warps_per_sm // warps

    lim_regs: int | None = None
    if regs_per_thread > 0:
        per_warp = _round_up(regs_per_thread * dev.warp_size, dev.register_allocation_unit)
        parts = dev.register_sub_partitions
        if per_warp * _round_up(warps, parts) > dev.registers_per_block:
            lim_regs = 0
        else:
            warps_per_part = dev.registers_per_sm // parts // per_warp
            lim_regs = parts * warps_per_part // warps

    attr = dev.shared_memory_per_block - static_smem if max_dynamic_smem is None else max_dynamic_smem
    reserve = dev.reserved_shared_memory_per_block
    per_block = _round_up(static_smem + reserve + dynamic_smem, dev.shared_memory_allocation_unit)
    opted_in = static_smem + attr > dev.shared_memory_per_block
    cap = (dev.shared_memory_per_block_optin if opted_in else dev.shared_memory_per_block) + reserve
    if (opted_in and dynamic_smem > attr) or per_block > cap:
        lim_smem = 0
    else:
        if carveout_pct is None:
            capacity = dev.shared_memory_carveouts_kb[-1] * KB
        else:
            capacity = _carveout_at_least(dev, carveout_pct * dev.shared_memory_per_sm // 100)
        if capacity < per_block:
            capacity = _carveout_at_least(dev, per_block)
        lim_smem = capacity // per_block

    return BlockLimits(lim_warps, dev.max_blocks_per_sm, lim_regs, lim_smem, per_block)


def _carveout_at_least(dev: NvidiaProfile, nbytes: int) -> int:
    return next(kb * KB for kb in dev.shared_memory_carveouts_kb if kb * KB >= nbytes)


def max_threads_per_block(dev: NvidiaProfile, regs_per_thread: int) -> int:
    """The largest block the register file admits at this register count (the kernel attribute)."""
    per_warp = _round_up(regs_per_thread * dev.warp_size, dev.register_allocation_unit)
    parts = dev.register_sub_partitions
    by_regs = dev.warp_size * parts * (dev.registers_per_sm // parts // per_warp)
    return min(dev.max_work_group_size, by_regs)


def compute_nvidia(dev: NvidiaProfile, inp: LaunchInputs) -> OccupancyReport:
    """Occupancy of one launch on an NVIDIA GPU (inputs already normalised by ``compute``).

    ``slm_bytes`` is dynamic shared memory; unless the caller says otherwise the kernel is taken
    to have opted in to exactly that much (``MaxDynamicSharedMemorySize`` = the request), as in
    the H100 reference measurements. The per-SM figures are the API's and do not shrink for a
    launch with few blocks (Intel's calculator does that); a small launch shows in the GPU-level
    peak and average instead.
    """
    block = inp.wg
    warps = -(-block // dev.warp_size)
    threads = warps * dev.warp_size
    regs = inp.regs if inp.regs is not None else dev.default_registers_per_thread
    attr = inp.slm_bytes if inp.max_dynamic_slm_bytes is None else inp.max_dynamic_slm_bytes
    limits = max_active_blocks(dev, block, regs, inp.static_slm_bytes, inp.slm_bytes, attr, inp.carveout_pct)
    used = limits.shared_bytes_per_block

    def refuse(limiter: str, error: str, slm_used: int | None = used) -> OccupancyReport:
        return refused(dev, inp, limiter, error, threads, slm_used)

    if inp.sg != dev.warp_size:
        return refuse(
            "sub-group-size",
            f"sub-group size {inp.sg} is not supported by {dev.id} (warp size {dev.warp_size})",
        )
    if block > dev.max_work_group_size:
        return refuse(
            "work-group-size",
            f"block size {block} exceeds the maximum of {dev.max_work_group_size} on {dev.id}",
        )
    if inp.kernel_max_threads is not None and block > inp.kernel_max_threads:
        return refuse(
            "work-group-size",
            f"block size {block} exceeds the kernel's launch bound of {inp.kernel_max_threads}: the launch fails",
        )
    if inp.static_slm_bytes > dev.shared_memory_per_block:
        return refuse(
            "slm",
            f"{inp.static_slm_bytes} bytes of static shared memory exceed the {dev.shared_memory_per_block} "
            f"bytes allowed statically on {dev.id}",
            None,
        )
    if inp.slm_bytes > attr:
        return refuse(
            "slm",
            f"{inp.slm_bytes} bytes of dynamic shared memory exceed the kernel's "
            f"MaxDynamicSharedMemorySize of {attr}: the launch fails",
            None,
        )
    reason = indivisible(inp)
    if reason:
        return refuse("global-size", reason)
    if limits.registers == 0:
        return refuse(
            "registers",
            f"a block of {block} threads at {regs} registers per thread does not fit the register file "
            f"of {dev.id} (at most {max_threads_per_block(dev, regs)} threads per block): the launch fails",
        )
    if limits.shared_memory == 0:
        optin = dev.shared_memory_per_block_optin
        return refuse(
            "slm",
            f"{inp.static_slm_bytes + inp.slm_bytes} bytes of shared memory per block exceed the "
            f"{optin} bytes a block can use on {dev.id}",
            None,
        )

    bounds = [("threads", limits.warps)]
    if limits.registers is not None:
        bounds.append(("registers", limits.registers))
    bounds += [("slm", limits.shared_memory), ("work-group-cap", limits.blocks)]
    # The runtime's answer (`limits.active_blocks`) is the tightest of these bounds.
    return resident(dev, inp, bounds, threads, (warps, dev.max_warps_per_sm), used)
