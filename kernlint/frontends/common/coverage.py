"""What a front-end saw of a file's kernels, counted the same way for every language (`Coverage`)."""

from __future__ import annotations

from collections.abc import Iterable

from kernlint.facts import KernelLaunch, OmpConstruct
from kernlint.facts.coverage import Coverage, LostLines, UnseenKernel


def kernel_coverage(
    launches: Iterable[KernelLaunch],
    omp: Iterable[OmpConstruct],
    complete: bool = True,
    lost: tuple[LostLines, ...] = (),
) -> Coverage:
    """SYCL launches (one per launch call, however many kernels a wrapper links it to), the distinct
    kernel bodies (launched or found by what they are), and the launches whose kernel was not found;
    each OpenMP construct with `target` and a region is a launch and its region a kernel. `complete`
    False: the device-code analysis gave up on the file, so no SYCL kernel of it counts as analysed."""
    by_call: dict[tuple[int, int], list[KernelLaunch]] = {}
    bodies: set[tuple[int, int]] = set()
    for launch in launches:
        if launch.launched:
            by_call.setdefault((launch.span.start_byte, launch.span.end_byte), []).append(launch)
        if launch.body is not None:
            bodies.add((launch.body.start_byte, launch.body.end_byte))
    unseen = [
        UnseenKernel(facts[0].span, facts[0].link_note or "the kernel was not found")
        for facts in by_call.values()
        if not any(f.body is not None or f.link == "header" for f in facts)
    ]
    targets = [c for c in omp if c.directive is not None and c.leaves[:1] == ("target",) and not c.directive.is_end]
    seen_targets = sum(1 for c in targets if c.region is not None)
    unseen += [UnseenKernel(c.span, "the code after the directive was not read") for c in targets if c.region is None]
    return Coverage(
        launches=len(by_call) + len(targets),
        kernels=len(bodies) + seen_targets,
        kernels_analysed=(len(bodies) if complete else 0) + seen_targets,
        unseen=tuple(sorted(unseen, key=lambda u: u.span.start_byte)),
        lost=lost,
    )


def merged_lines(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges (first, last) merged where they touch or overlap, in order."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged
