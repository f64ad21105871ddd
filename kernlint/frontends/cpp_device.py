"""Device code of a C/C++ file: which code runs on the device, and what it does there.

Today: a kernel's device code is its body. (Issue 4 extends this module: functions called from
kernels, work-item dependence, divergent branches, sub-group block accesses.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kernlint.facts import Branch, KernelLaunch, SubGroupBlockAccess

if TYPE_CHECKING:
    from kernlint.frontends.cpp import CppFrontend


@dataclass(frozen=True)
class DeviceCode:
    """Launches with their device regions filled in, and the device-code facts found in them."""

    launches: tuple[KernelLaunch, ...]
    branches: tuple[Branch, ...] = ()
    block_accesses: tuple[SubGroupBlockAccess, ...] = ()


def analyse_device_code(frontend: "CppFrontend", launches: list[KernelLaunch]) -> DeviceCode:
    with_regions = tuple(replace(l, regions=(l.body,) if l.body is not None else ()) for l in launches)
    return DeviceCode(with_regions)
