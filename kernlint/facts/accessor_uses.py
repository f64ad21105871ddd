"""How a kernel uses an accessor (reads, writes, read-modify-writes, atomics, escapes).

Owned by the accessor-usage analysis (`kernlint/frontends/cpp_accessors.py`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AccessorUses:
    """Counts of each kind of use inside the kernel(s) of the accessor's command group."""

    reads: int = 0
    writes: int = 0
    read_modify_writes: int = 0
    atomic: bool = False
    escapes: bool = False  # passed somewhere the analysis cannot see (treated as read-write)
