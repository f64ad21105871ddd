"""Fortran source form: telling fixed from free form, and reading fixed form with the free-form grammar.

tree-sitter-fortran parses free form only. Fixed form differs in where things are, not in what they
are: comment lines are marked in column 1 (`c`, `*`, `d`, `!`), a character in column 6 continues the
previous line, columns 1-5 hold labels. `normalise_fixed` rewrites those markers in place so that the
text is free form *with every line number and column unchanged*: comment markers become `!`, a
continuation mark becomes a leading `&`, and the line being continued gets a trailing `&` (after its
code, before any comment). Positions of the parse tree therefore hold for the original file, and only
byte offsets past an added `&` move, which `LineMap` accounts for.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from kernlint.frontends.openmp.source import code_end

_COMMENT_MARKS = frozenset("cC*dD!")
_SENTINELS = ("c$omp", "*$omp", "!$omp", "c$acc", "*$acc", "!$acc")
_C_WORD_AT_1 = re.compile(r"(?i)(call|contains|character|close|common|complex|continue|cycle|case)\b[ \t(]")


def _is_fixed_comment(line: str) -> bool:
    if not line.strip():
        return True
    if line[0] in _COMMENT_MARKS:
        return True
    stripped = line.lstrip(" ")
    return stripped.startswith("!") and len(line) - len(stripped) != 5


def looks_fixed_form(text: str, by_extension: bool) -> bool:
    """Whether a file is fixed form: its extension says so unless the text proves otherwise.

    Proof of free form in a `.f`/`.for` file: a statement starting in columns 1-5 (where fixed form
    only allows labels), a comment-column `c` that is really a statement (`call`, `contains` …), or a
    code line continued by a trailing `&` whose next line has no column-6 mark. A `.f90` file is
    always free form.
    """
    if not by_extension:
        return False
    previous_ampersand = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in _COMMENT_MARKS:
            if line[0] in "cC" and _C_WORD_AT_1.match(line):
                return False
            continue
        if "\t" in line[:6]:
            previous_ampersand = False
            continue
        stripped = line.lstrip(" ")
        if stripped.startswith("!"):
            continue
        indent = len(line) - len(stripped)
        continuation = len(line) > 5 and not line[:5].strip() and line[5] not in " 0"
        if previous_ampersand and not continuation:
            return False
        if indent < 5 and (stripped[0].isalpha() or stripped[0] in "&_"):
            return False
        code = line[: code_end(line, 6)].rstrip()
        previous_ampersand = code.endswith("&") and len(code) > 6
    return True


def normalise_fixed(text: str) -> str:
    """Fixed-form text rewritten as free form with every line number and column unchanged."""
    lines = text.split("\n")
    out = list(lines)
    last_code: int | None = None
    for number, raw in enumerate(lines):
        line = raw.rstrip("\r")
        ending = raw[len(line) :]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _is_fixed_comment(line):
            head = line[:5].lower()
            if head in _SENTINELS or line[0] != "!":
                out[number] = "!" + line[1:] + ending
            continue
        continuation = False
        if "\t" in line[:6]:
            tab = line.index("\t")
            if line[tab + 1 : tab + 2] in tuple("123456789"):
                line = line[: tab + 1] + "&" + line[tab + 2 :]
                continuation = True
        elif len(line) > 5:
            if line[5] not in " 0":
                line = line[:5] + "&" + line[6:]
                continuation = True
            elif line[5] == "0":
                line = line[:5] + " " + line[6:]
        if continuation and last_code is not None:
            previous = out[last_code]
            body = previous.rstrip("\r")
            cut = code_end(body, 6 if len(body) > 6 else 0)
            code = body[:cut].rstrip()
            if not code.endswith("&"):
                out[last_code] = code + "&" + body[len(code) :] + previous[len(body) :]
        out[number] = line + ending
        last_code = number
    return "\n".join(out)


class LineMap:
    """Positions of the parsed (normalised) text back to byte offsets of the original file.

    Lines and columns are the same in both; a column past the end of an original line (an added
    `&`) is clamped to that line's end.
    """

    def __init__(self, original: bytes) -> None:
        self.starts = [0]
        find = original.find
        pos = find(b"\n")
        while pos != -1:
            self.starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        self.size = len(original)

    def offset(self, row: int, column: int) -> int:
        """Original byte offset of a 0-based (row, byte column)."""
        if row >= len(self.starts):
            return self.size
        line_end = self.starts[row + 1] - 1 if row + 1 < len(self.starts) else self.size
        return min(self.starts[row] + column, line_end)

    def point(self, offset: int) -> tuple[int, int]:
        """0-based (row, byte column) of an original byte offset."""
        row = bisect_right(self.starts, offset) - 1
        return row, offset - self.starts[row]
