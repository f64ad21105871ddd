"""A `kernlint: ignore` comment that suppresses nothing.

What it does
    Flags a suppression directive (`ignore`, `ignore-next-line` or `ignore-file`) that hid no
    finding in this run. A directive that names only codes of rules that did not run on the file
    (deselected, or for another language) is left alone: kernlint cannot tell whether it is stale.

Why it matters
    Suppressions outlive the code they were written for. A stale one hides the next real finding on
    that line, and a codebase full of them teaches readers that the comments mean nothing. Removing
    unused ones keeps every remaining suppression a deliberate, reviewable decision — which matters
    most when adopting kernlint on a large code base with a baseline.

Example
    for (int i = 0; i < n; ++i) {
        q.submit(step);          // kernlint: ignore[KL101]   <- no buffer here any more
    }

Fix
    Delete the comment. kernlint offers this as a fix for a `/* kernlint: … */` comment and for a line
    comment that holds nothing else (a whole-line comment deletes the line); a comment that goes on to
    say something else is only reported.

Fix safety
    The fix is always marked safe: it deletes the comment and the blanks before it, and a comment is
    not code, so the program compiles and computes the same. A comment that goes on to say something
    else gets no fix: the words may be someone's documentation. One edge is left to the writer: a
    `/* … */` directive between two tokens with no blank on either side (`a/* kernlint: ignore */b`)
    would join them into one.

Severity
    Info: a stale comment changes nothing the program computes or how fast: it is hygiene,
    listed with --show-infos and fixed by --fix.

Occupancy basis
    None: this is about the suppression comments, not the kernels.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Edit, Fix, FixAvailability, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext
from kernlint.suppression import ALL, Directive


class UnusedSuppression(Rule):
    code = "KL001"
    name = "unused-suppression"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES
    after_suppression = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        if ctx.suppressions is None:
            return
        for directive in ctx.suppressions.unused():
            if directive.codes != ALL and not all(
                any(code.startswith(prefix) for code in ctx.rules_run) for prefix in directive.codes
            ):
                continue  # names a rule that did not run here: cannot judge
            written = "ignore" if directive.codes == ALL else f"{directive.kind}[{', '.join(directive.codes)}]"
            scope = {"ignore": "on this line", "ignore-next-line": "on the next line", "ignore-file": "in this file"}[
                directive.kind
            ]
            yield Diagnostic(
                path=ctx.source.path,
                line=directive.line,
                column=directive.column,
                end_line=directive.line,
                end_column=directive.end_column,
                code=self.code,
                name=self.name,
                severity=self.severity,
                message=f"unused suppression: `kernlint: {written}` suppresses nothing {scope}; remove it",
                language=ctx.language,
                evidence={"directive": directive.kind, "codes": list(directive.codes)},
                fix=_removal(directive, ctx.source.line_text(directive.line)),
            )


def _removal(directive: Directive, line: str) -> Fix | None:
    """Delete a `/* … */` directive comment, or a `//`/`!` one that nothing follows; a comment that
    also says something else is left for a human."""
    start = directive.column - 1
    rest = line[directive.end_column - 1 :].strip()
    if line[start : start + 2] == "/*":
        if not rest.startswith("*/"):
            return None
        end = line.index("*/", directive.end_column - 1) + 2
    elif rest:
        return None
    else:
        end = len(line)
    while start > 0 and line[start - 1] in " \t":
        start -= 1
    if not line[:start].strip():  # the comment is the whole line: delete the line
        return Fix("remove the unused suppression comment", (Edit(directive.line, 1, directive.line + 1, 1, ""),))
    return Fix("remove the unused suppression comment", (Edit(directive.line, start + 1, directive.line, end + 1, ""),))
