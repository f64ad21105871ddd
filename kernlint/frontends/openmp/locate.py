"""Where on its physical lines a directive writes a clause, a list item or a map type.

The directive parser works on a directive's logical text (continuation lines joined), so its columns
are not source positions. Rules need source positions: a finding points at the line holding the
clause, and a fix edits the map type where it is written. Both front-ends find them here, from the
file's lines.
"""

from __future__ import annotations

import re

from kernlint.facts.base import Span
from kernlint.facts.openmp import OmpMapType
from kernlint.facts.openmp_directive import MAP_TYPES, OmpClause

_MAP_OPENING = re.compile(r"map\s*\(", re.IGNORECASE)
_FIRST_WORD = re.compile(r"\s*([A-Za-z_]\w*)\b")


class TextLocator:
    """Finds the physical line of a directive that holds a clause or list-item text.

    `lines` are the file's lines (a span's 1-based line numbers index them) and `starts` the byte
    offset at which each begins. Texts are compared without blanks (and without case when `fold`); a
    text broken over lines is located on the line where it starts, and the span covers the text on
    that line. A directive's clauses and items are all looked up on the same few lines, so each
    line's blank-free form is computed once.
    """

    def __init__(self, lines: list[str], starts: list[int], fold: bool) -> None:
        self.lines = lines
        self.starts = starts
        self.fold = fold
        self._squashed: dict[int, tuple[list[int], str]] = {}

    def _line(self, number: int) -> tuple[list[int], str]:
        """Offsets of the non-blank characters of line `number`, and those characters (folded)."""
        found = self._squashed.get(number)
        if found is None:
            line = self.lines[number - 1]
            kept = [i for i, ch in enumerate(line) if not ch.isspace()]
            squashed = "".join(line[i] for i in kept)
            found = self._squashed[number] = (kept, squashed.lower() if self.fold else squashed)
        return found

    def _find(self, span: Span, text: str) -> tuple[int, int, int] | None:
        """The line number and the character range on it where `text` is written, within `span`."""
        wanted = "".join(text.split())
        if self.fold:
            wanted = wanted.lower()
        if not wanted:
            return None
        opening = wanted.find("(")
        for attempt in (wanted, wanted[: opening + 1] if opening > 0 else wanted[:8]):
            for number in range(span.line, min(span.end_line, len(self.lines)) + 1):
                kept, squashed = self._line(number)
                at = squashed.find(attempt)
                while at >= 0 and not self._whole(number, kept, at, len(attempt), attempt):
                    at = squashed.find(attempt, at + 1)
                if at >= 0:
                    return number, kept[at], kept[min(at + len(wanted), len(kept)) - 1] + 1
        return None

    def _whole(self, number: int, kept: list[int], at: int, length: int, text: str) -> bool:
        """Whether the match at `at` is not part of a longer name: `a` is not the `a` of `pragma`."""
        line = self.lines[number - 1]
        first, last = kept[at], kept[min(at + length, len(kept)) - 1]
        before = line[first - 1] if first > 0 else " "
        after = line[last + 1] if last + 1 < len(line) else " "
        word = re.compile(r"\w")
        return not (word.match(text[0]) and word.match(before)) and not (word.match(text[-1]) and word.match(after))

    def _span(self, number: int, first: int, last: int) -> Span:
        """Characters [first, last) of line `number` as a Span."""
        line = self.lines[number - 1]
        column = len(line[:first].encode("utf-8"))
        end_column = len(line[:last].encode("utf-8"))
        base = self.starts[number - 1]
        return Span(base + column, base + end_column, number, column, number, end_column)

    def locate(self, span: Span, text: str) -> Span | None:
        """Where the directive at `span` writes `text` (a clause or list item), on one line."""
        found = self._find(span, text)
        return self._span(*found) if found is not None else None

    def map_type(self, span: Span, clause: OmpClause) -> OmpMapType | None:
        """Where the `map` clause `clause` of the directive at `span` writes its map type: just inside
        its parenthesis, and the type word when it is the clause's first modifier on that line."""
        found = self._find(span, clause.text)
        if found is None:
            return None
        number, first, _last = found
        line = self.lines[number - 1]
        opening = _MAP_OPENING.match(line, first)
        if opening is None:
            return None
        inside = self._span(number, opening.end(), opening.end())
        word = _FIRST_WORD.match(line, opening.end())
        if (
            word is None
            or not clause.modifiers
            or word.group(1).lower() != clause.modifiers[0].lower()
            or word.group(1).lower() not in MAP_TYPES
        ):
            return OmpMapType(clause.text, inside)
        return OmpMapType(clause.text, inside, self._span(number, word.start(1), word.end(1)), word.group(1))
