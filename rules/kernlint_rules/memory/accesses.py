"""What the memory rules share: the sub-group size an access runs with, whether it is on the kernel's
hot path, and one finding per access as written."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kernlint.diagnostics import Severity
from kernlint.facts import FileFacts, MemoryAccess
from kernlint.occupancy import DeviceProfile


def sub_group_size(facts: FileFacts, access: MemoryAccess, device: DeviceProfile) -> tuple[int, bool]:
    """The kernel's required sub-group size when the device supports it, else the device's default
    (NVIDIA: the warp); the flag says whether it was assumed."""
    launch = facts.launch_for(access.span)
    required = launch.attributes.reqd_sub_group_size if launch is not None else None
    if required is not None and required in device.sub_group_sizes:
        return required, False
    return device.default_sub_group_size, len(device.sub_group_sizes) > 1


def hot(access: MemoryAccess) -> bool:
    """In a loop of device code, or one of the accesses of a kernel without any loop (its work)."""
    return access.loop is not None or access.main


def where(access: MemoryAccess) -> str:
    if access.lanes == "edge":
        return "only lanes past a bound run it"
    if access.loop is not None:
        return f"in the loop at line {access.loop.line}"
    if access.main:
        return "the kernel's main data access"
    return "once per work-item"


def severity(access: MemoryAccess, material: bool) -> Severity:
    """Warning on the hot path when the loss is material, info otherwise (and for code only the lanes
    past a bound run: the tail of a loop, the `else` of a bound test)."""
    return Severity.WARNING if material and hot(access) and access.lanes != "edge" else Severity.INFO


def written(access: MemoryAccess) -> str:
    return f"{access.array}{access.index}" + (f".{access.member}" if access.member else "")


def once_each(accesses: Iterable[MemoryAccess]) -> Iterator[MemoryAccess]:
    """One access per line and text: `a[i * n + k] * a[i * n + k]` is one finding."""
    seen: set[tuple[int, str, str, str]] = set()
    for access in accesses:
        key = (access.span.line, written(access), access.kind, access.space)
        if key not in seen:
            seen.add(key)
            yield access


def lane_words(lanes: int, assumed: bool) -> str:
    return f"a sub-group of {lanes}" + (" (the device's default size)" if assumed else "")
