"""What the device-code analysis of a C/C++ file gives (`DeviceCode`), apart from the analysis: the
front-end builds the empty one for a file without kernels without importing the analysis."""

from __future__ import annotations

from kernlint.facts import Barrier, Branch, KernelLaunch, LimitReached, SubGroupBlockAccess
from kernlint.facts.memory import MemoryAccess
from kernlint.records import record


@record
class DeviceCode:
    """Launches with their device regions filled in (the unlaunched kernels that no other kernel
    reaches after them), the device-code facts found in them, and whether the analysis of their code
    ran to the end. `barriers` is None when the device code was not analysed (the caller then reads
    them as written)."""

    launches: tuple[KernelLaunch, ...]
    branches: tuple[Branch, ...] = ()
    block_accesses: tuple[SubGroupBlockAccess, ...] = ()
    barriers: tuple[Barrier, ...] | None = None
    complete: bool = True
    memory_accesses: tuple[MemoryAccess, ...] = ()
    limits: tuple[LimitReached, ...] = ()  # where the analysis of device code stopped at one of its bounds
