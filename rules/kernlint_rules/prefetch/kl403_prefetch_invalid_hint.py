"""An OpenMP prefetch hint other than 0, 2 or 4.

What it does
    Flags a `#pragma ompx prefetch data(hint: …)` / `!$omp prefetch data(hint: …)` whose hint
    evaluates (through `#define`s, `constexpr` values and Fortran `parameter`s) to anything but 0, 2
    or 4. A hint that cannot be evaluated is not reported.

Why it matters
    Intel's prefetch extension defines exactly three hints: 0 (no-op), 2 (prefetch to L2 only) and
    4 (prefetch to L1 and L2). Any other value is outside the extension's definition, so what the
    compiler makes of it is not specified: it may be rejected, ignored or mapped to another cache
    level. A common slip is writing the cache level (1, 3) instead of the hint; note that the guide's
    own comments name the levels loosely, while its valid values are 0, 2 and 4.

Example
    #define PREFETCH_HINT 3
    #pragma ompx prefetch data(PREFETCH_HINT: b[next]) if (next < n)     // KL403

Fix
    Use 4 to prefetch into L1 and L2, or 2 for L2 only.

Severity
    Error: a hint other than 0, 2 or 4 is not valid, and compilers reject or misread it.

Occupancy basis
    None: this is about the directive's meaning, not occupancy.

Cost
    All of the prefetch's effect is lost: an undefined hint is rejected or ignored (100 %, score 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext

VALID_HINTS = (0, 2, 4)


class PrefetchInvalidHint(Rule):
    code = "KL403"
    name = "prefetch-invalid-hint"
    severity = Severity.ERROR
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for construct in facts.omp:
            directive = construct.directive
            value = construct.value("hint") if directive is not None and directive.kind == "prefetch" else None
            if directive is None or value is None or value in VALID_HINTS:
                continue
            written = directive.prefetch_hint
            shown = f"`{written}` (= {value})" if written is not None and written.strip() != str(value) else f"{value}"
            data = directive.clause("data")
            yield ctx.diagnostic(
                construct.locate(data.text) if data is not None else construct.span,
                f"prefetch hint {shown} is not a valid hint: the extension defines 0 (no-op), 2 (prefetch to "
                f"L2 only) and 4 (prefetch to L1 and L2); use 4 or 2",
                evidence={"hint": written, "value": value, "valid": list(VALID_HINTS)},
                cost=invalid_hint_cost(value),
            )


def invalid_hint_cost(value: int) -> Cost:
    """KL403: a hint the extension does not define: the prefetch is rejected or ignored."""
    return Cost(
        100.0,
        "%",
        f"of the prefetch's effect lost (hint {value} is undefined: rejected or ignored)",
        "all of it",
        f"the extension defines hints 0, 2 and 4 only, not {value}",
        score=1.0,
    )
