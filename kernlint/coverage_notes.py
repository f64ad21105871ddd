"""What kernlint saw of a file, for the reports: its kernel coverage (`FileCoverage`), and the KL000
info that names the lines a partial parse lost and why, so the user can judge what was missed."""

from __future__ import annotations

from dataclasses import replace

from kernlint.diagnostics import Diagnostic, FileCoverage, Severity, UnresolvedLaunch
from kernlint.facts import FileFacts
from kernlint.source import SourceFile

_RANGES_NAMED = 6  # line ranges a note names before "and N more"


def file_coverage(source: SourceFile, facts: FileFacts) -> FileCoverage:
    """The facts' coverage with positions in characters, as reports give them."""
    seen = facts.coverage
    return FileCoverage(
        seen.launches,
        seen.kernels,
        seen.kernels_analysed,
        tuple(
            UnresolvedLaunch(u.span.line, source.char_column(u.span.line, u.span.column_byte), u.reason)
            for u in seen.unseen
        ),
        tuple((lost.span.line, lost.span.end_line) for lost in seen.lost),
    )


def lost_lines_note(source: SourceFile, facts: FileFacts) -> Diagnostic | None:
    """One KL000 info per partially parsed file that holds kernel code or directives (in a file of
    plain C++ nothing lost would have been analysed), at the first lost line: which lines, and the
    likely cause of each region."""
    lost = facts.coverage.lost
    if not lost or facts.language == "cpp":
        return None
    shown = lost[:_RANGES_NAMED]
    named = [_lines(item.span.line, item.span.end_line) for item in shown]
    more = len(lost) - len(shown)
    where = ", ".join(named[:-1]) + (" and " if len(named) > 1 and not more else ", " if more else "") + named[-1]
    where += f" and {more} more" if more else ""
    plural = len(lost) > 1 or lost[0].span.line != lost[0].span.end_line
    message = f"line{'s' if plural else ''} {where} could not be parsed and {'were' if plural else 'was'} not analysed"
    causes: dict[str, list[str]] = {}  # each cause once, with the shown ranges it explains
    for text, item in zip(named, shown):
        if item.cause:
            causes.setdefault(item.cause, []).append(text)
    if len(causes) == 1 and sum(map(len, causes.values())) == len(shown):
        message += f": {next(iter(causes))}"
    elif causes:
        message += " (" + "; ".join(f"{', '.join(texts)}: {cause}" for cause, texts in causes.items()) + ")"
    if any(item.cause and "macro" in item.cause for item in lost):
        message += "; name a project's macros in the `macros` configuration key"
    first = lost[0].span
    column = source.char_column(first.line, first.column_byte)
    evidence = {"lost_lines": [[item.span.line, item.span.end_line] for item in lost]}
    return replace(Diagnostic.parse_error(source.path, message, Severity.INFO, first.line, column), evidence=evidence)


def _lines(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"
