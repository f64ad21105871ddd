"""How kernels use their accessors (reads, writes, read-modify-writes, atomics, escapes).

Today: not analysed (`uses` stays None). Issue 4 fills this module in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernlint.facts import Accessor, KernelLaunch

if TYPE_CHECKING:
    from kernlint.frontends.cpp import CppFrontend


def analyse_accessor_uses(frontend: "CppFrontend", launches: tuple[KernelLaunch, ...],
                          accessors: list[Accessor]) -> list[Accessor]:
    return accessors
