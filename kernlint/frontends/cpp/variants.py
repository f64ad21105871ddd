"""Files read once per arm of the `#if` groups that split a construct (`CppUnit.split`): the first
parse keeps the first arm of each, a parse per further arm keeps that arm, and the facts found inside
those arms join the first parse's. Blanking keeps every byte offset, so the parses' spans agree."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from kernlint.facts import FileFacts, HostFlow
from kernlint.facts.coverage import Coverage
from kernlint.frontends.common.coverage import kernel_coverage


def merged(first: FileFacts, other: FileFacts, regions: list[tuple[int, int]]) -> FileFacts:
    """`first` with the facts of `other` that start inside `regions` (the arms only `other` read)."""

    def inside(item: Any) -> bool:
        span = getattr(item, "span", None)
        return span is not None and any(lo <= span.start_byte < hi for lo, hi in regions)

    updates: dict[str, Any] = {}
    for field in fields(FileFacts):
        mine, theirs = getattr(first, field.name), getattr(other, field.name)
        if field.name in ("syntax_errors", "coverage", "host_flows", "usm") or not isinstance(mine, tuple):
            continue  # host flows: the first parse's, their OpenMP steps renumbered below
        if field.name == "dependencies":
            updates[field.name] = tuple(dict.fromkeys((*mine, *theirs)))
            continue
        added = [item for item in theirs if inside(item)]
        if added:
            updates[field.name] = tuple(sorted((*mine, *added), key=lambda item: item.span.start_byte))
    facts = replace(first, **updates)
    if "omp" in updates and first.host_flows:
        facts = replace(facts, host_flows=_renumbered(first.host_flows, first.omp, facts.omp))
    return replace(
        facts,
        coverage=kernel_coverage(
            facts.launches, facts.omp, _complete(first.coverage) and _complete(other.coverage), first.coverage.lost
        ),
    )


def _complete(coverage: Coverage) -> bool:
    return coverage.kernels_analysed >= coverage.kernels


def _renumbered(flows: tuple[HostFlow, ...], before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[HostFlow, ...]:
    """Host flows whose steps name OpenMP constructs by index, renumbered after other arms' constructs
    joined the list (the first parse's constructs keep their identity, not their place)."""
    place = {id(construct): index for index, construct in enumerate(after)}
    return tuple(
        replace(
            flow,
            steps=tuple(
                replace(step, construct=place[id(before[step.construct])]) if step.construct is not None else step
                for step in flow.steps
            ),
        )
        for flow in flows
    )
