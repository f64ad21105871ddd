"""The OpenMP half of KL201 (work-group-too-large): a constant `thread_limit` above the device maximum.

A team of an OpenMP offload region runs as one work-group, and `thread_limit(n)` asks for its size.
Unlike a SYCL launch, an oversized request does not fail: the runtime clamps it to what the device
allows, so the code silently runs with other work-groups than written — a warning that names the
clamp. In the OpenMP SIMD programming model (the parallel loop steps by the SIMD width and a
`simd simdlen(V)` loop inside spreads each step over V lanes), `thread_limit` counts EU threads, so a
team holds `thread_limit × V` work-items; the guide's kernel writes `thread_limit(WORKGROUP_SIZE /
VECLEN)` for that reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct
from kernlint_rules.launch.limits import work_group_too_large

if TYPE_CHECKING:
    from kernlint.rule import RuleContext


def thread_limit_findings(facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
    """KL201 findings for the constant `thread_limit` clauses of the file's OpenMP constructs."""
    device = ctx.device
    if device is None:
        return
    for construct in facts.omp:
        limit = construct.value("thread_limit")
        if limit is None or limit <= 0:
            continue
        width = simd_model_width(facts, construct)
        items = limit * width if width else limit
        finding = work_group_too_large(device, items)
        if finding is None:
            continue
        maximum = finding.maximum
        clause = construct.directive.clause("thread_limit") if construct.directive is not None else None
        expr = clause.expr if clause is not None else None
        written = f"thread_limit({expr if expr is not None else limit})"
        shown = written if expr is not None and expr.strip() == str(limit) else f"{written} = {limit}"
        if width:
            threads = max(1, maximum // width)
            message = (
                f"{shown} in the OpenMP SIMD model counts EU threads, not work-items: with "
                f"simdlen({width}) a team (work-group) asks for {limit} × {width} = {items} work-items, "
                f"above the maximum of {maximum} on {device.id}; the runtime clamps it to {threads} "
                f"threads ({threads * width} work-items), so the kernel runs with other work-groups "
                f"than written; use thread_limit({maximum} / {width}) or less"
            )
            clamp = threads
        else:
            message = (
                f"{shown} asks for {limit} work-items per team (work-group), above the maximum of "
                f"{maximum} on {device.id}; the runtime clamps it to {maximum}, so the kernel runs with "
                f"other work-groups than written; use thread_limit({maximum}) or less"
            )
            clamp = maximum
        yield ctx.diagnostic(
            construct.locate(clause.text) if clause is not None else construct.span,
            message,
            severity=Severity.WARNING,
            evidence={
                **finding.evidence(),
                "thread_limit": limit,
                "simdlen": width,
                "clamped_to": clamp,
                "simd_model": bool(width),
            },
            cost=clamped_team_cost(items, clamp * (width or 1), device.id),
        )


def simd_model_width(facts: FileFacts, construct: OmpConstruct) -> int | None:
    """The SIMD width V when `construct` is written in the OpenMP SIMD model, else None.

    The model's shape: the region's parallel loop steps by V, and a `simd` construct inside it
    declares `simdlen(V)`.
    """
    if construct.region is None:
        return None
    steps = {loop.step_value for loop in construct.loops if loop.vectorised and loop.role != "simd"}
    for inner in facts.constructs_inside(construct.region):
        if inner is construct or "simd" not in inner.leaves:
            continue
        if "for" in inner.leaves or "do" in inner.leaves:
            continue  # `for simd`: the SPMD model's vectorised loop
        width = inner.value("simdlen")
        if width and width > 1 and width in steps:
            return width
    return None


def clamped_team_cost(requested: int, clamped: int, device: str) -> Cost:
    """KL201 for OpenMP `thread_limit`: the runtime clamps the team; what that costs depends on the kernel."""
    return Cost(
        None,
        "%",
        "of the kernel's work affected",
        "depends on how the kernel uses its team size",
        f"the runtime clamps {requested} work-items per team to {clamped} on {device}",
        (),
        ("how the kernel's work depends on the team size (not in the device model)",),
        None,
        None,
        device,
        {"requested": requested, "clamped_to": clamped},
    )
