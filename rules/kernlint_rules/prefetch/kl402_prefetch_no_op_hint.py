"""An OpenMP prefetch with no hint, or hint 0, does nothing.

What it does
    Flags a `#pragma ompx prefetch data(…)` / `!$omp prefetch data(…)` whose `data` clause has no
    prefetch-hint modifier, or one that evaluates to 0 (through `#define`s, `constexpr` values and
    Fortran `parameter`s). A hint that cannot be evaluated is not reported.

Why it matters
    The hint says where the prefetched line should go: 2 prefetches into L2 only, 4 into L1 and L2.
    The default, when no hint is written, is 0, and 0 is defined as a no-op: the directive compiles,
    costs nothing and prefetches nothing, so the latency it was written to hide is still there. The
    guide's kernels always pass the hint explicitly (`data(PREFETCH_HINT: b[next_tile])` with
    `PREFETCH_HINT` 4).

Example
    #pragma ompx prefetch data(b[next]) if (next < n)          // KL402: default hint 0
    !$omp prefetch data(0: b(next:next)) if (next <= n)        ! KL402

Fix
    Write the hint: `data(4: b[next])` for L1 and L2, `data(2: b[next])` for L2 only (try both; the
    guide's N-body kernel uses 4).

Severity
    Warning: the message names the change (a hint of 2 or 4) for a prefetch that does nothing as
    written, so all its issue slots are wasted. Never an error.

Occupancy basis
    None: the cost is memory latency that is not hidden, not occupancy.

Cost
    All of the directive's prefetches are wasted (100 %, score 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import UNKNOWN_SHARE, Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext


class PrefetchNoOpHint(Rule):
    code = "KL402"
    name = "prefetch-no-op-hint"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for construct in facts.omp:
            directive = construct.directive
            if directive is None or directive.kind != "prefetch" or construct.value("hint") != 0:
                continue
            written = directive.prefetch_hint
            what = (
                f"its hint `{written}` evaluates to 0"
                if written is not None
                else "it has no hint, and the default hint is 0"
            )
            data = directive.clause("data")
            yield ctx.diagnostic(
                construct.locate(data.text) if data is not None else construct.span,
                f"this prefetch does nothing: {what}, which is a no-op; write the hint in the data clause, "
                f"4 (prefetch to L1 and L2) or 2 (L2 only), e.g. `data(4: …)`",
                evidence={"hint": written, "value": 0},
                cost=no_op_prefetch_cost(),
            )


def no_op_prefetch_cost() -> Cost:
    """KL402: every prefetch of the directive does nothing."""
    return Cost(
        100.0,
        "%",
        "of the prefetches wasted: hint 0 is a no-op",
        "all of them",
        "hint 0 prefetches nothing",
        ("the instruction issue itself costs little; the loss is the prefetch's missed benefit", UNKNOWN_SHARE),
    )
