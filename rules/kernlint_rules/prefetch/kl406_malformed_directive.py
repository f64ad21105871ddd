"""An OpenMP directive that does not parse, or parses only because a word in it is misspelt.

What it does
    Reports every `#pragma omp` / `#pragma ompx` (C/C++) and `!$omp` / `c$omp` / `*$omp` (Fortran,
    continuations joined) that kernlint's OpenMP parser cannot read, with the parser's reason: an
    unknown directive name (`#pragma omp paralel for`), a missing `)` or `]`, an empty argument or
    list item, a clause that requires an argument written without one (`thread_limit`), a map type
    without its colon that leaves the list empty, and the like. Directives kernlint does not analyse
    but that are well formed (`declare variant`, `metadirective`, `requires`, vendor clauses such as
    `ompx_bare`) are not reported. In C and C++, directives are macro-expanded as the compiler does
    it: a clause that is an object-like macro of the file, the configuration (`defines`) or a quoted
    include (`#pragma omp … for SIMD_CLAUSE`) is read as its body, and directives written with
    `_Pragma("omp …")`, alone or behind a macro, are read too. An all-caps word kernlint cannot
    expand (`THREAD_LIMIT`, as a clause or as the directive name) is most likely a macro the build
    defines with `-D`: it is not reported. The same holds in Fortran (`!$omp target teams distribute
    parallel do GPU_SCHEDULE`, in a source the build preprocesses) where the directive is written
    partly in lower case: in an all-capitals directive, capitals tell nothing, and an unknown word
    is still reported.

Why it matters
    A malformed directive is either rejected by the compiler or, worse, ignored: compilers skip
    pragmas they do not recognise (often with only an optional warning), so a misspelt
    `parallel for` or `target teams` leaves the loop running serially on the host, and every
    other check kernlint makes on that directive (prefetch guards, map types, thread limits) is
    silently skipped as well.

Example
    #pragma omp target teams distribute paralel for map(to: a[0:n])    // KL406: unknown directive
    !$omp prefetch data(4: b(i:i)                                      ! KL406: missing ')'

Fix
    Correct the directive as the message says.

Severity
    Warning: a directive the parser cannot read is rejected or silently ignored by compilers,
    and the message names what is wrong; not an error, since kernlint's parser is not the
    compiler's (a macro the build defines may complete the directive).

Occupancy basis
    None.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext


class MalformedDirective(Rule):
    code = "KL406"
    name = "malformed-directive"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran", "sycl", "cpp"})  # `cpp`: a file with only `ompx` pragmas

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for construct in facts.omp:
            error, directive = construct.error, construct.directive
            if error is not None:
                yield ctx.diagnostic(
                    construct.problem or construct.span,
                    f"this OpenMP directive does not parse ({error.message}): `{_shown(error.text)}`; compilers "
                    f"reject it or skip it silently, and kernlint cannot check it either",
                    evidence={"problem": error.message, "column": error.column},
                    cost=malformed_directive_cost(),
                )
            elif directive is not None and directive.warnings:
                problems = "; ".join(directive.warnings)
                yield ctx.diagnostic(
                    construct.span,
                    f"this OpenMP directive is probably mistyped ({problems}): `{_shown(directive.text)}`; "
                    f"compilers ignore unknown clauses or reject them, so the directive does not do what it says",
                    evidence={"problem": problems, "read_as": construct.kind},
                    cost=malformed_directive_cost(),
                )


def _shown(text: str) -> str:
    """The directive's text for a message: blanks collapsed, cut at 60 characters."""
    text = " ".join(text.split())
    return text[:57] + "…" if len(text) > 60 else text


def malformed_directive_cost() -> Cost:
    """KL406: the directive is rejected or skipped, so whatever it was meant to gain is lost."""
    return Cost(
        None,
        "%",
        "of what the directive was meant to do lost",
        "all of it, if the compiler skips it",
        "compilers reject the directive or skip it silently",
        (),
        ("what the directive was meant to gain (not in the device model)",),
    )
