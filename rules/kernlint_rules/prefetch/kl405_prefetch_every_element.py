"""An OpenMP prefetch issued for every element of a sequential loop: one per cache line suffices.

What it does
    Flags a `#pragma ompx prefetch` / `!$omp prefetch` inside a sequential loop whose index it
    advances with by less than a cache line per iteration — `b[next]` with `next = j + TILE + u` in
    `for (u = 0; u < TILE; ++u)` prefetches consecutive floats, 4 bytes apart — when no condition
    thins it out (`if (next % 16 == 0)` around it or in its `if` clause). The cache line size comes
    from the device profile (64 bytes on Intel Data Center GPU Max), the element size from the array's
    declaration (`float *b`, `real b(0:n-1)`). Not reported: a prefetch whose index follows the
    parallel or `simd` loop (the prefetch is then vectorised, and masking may not help), a loop that
    already steps a cache line or more per iteration (`u += 16` over floats), an array of unknown
    element type, prefetches inside `simd` regions (KL404 covers those), and non-Intel devices.

Why it matters
    A prefetch brings in a whole cache line whichever element of it was named, so prefetching every
    element of a line asks for the same line again and again: 16 prefetch instructions per 64-byte
    line of floats, where one would do. The guide's N-body kernel therefore issues the prefetch only
    when `next_tile % 16 == 0`, because its tile index `j` is not vectorised (only `i` is). The guide
    also notes that such masking is a trade-off to measure, so this is reported as information.

Example
    for (int u = 0; u < TILE; ++u) {
      bb[u] = b[j + u];
      int next = j + TILE + u;
      #pragma ompx prefetch data(4: b[next]) if (next < n2)     // KL405: 16 prefetches per line
    }

Fix
    Prefetch once per cache line:

    if (next % 16 == 0) {
      #pragma ompx prefetch data(4: b[next]) if (next < n2)
    }

Severity
    Info: one prefetch per element where one per cache line would do wastes issue slots but
    costs little next to the loads it accompanies.

Occupancy basis
    The device profile's `cache_line_bytes` (64 on Intel Data Center GPU Max) sets how many
    elements one prefetch covers.

Cost
    The wasted share of prefetches: (p − 1) ÷ p with p = cache line ÷ stride prefetches per line.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import Linear, OmpConstruct, OmpLoop
from kernlint.rule import Rule, RuleContext
from kernlint_rules.prefetch.costs import prefetch_waste_cost


class PrefetchEveryElement(Rule):
    code = "KL405"
    name = "prefetch-every-element"
    severity = Severity.INFO
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.device
        line_bytes = getattr(device, "cache_line_bytes", None)
        if device is None or not device.is_intel or not line_bytes:
            return
        for construct in facts.omp:
            if construct.kind != "prefetch":
                continue
            if any("simd" in c.leaves for c in facts.constructs_around(construct.span)):
                continue
            for target in construct.targets:
                if target.index is None or not target.element_bytes or _vectorised(target.index, construct):
                    continue
                loop = _advancing_loop(target.index, construct.enclosing_loops)
                if loop is None or loop.index is None or loop.step_value is None:
                    continue
                stride = abs(target.index.coefficient(loop.index) * loop.step_value) * target.element_bytes
                if stride >= line_bytes or _masked(construct, loop.index):
                    continue
                per_line = line_bytes // stride
                modulus = line_bytes // target.element_bytes
                subject = (
                    target.index_text
                    if (target.index_text or "").replace("_", "a").isalnum()
                    else f"({target.index_text})"
                )
                yield ctx.diagnostic(
                    construct.locate(target.text),
                    f"prefetch of `{target.text}` is issued on every iteration of the `{loop.index}` loop, "
                    f"{stride} bytes apart: {per_line} prefetches ask for each {line_bytes}-byte cache line "
                    f"where one suffices; issue it once per line, e.g. under "
                    f"`if ({subject} % {modulus} == 0)`",
                    evidence={
                        "array": target.base,
                        "loop": loop.index,
                        "stride_bytes": stride,
                        "cache_line_bytes": line_bytes,
                        "prefetches_per_line": per_line,
                        "element_bytes": target.element_bytes,
                    },
                    related=[(loop.span, f"the `{loop.index}` loop the prefetch runs in")],
                    cost=prefetch_waste_cost(
                        per_line,
                        f"{line_bytes}-byte line ÷ {stride}-byte stride = {per_line} prefetches per line",
                        device.id,
                    ),
                )


def _vectorised(index: Linear, construct: OmpConstruct) -> bool:
    """Whether the index follows a parallel or simd loop around the prefetch."""
    return any(loop.vectorised and loop.index and index.coefficient(loop.index) for loop in construct.enclosing_loops)


def _advancing_loop(index: Linear, loops: tuple[OmpLoop, ...]) -> OmpLoop | None:
    """The innermost sequential loop around the prefetch that moves its index."""
    for loop in reversed(loops):
        if loop.index is not None and index.coefficient(loop.index):
            return loop if not loop.vectorised else None
    return None


def _masked(construct: OmpConstruct, variable: str) -> bool:
    """A modulo test on something that moves with `variable`, around the prefetch or in its if clause."""
    conditions = list(construct.conditions) + ([construct.if_condition] if construct.if_condition else [])
    return any(subject.coefficient(variable) for c in conditions for subject, _m in c.masks) or any(
        c.opaque for c in conditions
    )
