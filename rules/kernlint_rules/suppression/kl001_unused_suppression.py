"""A `kernlint: ignore` comment that suppresses nothing.

What it does
    Flags a suppression directive (`ignore`, `ignore-next-line` or `ignore-file`) that hid no
    finding in this run, and, as ruff's RUF100 does, each code of a directive's list that hid
    nothing (`ignore[KL101, KL501]` where only KL101 was suppressed: KL501 is unused) or names no
    rule (`KL999`). A code of a rule that did not run on the file (deselected, or for another
    language) is left alone: kernlint cannot tell whether it is stale.

    It also flags a comment written like a directive that is not one, so suppresses nothing:
    `kernlint ignore[KL101]` (no colon), `kernlint: ignroe[KL101]`, `kernlint:ignore-nextline`;
    the message names the directive it was probably meant to be.

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
    For an unused or unknown code in a list that also holds a used one: delete that code from the
    list. For a directive that suppresses nothing: delete the comment, which kernlint offers as a fix
    for a `/* kernlint: … */` comment and for a line comment that holds nothing else (a whole-line
    comment deletes the line); a comment that goes on to say something else is only reported.

    A look-alike comment gets no fix: correcting it would start hiding findings, which is the
    writer's decision.

Fix safety
    The fix is always marked safe: it deletes the comment and the blanks before it, and a comment is
    not code, so the program compiles and computes the same. A comment that goes on to say something
    else gets no fix: the words may be someone's documentation. One edge is left to the writer: a
    `/* … */` directive between two tokens with no blank on either side (`a/* kernlint: ignore */b`)
    would join them into one.

Severity
    Info: a stale comment or code changes nothing the program computes or how fast: it is hygiene,
    listed with --show-infos and fixed by --fix. A look-alike comment is a warning: the writer meant
    to hide a finding and did not, and the message names the change to make.

Occupancy basis
    None: this is about the suppression comments, not the kernels.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Edit, Fix, FixAvailability, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext
from kernlint.suppression import ALL, Directive, NearMiss

_SCOPES = {"ignore": "on this line", "ignore-next-line": "on the next line", "ignore-file": "in this file"}


class UnusedSuppression(Rule):
    code = "KL001"
    name = "unused-suppression"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES
    after_suppression = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        if ctx.suppressions is None:
            return
        for index, directive in enumerate(ctx.suppressions.directives):
            used = ctx.suppressions.used_codes.get(index, set())
            if directive.codes == ALL:
                if not used and index not in ctx.suppressions.used:
                    yield self._unused(directive, "ignore" if directive.kind == "ignore" else directive.kind, ctx)
                continue
            unknown = [c for c in directive.codes if ctx.known_codes and not _names_a_rule(c, ctx.known_codes)]
            stale = [
                c
                for c in directive.codes
                if c not in used and c not in unknown and any(code.startswith(c) for code in ctx.rules_run)
            ]
            if not unknown and not stale:
                continue  # each code hid something, or names a rule that did not run here: cannot judge
            if len(unknown) + len(stale) == len(directive.codes):
                yield self._unused(directive, f"{directive.kind}[{', '.join(directive.codes)}]", ctx, unknown)
            else:
                yield self._partly_unused(directive, stale, unknown, ctx)
        for miss in ctx.suppressions.near_misses:
            yield self._near_miss(miss, ctx)

    def _unused(
        self, directive: Directive, written: str, ctx: RuleContext, unknown: list[str] | None = None
    ) -> Diagnostic:
        named = f" (`{'`, `'.join(unknown)}` {'names' if len(unknown) == 1 else 'name'} no rule)" if unknown else ""
        return self._report(
            directive.line,
            directive.column,
            directive.end_column,
            f"unused suppression: `kernlint: {written}` suppresses nothing {_SCOPES[directive.kind]}{named}; remove it",
            ctx,
            {"directive": directive.kind, "codes": list(directive.codes), "unknown": unknown or []},
            _removal(directive, ctx.source.line_text(directive.line)),
        )

    def _partly_unused(
        self, directive: Directive, stale: list[str], unknown: list[str], ctx: RuleContext
    ) -> Diagnostic:
        parts = []
        if stale:
            parts.append(f"`{'`, `'.join(stale)}` {'suppresses' if len(stale) == 1 else 'suppress'} nothing")
        if unknown:
            parts.append(f"`{'`, `'.join(unknown)}` {'names' if len(unknown) == 1 else 'name'} no rule")
        dropped = len(stale) + len(unknown)
        written = f"{directive.kind}[{', '.join(directive.codes)}]"
        return self._report(
            directive.line,
            directive.column,
            directive.end_column,
            f"partly unused suppression: in `kernlint: {written}`, {' and '.join(parts)} {_SCOPES[directive.kind]}; "
            f"remove {'it' if dropped == 1 else 'them'} from the list",
            ctx,
            {"directive": directive.kind, "codes": list(directive.codes), "unused": stale, "unknown": unknown},
            _drop_codes(directive, {*stale, *unknown}, ctx.source.line_text(directive.line)),
        )

    def _near_miss(self, miss: NearMiss, ctx: RuleContext) -> Diagnostic:
        return self._report(
            miss.line,
            miss.column,
            miss.end_column,
            f"`{miss.written}` is not a suppression directive and suppresses nothing; did you mean `{miss.meant}`?",
            ctx,
            {"written": miss.written, "meant": miss.meant},
            None,
            Severity.WARNING,
        )

    def _report(
        self,
        line: int,
        column: int,
        end_column: int,
        message: str,
        ctx: RuleContext,
        evidence: dict[str, object],
        fix: Fix | None,
        severity: Severity | None = None,
    ) -> Diagnostic:
        return Diagnostic(
            path=ctx.source.path,
            line=line,
            column=column,
            end_line=line,
            end_column=end_column,
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            language=ctx.language,
            evidence=evidence,
            fix=fix,
        )


def _names_a_rule(prefix: str, known: frozenset[str]) -> bool:
    """Whether a code or prefix (`KL2`) names at least one rule the run knows."""
    return any(code.startswith(prefix) for code in known)


def _drop_codes(directive: Directive, dropped: set[str], line: str) -> Fix | None:
    """Rewrite the directive's code list without `dropped` (the list's brackets are in the comment the
    directive spans)."""
    start, end = directive.column - 1, directive.end_column - 1
    opening, closing = line.find("[", start, end), line.rfind("]", start, end)
    if opening < 0 or closing < 0:
        return None
    kept = ", ".join(c for c in directive.codes if c not in dropped)
    column = opening + 2
    edit = Edit(directive.line, column, directive.line, closing + 1, kept)
    return Fix(f"remove {', '.join(sorted(dropped))} from the suppression", (edit,))


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
