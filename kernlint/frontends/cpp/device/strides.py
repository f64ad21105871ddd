"""Grid-stride loops in a kernel's device code: `for (i = gid; i < n; i += it.get_global_range(0))`.
A kernel that steps by the grid is written for more data than it has work-items, so its launch size is
a choice (KL206 warns about it only then)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import tree_sitter

from kernlint.facts import KernelLaunch, Span
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

_GRID_WORDS = re.compile(r"\bget_global_range\b|\bget_global_linear_range\b")
_GROUPS_WORDS = re.compile(r"\bget_group_range\b|\bget_group_linear_range\b")
_LOCAL_WORDS = re.compile(r"\bget_local_range\b|\bget_local_linear_range\b")
_STEP = re.compile(rb"(\w+)\s*\+=\s*([^;]+)|(\w+)\s*=\s*\3\s*\+\s*([^;]+)")


def grid_stride(
    scans: Iterable[dict[str, list[Node]]], regions: tuple[Span, ...], launch: KernelLaunch, unit: CppUnit
) -> bool:
    """Whether the launch's device code steps a loop by the whole grid: `i += it.get_global_range(0)`,
    `i += groups * wg` from the group and local ranges, a variable holding either, or a constant equal
    to the launch's global size."""
    total = launch.global_range.total if launch.global_range is not None else None
    for captures in scans:
        for loop in captures.get("loop", []):
            if not any(r.start_byte <= loop.start_byte < r.end_byte for r in regions):
                continue
            part = loop.child_by_field_name("update") if loop.type == "for_statement" else loop
            for match in _STEP.finditer((part.text if part is not None else b"") or b""):
                step = (match.group(2) or match.group(4) or b"").decode("utf-8", "replace").strip()
                if _covers_grid(_defined_as(step, loop), step, unit, loop.start_byte, total):
                    return True
    return False


def _covers_grid(text: str, written: str, unit: CppUnit, at: int, total: int | None) -> bool:
    if _GRID_WORDS.search(text) or (_GROUPS_WORDS.search(text) and _LOCAL_WORDS.search(text)):
        return True
    value = unit.constants.value(written, at) if total is not None else None
    return value is not None and value == total


def _defined_as(step: str, loop: Node) -> str:
    """`stride` as the function around `loop` defines it (`auto stride = it.get_global_range(0);`), else
    `step` itself."""
    if not re.fullmatch(r"\w+", step):
        return step
    function = loop.parent
    while function is not None and function.type not in ("lambda_expression", "function_definition"):
        function = function.parent
    text = text_of(function) if function is not None else ""
    found = re.search(rf"\b{re.escape(step)}\s*(?:=|\()\s*([^;]+);", text)
    return found.group(1) if found is not None else step
