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
    parts = [f"{_lines(item.span.line, item.span.end_line)}: {item.cause}" if item.cause else None for item in lost]
    named = ", ".join(_lines(item.span.line, item.span.end_line) for item in lost[:_RANGES_NAMED])
    more = f" and {len(lost) - _RANGES_NAMED} more" if len(lost) > _RANGES_NAMED else ""
    causes = "; ".join(p for p in parts[:_RANGES_NAMED] if p)
    hint = (
        " (name a project's macros in the `macros` configuration key)"
        if any(item.cause and "macro" in item.cause for item in lost)
        else ""
    )
    message = (
        f"line{'s' if len(lost) > 1 or lost[0].span.line != lost[0].span.end_line else ''} {named}{more} "
        f"could not be parsed, and what they hold was not analysed" + (f" ({causes})" if causes else "") + hint
    )
    first = lost[0].span
    column = source.char_column(first.line, first.column_byte)
    evidence = {"lost_lines": [[item.span.line, item.span.end_line] for item in lost]}
    diagnostic = Diagnostic.parse_error(source.path, message, Severity.INFO, first.line, column)
    return replace(diagnostic, evidence=evidence)


def _lines(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"
