"""Device profiles: the hardware numbers the occupancy models need, as frozen data.

A profile is pure data read from a TOML file (see ``loader.py``); the models never look anything
up elsewhere, so a user's own TOML describes a GPU completely. Intel and NVIDIA GPUs limit
residency through different resources, hence two subclasses of one common base that rules can
treat alike through ``unit``, ``max_work_group_size``, ``sub_group_sizes`` and ``slm_bytes_per_unit``.

The memory model (the memory-access rules, KL6xx) is common to both: ``cache_line_bytes`` (a line of the
cache), ``sector_bytes`` (what one access moves at least: a 64-byte line on Intel GPUs, a 32-byte
sector of the 128-byte line on NVIDIA GPUs), and the banks of local memory, ``local_memory_banks``
(Intel ``slm_banks``, NVIDIA ``shared_memory_banks``) each ``slm_bank_bytes`` wide (4: consecutive
32-bit words sit in consecutive banks).
"""

from __future__ import annotations

from dataclasses import field, fields
from fractions import Fraction
from typing import Any

from kernlint.occupancy.host import UNKNOWN_HOST, HostSide
from kernlint.records import record

KB = 1024


@record
class DeviceProfile:
    """What every device has: identity, provenance and the launch limits rules check first."""

    id: str
    name: str
    source: str
    notes: tuple[str, ...]
    max_work_group_size: int
    sub_group_sizes: tuple[int, ...]
    """Supported sub-group sizes; the first is the default the model assumes when none is given."""
    cache_line_bytes: int
    sector_bytes: int
    """The unit a sub-group's global access moves: the whole line on Intel GPUs, a 32-byte sector on NVIDIA's."""
    slm_bank_bytes: int
    """Width of a local-memory bank: consecutive words of this size sit in consecutive banks."""
    host: HostSide = field(default=UNKNOWN_HOST, kw_only=True)
    """Attachment and bandwidths (the profile's ``[host]`` table); all unknown when not given."""

    @property
    def vendor(self) -> str:
        """``intel`` or ``nvidia``: which model computes occupancy for this device."""
        raise NotImplementedError

    @property
    def unit(self) -> str:
        """Name of the block a work-group must live on: ``xe-core`` or ``sm``."""
        raise NotImplementedError

    @property
    def is_intel(self) -> bool:
        return self.vendor == "intel"

    @property
    def default_sub_group_size(self) -> int:
        return self.sub_group_sizes[0]

    @property
    def slm_bytes_per_unit(self) -> int:
        """The most local (shared) memory one work-group can get on one Xe-core / SM."""
        raise NotImplementedError

    @property
    def local_memory_banks(self) -> int:
        """Banks of local (shared) memory: a sub-group's lanes that hit one bank at different words wait
        for each other."""
        raise NotImplementedError

    @property
    def slm_capacity_bytes_per_unit(self) -> int:
        """All the local (shared) memory of one Xe-core / SM, shared by its resident work-groups."""
        raise NotImplementedError

    @property
    def unit_count(self) -> Fraction:
        """Xe-cores / SMs in the GPU (Intel's table has fractional counts such as 1.5)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """Every field plus the derived figures rules and ``kernlint devices`` show."""
        data: dict[str, Any] = {"id": self.id, "vendor": self.vendor, "unit": self.unit}
        data["unit_count"] = float(self.unit_count)
        data["slm_bytes_per_unit"] = self.slm_bytes_per_unit
        data["local_memory_banks"] = self.local_memory_banks
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, HostSide):
                value = value.to_json()
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@record
class IntelProfile(DeviceProfile):
    """An Intel GPU in the terms of Intel's GPU Occupancy Calculator.

    An Xe-core is one pool of ``threads_per_xe_core`` hardware threads; XVE counts only give the
    number of Xe-cores (``xve_count / xves_per_xe_core``), exactly as the calculator uses them.
    """

    calculator_id: str
    """The calculator's family code (``gen12``, ``xe_hpc_pvc`` …) this profile was taken from."""
    xve_count: int
    xves_per_xe_core: int
    threads_per_xve: int
    threads_per_xe_core: int
    slm_kb_per_xe_core: int
    slm_kb_max_per_work_group: int
    slm_kb_allowed_sizes: tuple[int, ...]
    """Per-work-group SLM sizes the hardware allocates; a request is rounded up to the next one."""
    max_work_groups_per_xe_core: int
    barrier_registers: int
    """Work-groups with barriers resident per Xe-core (one barrier register each)."""
    large_grf: bool
    """Whether a large-register-file mode (half the threads, twice the registers) exists."""
    slm_banks: int

    @property
    def vendor(self) -> str:
        return "intel"

    @property
    def unit(self) -> str:
        return "xe-core"

    @property
    def slm_bytes_per_unit(self) -> int:
        return self.slm_kb_max_per_work_group * KB

    @property
    def local_memory_banks(self) -> int:
        return self.slm_banks

    @property
    def slm_capacity_bytes_per_unit(self) -> int:
        return self.slm_kb_per_xe_core * KB

    @property
    def unit_count(self) -> Fraction:
        return Fraction(self.xve_count, self.xves_per_xe_core)


@record
class NvidiaProfile(DeviceProfile):
    """An NVIDIA GPU with the constants ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` uses."""

    compute_capability: str
    sm_count: int
    warp_size: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    registers_per_block: int
    register_allocation_unit: int
    """Registers are granted per warp in multiples of this (256 on cc 8.0/9.0)."""
    register_sub_partitions: int
    """The register file is split in this many parts (4 quarters); a warp's registers come from one."""
    max_registers_per_thread: int
    default_registers_per_thread: int
    """Assumed when the register count is unknown (it is only known after ptxas)."""
    shared_memory_per_sm: int
    shared_memory_per_block: int
    shared_memory_per_block_optin: int
    shared_memory_allocation_unit: int
    reserved_shared_memory_per_block: int
    shared_memory_carveouts_kb: tuple[int, ...]
    shared_memory_banks: int

    @property
    def vendor(self) -> str:
        return "nvidia"

    @property
    def unit(self) -> str:
        return "sm"

    @property
    def slm_bytes_per_unit(self) -> int:
        return self.shared_memory_per_block_optin

    @property
    def local_memory_banks(self) -> int:
        return self.shared_memory_banks

    @property
    def slm_capacity_bytes_per_unit(self) -> int:
        return self.shared_memory_per_sm

    @property
    def unit_count(self) -> Fraction:
        return Fraction(self.sm_count)

    @property
    def max_warps_per_sm(self) -> int:
        return self.max_threads_per_sm // self.warp_size
