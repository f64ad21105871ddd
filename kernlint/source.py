"""One source file's bytes and text, with the position conversions every stage needs.

Parsers work in bytes; users read characters. This is the one place that converts between them.

Lines end where compilers and editors (LSP) end them: at `\n`, `\r\n` and a lone `\r`. tree-sitter and
the rest of kernlint count `\n` only, so a lone `\r` is read as `\n`: one byte for one byte, every
offset stays, and every stage numbers lines the same way.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from kernlint.records import record

_LONE_CR = re.compile(rb"\r(?!\n)")


def normalise_line_breaks(data: bytes) -> bytes:
    """`data` with every lone `\r` replaced by `\n` (same length, so byte offsets are unchanged)."""
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


@record
class DecodeProblem:
    """Where the first invalid UTF-8 byte sits (1-based line, 1-based character column)."""

    line: int
    column: int
    byte: int
    count: int


@dataclass
class SourceFile:
    """A file's bytes (lone `\r` read as `\n`) plus its text decoded as UTF-8 (invalid bytes replaced,
    and remembered)."""

    path: str
    data: bytes
    text: str = field(init=False)
    decode_problem: DecodeProblem | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.data = normalise_line_breaks(self.data)
        try:
            self.text = self.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.text = self.data.decode("utf-8", errors="replace")
            bad = sum(1 for ch in self.text if ch == "\ufffd")
            line, column = self.position(exc.start)
            self.decode_problem = DecodeProblem(line, column, self.data[exc.start], bad)

    @cached_property
    def line_starts(self) -> list[int]:
        """Byte offset at which each line begins."""
        starts = [0]
        find = self.data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        return starts

    def line_bytes(self, line: int) -> bytes:
        """The bytes of 1-based `line` without its newline."""
        starts = self.line_starts
        if line < 1 or line > len(starts):
            return b""
        end = starts[line] - 1 if line < len(starts) else len(self.data)
        return self.data[starts[line - 1] : end].rstrip(b"\r")

    def line_text(self, line: int) -> str:
        return self.line_bytes(line).decode("utf-8", errors="replace")

    def char_column(self, line: int, byte_column: int) -> int:
        """1-based character column of a 0-based byte column on a 1-based line."""
        prefix = self.line_bytes(line)[:byte_column]
        return len(prefix.decode("utf-8", errors="replace")) + 1

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, character column) of a byte offset."""
        index = bisect_right(self.line_starts, offset) - 1
        return index + 1, self.char_column(index + 1, offset - self.line_starts[index])
