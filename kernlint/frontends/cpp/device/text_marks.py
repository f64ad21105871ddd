"""What reading a device file's arms needs of its whole text, found once per text: where it opens a
parenthesis, brace or directive (an expression without one holds no call, statement or directive:
`ArmCounter` weighs it whole), and where its comments and directive lines are (`CodeOnly`: whether a
construct can be rewritten without losing one)."""

from __future__ import annotations

import re
from bisect import bisect_left

import tree_sitter

Node = tree_sitter.Node

_MARKS = re.compile(rb"[({#]")  # what a call, a lambda or statement expression, or a directive needs
_COMMENT_START = re.compile(rb"(?=//|/\*)")
_DIRECTIVE_LINE = re.compile(rb"^[ \t]*#", re.M)


def open_marks(text: bytes, base: int = 0) -> list[int]:
    """Where `text` (the parsed text from byte `base`) has a parenthesis, brace or `#`, in order: what
    `ArmCounter` bisects to know an expression holds no call, statement or directive."""
    return [base + m.start() for m in _MARKS.finditer(text)]


class CodeOnly:
    """Whether a construct holds only code: no comment or preprocessor line would be lost by a rewrite.
    Read from where the comments and directive lines of `text` (the parsed text from byte `base`) are,
    found once, rather than from each construct's own text (a nest of constructs would cost the square
    of its size). A `//` inside a string literal also says no: no fix, never a wrong one."""

    def __init__(self, text: bytes, base: int = 0) -> None:
        self._comments = [base + m.start() for m in _COMMENT_START.finditer(text)]
        self._lines: list[int] = []  # the start of each directive line
        self._hashes: list[int] = []  # where its `#` is
        for m in _DIRECTIVE_LINE.finditer(text):
            self._lines.append(base + m.start())
            self._hashes.append(base + m.end() - 1)

    def __call__(self, node: Node) -> bool:
        start, end = node.start_byte, node.end_byte
        comment = bisect_left(self._comments, start)
        if comment < len(self._comments) and self._comments[comment] + 2 <= end:
            return False
        line = bisect_left(self._lines, start)
        return not node.has_error and not (line < len(self._lines) and self._hashes[line] < end)


class TextMarks:
    """What counting arms reads of a whole parsed text (`text` from byte `base`): where it opens a
    parenthesis, brace or directive, and where its comments and directive lines are. Found once for
    every kernel of the text, rather than by each kernel's analysis again."""

    def __init__(self, text: bytes, base: int = 0) -> None:
        self.marks = open_marks(text, base)
        self.code_only = CodeOnly(text, base)
