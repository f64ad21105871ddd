"""An OpenMP prefetch inside a `simd` region: every SIMD lane issues it.

What it does
    Flags a `#pragma ompx prefetch` / `!$omp prefetch` that sits inside the loop of a `simd` construct
    (`#pragma omp simd`, `!$omp simd`, or a combined construct ending in `simd` such as
    `target teams distribute parallel for simd`), in C, C++ and Fortran.

Why it matters
    With OpenMP's SIMD programming model on Intel GPUs (`-fopenmp-target-simd`) each EU thread runs
    16 or 32 SIMD lanes and the `simd` loop is spread over them. The guide recommends placing the
    prefetch *outside* the `simd` loop: then one lane issues one prefetch for the whole thread, which
    is what a 64-byte cache line needs, and the usual `if (next % 16 == 0)` masking becomes
    unnecessary. Inside the `simd` loop every lane issues its own prefetch instruction, so the
    thread sends up to SIMD-width prefetches, mostly for the same cache line.

Example
    #pragma omp simd simdlen(16)
    for (int v = 0; v < 16; ++v) {
      bb[u + v] = b[j + u + v];
      #pragma ompx prefetch data(4: b[j + TILE + u + v]) if (j + TILE + u + v < n)   // KL404
    }

Fix
    Move the prefetch after the `simd` loop, at the level of the loop that steps by the SIMD width:

    #pragma omp simd simdlen(16)
    for (int v = 0; v < 16; ++v) bb[u + v] = b[j + u + v];
    int next = j + TILE + u;
    #pragma ompx prefetch data(4: b[next]) if (next < n)

Severity
    Warning: every SIMD lane issues the same prefetch; the message names the change (move it out
    of the `simd` region or guard it to one lane) and the share of redundant prefetches.

Occupancy basis
    None: the cost is redundant prefetch instructions issued by every lane.

Cost
    The wasted share of prefetches: (simdlen − 1) ÷ simdlen, one per lane where one suffices;
    unknown without `simdlen`.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext
from kernlint_rules.prefetch.costs import prefetch_waste_cost


class PrefetchInSimd(Rule):
    code = "KL404"
    name = "prefetch-in-simd"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for construct in facts.omp:
            directive = construct.directive
            if directive is None or directive.kind != "prefetch":
                continue
            simd = [c for c in facts.constructs_around(construct.span) if "simd" in c.leaves]
            if not simd:
                continue
            region = simd[-1]
            width = region.value("simdlen")
            lanes = f"each of the {width} lanes" if width else "every SIMD lane"
            data = directive.clause("data")
            yield ctx.diagnostic(
                construct.locate(data.text) if data is not None else construct.span,
                f"prefetch inside the `{region.kind}` region at line {region.span.line}: {lanes} issues its own "
                f"prefetch, mostly for the same cache line; move it after the simd loop so one lane issues it "
                f"(the guide recommends prefetching outside the scope of simd)",
                evidence={"simd_line": region.span.line, "simdlen": width, "construct": region.kind},
                related=[(region.span, "the simd construct")],
                cost=(
                    prefetch_waste_cost(width, f"each of the {width} simd lanes issues it", per="per simd step")
                    if isinstance(width, int) and width > 1
                    else prefetch_width_unknown_cost("the same line")
                ),
            )


def prefetch_width_unknown_cost(what: str) -> Cost:
    """KL404 when the simd width is not written: the formula only."""
    return Cost(
        None,
        "%",
        "of the prefetches wasted",
        "(lanes − 1) ÷ lanes",
        f"each of the simd lanes prefetches {what}",
        (),
        ("the simd width (simdlen)",),
        None,
    )
