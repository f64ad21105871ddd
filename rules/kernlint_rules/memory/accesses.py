"""What the memory rules share: the sub-group size an access runs with, whether it is on the kernel's
hot path, one finding per access as written, and one report per array and loop."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, MemoryAccess, Span
from kernlint.occupancy import DeviceProfile
from kernlint.records import record
from kernlint.rule import RuleContext


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


def kernel_of(facts: FileFacts, access: MemoryAccess) -> Span | None:
    """The kernel body (SYCL) or the innermost OpenMP region holding the access."""
    launch = facts.launch_for(access.span)
    if launch is not None:
        return launch.body
    around = facts.constructs_around(access.span)  # outermost first, from the facts' region index
    return around[-1].region if around else None


@record(slots=True)
class Finding:
    """What a memory rule would say of one access, before repeats of it are folded together."""

    access: MemoryAccess
    message: str
    evidence: dict[str, Any]
    severity: Severity
    cost: Cost | None
    kernel: str | None


_LISTED = 8  # the lines of repeats a message names


def reported(ctx: RuleContext, facts: FileFacts, findings: Iterable[Finding]) -> Iterator[Diagnostic]:
    """One diagnostic per array, loop (or straight-line code) of one kernel, severity and stride: the
    accesses of one pixel's channels or one struct's members in a loop are one change to make, so they are
    one finding at the first, naming the others' lines (related locations too)."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding in findings:
        access, stride = finding.access, finding.access.stride
        key = (
            access.array,
            access.space,
            kernel_of(facts, access),
            access.function,
            access.loop,
            finding.severity,
            stride.form,
            stride.elements,
            stride.symbol,
        )
        groups.setdefault(key, []).append(finding)
    for first, *rest in groups.values():
        message = first.message
        if rest:
            lines = sorted({f.access.span.line for f in rest})
            named = ", ".join(str(line) for line in lines[:_LISTED]) + (", …" if len(lines) > _LISTED else "")
            more = "access" if len(rest) == 1 else "accesses"
            where_ = f"line{'s' if len(lines) > 1 else ''} {named}"
            message += f" (and {len(rest)} more {more} of `{first.access.array}` like it: {where_})"
        yield ctx.diagnostic(
            first.access.span,
            message,
            evidence=first.evidence | {"repeats": len(rest)},
            kernel=first.kernel,
            severity=first.severity,
            cost=first.cost,
            related=[(f.access.span, "the same access pattern") for f in rest],
        )
