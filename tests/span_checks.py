"""The property every result must have, whatever the input: each span lies inside its file."""

from __future__ import annotations

import re

from kernlint.diagnostics import FileResult

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def spans_inside(result: FileResult, data: bytes) -> None:
    """Every finding, related note and fix edit lies inside the file (lines and columns as the engine
    counts them: lines end at \\n, \\r\\n or a lone \\r; columns count characters)."""
    lines = _LINE_BREAK.split(data.decode("utf-8", errors="replace"))

    def inside(line: int, column: int) -> bool:
        return 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1

    for d in result.diagnostics:
        spans = [(d.line, d.column, d.end_line, d.end_column)]
        spans += [(r.line, r.column, r.end_line, r.end_column) for r in d.related]
        spans += [(e.line, e.column, e.end_line, e.end_column) for e in (d.fix.edits if d.fix else ())]
        for line, column, end_line, end_column in spans:
            assert inside(line, column) and inside(end_line, end_column), (d.code, d.message, line, column)
            assert (line, column) <= (end_line, end_column), (d.code, line, column, end_line, end_column)
