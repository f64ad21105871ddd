"""Lexical structure of OpenMP directive text: comments, string literals and bracket nesting.

Clause arguments are C or Fortran expressions that this package never evaluates; the directive
parser only needs to know where groups open and close, and where the top-level commas and colons
are.  One pass over the text records that, so later splitting never rescans nested groups.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_OPEN_TO_CLOSE = {"(": ")", "[": "]", "{": "}"}
_CLOSE_TO_OPEN = {")": "(", "]": "[", "}": "{"}
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


class LexFailure(Exception):
    """Internal signal for malformed text; the public API turns it into an OmpParseError."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def is_ident_char(ch: str) -> bool:
    """Whether `ch` can continue an identifier (C or Fortran)."""
    return ch in _IDENT_CHARS


@dataclass
class Structure:
    """Text with comments blanked out (same length, so offsets stay valid) and its nesting map.

    `skip` maps the offset of an opening bracket or a string's opening quote to the offset just
    past its end, so top-level scans can hop over nested material in one step.
    """

    text: str
    fortran: bool
    skip: dict[int, int] = field(default_factory=dict)
    close_of: dict[int, int] = field(default_factory=dict)
    open_of: dict[int, int] = field(default_factory=dict)

    def split_top(self, start: int, end: int, sep: str = ",") -> list[tuple[int, int]]:
        """Spans of `text[start:end]` split at top-level `sep`, each trimmed of blanks."""
        spans: list[tuple[int, int]] = []
        piece = start
        i = start
        text, skip = self.text, self.skip
        while i < end:
            jump = skip.get(i)
            if jump is not None:
                i = jump
                continue
            if text[i] == sep:
                spans.append(self.trim(piece, i))
                piece = i + 1
            i += 1
        spans.append(self.trim(piece, end))
        return spans

    def top_colons(self, start: int, end: int) -> list[int]:
        """Offsets of top-level separator colons in `text[start:end]`.

        C colons that close a `?:` conditional are not separators, and neither is a C++ `::`
        followed by a name (`ns::value`); Fortran has neither construct.
        """
        found: list[int] = []
        pending_ternary = 0
        i = start
        text, skip = self.text, self.skip
        while i < end:
            jump = skip.get(i)
            if jump is not None:
                i = jump
                continue
            ch = text[i]
            if ch == ":":
                if not self.fortran and i + 1 < end and text[i + 1] == ":":
                    nxt = i + 2
                    while nxt < end and text[nxt] in " \t":
                        nxt += 1
                    if nxt < end and (text[nxt].isalpha() or text[nxt] in "_~"):
                        i = nxt
                        continue
                if pending_ternary:
                    pending_ternary -= 1
                else:
                    found.append(i)
            elif ch == "?" and not self.fortran:
                pending_ternary += 1
            i += 1
        return found

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """Narrow a span so it neither starts nor ends with whitespace."""
        text = self.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return start, end


def _string_end(text: str, start: int, fortran: bool) -> int:
    """Offset just past the literal opening at `start`; raises LexFailure if unterminated."""
    quote = text[start]
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == quote:
            if fortran and i + 1 < n and text[i + 1] == quote:  # Fortran doubles the quote
                i += 2
                continue
            return i + 1
        if ch == "\\" and not fortran:
            i += 2
            continue
        i += 1
    kind = "character" if quote == "'" and not fortran else "string"
    raise LexFailure(f"unterminated {kind} literal", start)


def analyse(text: str, fortran: bool) -> Structure:
    """Blank comments and match brackets; raises LexFailure on unbalanced or unterminated text."""
    chars = list(text)
    n = len(text)
    struct = Structure(text="", fortran=fortran)
    stack: list[int] = []
    i = 0
    while i < n:
        ch = text[i]
        if ch == '"' or ch == "'":
            end = _string_end(text, i, fortran)
            struct.skip[i] = end
            i = end
            continue
        if fortran and ch == "!":
            for k in range(i, n):
                chars[k] = " "
            break
        if not fortran and ch == "/" and i + 1 < n and text[i + 1] in "*/":
            if text[i + 1] == "/":
                stop = n
            else:
                close = text.find("*/", i + 2)
                stop = n if close < 0 else close + 2
            for k in range(i, stop):
                chars[k] = " "
            i = stop
            continue
        if ch in _OPEN_TO_CLOSE:
            stack.append(i)
        elif ch in _CLOSE_TO_OPEN:
            if not stack:
                raise LexFailure(f"unmatched '{ch}'", i)
            opener = stack.pop()
            if text[opener] != _CLOSE_TO_OPEN[ch]:
                want = _OPEN_TO_CLOSE[text[opener]]
                raise LexFailure(
                    f"mismatched '{ch}': expected '{want}' to close '{text[opener]}' at column {opener + 1}",
                    i,
                )
            struct.skip[opener] = i + 1
            struct.close_of[opener] = i
            struct.open_of[i] = opener
        i += 1
    struct.text = "".join(chars)
    if stack:
        opener = stack[0]
        owner = _name_before(struct.text, opener)
        where = f" in clause '{owner}'" if owner else ""
        raise LexFailure(
            f"missing '{_OPEN_TO_CLOSE[text[opener]]}' for '{text[opener]}' at column {opener + 1}{where}",
            opener,
        )
    return struct


def _name_before(text: str, offset: int) -> str:
    """The identifier just before `offset` (skipping blanks), used to name a clause in errors."""
    end = offset
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    start = end
    while start > 0 and is_ident_char(text[start - 1]):
        start -= 1
    return text[start:end]


def squash_spaces(text: str) -> str:
    """Collapse whitespace runs outside string literals to one blank and trim the ends."""
    if '"' not in text and "'" not in text:
        return " ".join(text.split())
    out: list[str] = []
    quote = ""
    pending_space = False
    for ch in text:
        if quote:
            out.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch.isspace():
            pending_space = True
            continue
        if pending_space and out:
            out.append(" ")
        pending_space = False
        out.append(ch)
        if ch in "\"'":
            quote = ch
    return "".join(out)
