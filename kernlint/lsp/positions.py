"""Positions between kernlint and an editor: kernlint counts characters, a client counts code units
of the encoding negotiated with it (UTF-16 unless it offers another), so an edit lands right on a
line holding emoji."""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types

from kernlint.diagnostics import Diagnostic

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # where LSP (and kernlint) end lines
_UNITS: dict[str, Callable[[str], int]] = {  # code units per text, by LSP position encoding
    "utf-8": lambda text: len(text.encode("utf-8")),
    "utf-16": lambda text: len(text.encode("utf-16-le")) // 2,
    "utf-32": len,
}


class Positions:
    """kernlint's 1-based (line, character column) positions of one text as LSP positions in the
    negotiated encoding, and back: a column counts code points, a client counts code units."""

    def __init__(self, text: str, encoding: object) -> None:
        self.lines = _LINE_BREAK.split(text)
        self.units = _UNITS.get(str(getattr(encoding, "value", encoding)), _UNITS["utf-16"])  # LSP's default

    def _line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, line: int, column: int) -> types.Position:
        index = max(line - 1, 0)
        return types.Position(line=index, character=self.units(self._line(index)[: max(column - 1, 0)]))

    def range(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        start, end = self.position(line, column), self.position(end_line, end_column)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return types.Range(start=start, end=end)

    def column(self, position: types.Position) -> tuple[int, int]:
        """The 1-based (line, character column) of a client position (inside a character: its start)."""
        text = self._line(position.line)
        count = 0
        for index, character in enumerate(text):
            count += self.units(character)
            if count > position.character:
                return position.line + 1, index + 1
        return position.line + 1, len(text) + 1


class Analysed:
    """A document's last findings with the positions of the text they were found in."""

    def __init__(self, findings: list[Diagnostic], positions: Positions) -> None:
        self.findings = findings
        self.positions = positions

    def overlapping(self, area: types.Range) -> list[Diagnostic]:
        start = self.positions.column(area.start)
        end = self.positions.column(area.end)
        return [d for d in self.findings if not ((d.end_line, d.end_column) < start or (d.line, d.column) > end)]
