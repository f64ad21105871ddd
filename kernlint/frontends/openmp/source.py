"""From source lines to logical directive text: C `#pragma` joining and Fortran `!$omp` scanning.

Both produce the text after the `#pragma` keyword / the Fortran sentinel with continuations
joined and comments removed, ready for `parse_directive`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from kernlint.frontends.openmp.lex import squash_spaces

_SPLICE = re.compile(r"\\[ \t]*(?:\r\n|\n|\r)")
_PRAGMA = re.compile(r"#\s*pragma\b\s*")
_PRAGMA_OP = re.compile(r'_Pragma\s*\(\s*(L?)"((?:[^"\\]|\\.)*)"\s*\)', re.DOTALL)


def _strip_c_comments(text: str) -> str:
    """Replace C comments by one blank, leaving string and character literals alone."""
    if "/" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "/":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            out.append(" ")
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "*":
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
            out.append(" ")
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=4096)  # pragma texts repeat within and across files
def join_c_pragma(raw: str) -> str:
    """Logical text of one `#pragma` ("omp target map(...)"), as the C preprocessor sees it.

    Backslash-newlines are spliced first and comments removed second (so a `//` comment ends the
    whole logical line, and a block comment may span lines); the pragma then ends at the first
    remaining newline.  `_Pragma("...")` is unwrapped.  Text that is not a pragma is returned
    cleaned but otherwise as is, so the caller checks for the `omp`/`ompx` prefix.
    """
    text = _strip_c_comments(_SPLICE.sub("", raw))
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip()
    operator = _PRAGMA_OP.match(text)
    if operator:
        text = re.sub(r"\\(.)", r"\1", operator.group(2))
    else:
        text = text.split("\n", 1)[0]
        pragma = _PRAGMA.match(text)
        if pragma:
            text = text[pragma.end() :]
    return squash_spaces(text).strip()


# --- Fortran ----------------------------------------------------------------------------------

_FIXED_SENTINELS = ("!$omp", "c$omp", "*$omp")


def code_end(line: str, start: int = 0) -> int:
    """Where the code of a Fortran line ends: before a `!` comment outside character literals."""
    quote = ""
    for i in range(start, len(line)):
        ch = line[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return i
    return len(line)


def _cut_comment(text: str) -> str:
    """Drop a trailing `! comment` (outside quotes) from directive text."""
    return text[: code_end(text)]


def _free_body(line: str) -> str | None:
    """Text after a free-form `!$omp` sentinel, or None if the line is not a directive line."""
    stripped = line.lstrip(" \t")
    if stripped[:5].lower() != "!$omp":
        return None
    after = stripped[5:6]
    if after and not (after.isspace() or after in "&!"):
        return None  # `!$ompx`, `!$omp_lib` ... are plain comments
    return stripped[5:]


def _fixed_body(line: str) -> tuple[bool, str] | None:
    """(is_continuation, text after column 6) for a fixed-form sentinel line, else None."""
    if line[:5].lower() not in _FIXED_SENTINELS:
        return None
    col6 = line[5:6]
    rest = line[6:]
    if col6 == "\t":  # tab format: a digit right after the tab marks a continuation
        if rest[:1] in ("1", "2", "3", "4", "5", "6", "7", "8", "9"):
            return True, rest[1:]
        return False, rest
    if col6 in ("", " ", "0"):
        return False, rest
    return True, rest


def _is_free_filler(line: str) -> bool:
    """Blank or plain comment lines, which may sit between continuation lines."""
    stripped = line.strip()
    return not stripped or (stripped.startswith("!") and not stripped.startswith("!$"))


def _is_fixed_filler(line: str) -> bool:
    """Fixed-form blank or comment lines (comment char in column 1, or `!` outside column 6)."""
    if not line.strip():
        return True
    first = line[:1]
    if first in "cC*!" and line[1:2] != "$":
        return True
    stripped = line.lstrip(" ")
    return stripped.startswith("!") and len(line) - len(stripped) != 5 and stripped[1:2] != "$"


def _lines(lines: Sequence[str]) -> list[str]:
    return [ln.rstrip("\r\n") for ln in lines]


def _scan_free(lines: list[str]) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    n = len(lines)
    i = 0
    while i < n:
        body = _free_body(lines[i])
        if body is None:
            i += 1
            continue
        start = end = i
        text = _cut_comment(body).strip()
        if text.startswith("&"):  # orphan continuation line: read it as a directive
            text = text[1:]
        parts: list[str] = []
        continued = text.rstrip().endswith("&")
        parts.append(text.rstrip()[:-1] if continued else text)
        j = i + 1
        while True:
            k = j
            while k < n and _is_free_filler(lines[k]):
                k += 1
            nxt = _free_body(lines[k]) if k < n else None
            if nxt is None:
                break
            piece = _cut_comment(nxt).lstrip()
            if piece.startswith("&"):
                piece = piece[1:]  # explicit `!$omp&`: the text resumes right after the `&`
            elif continued:
                piece = " " + piece
            else:
                break  # a new directive
            continued = piece.rstrip().endswith("&")
            parts.append(piece.rstrip()[:-1] if continued else piece)
            end = k
            j = k + 1
        found.append((start + 1, end + 1, squash_spaces("".join(parts))))
        i = end + 1
    return found


def _scan_fixed(lines: list[str]) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    n = len(lines)
    i = 0
    while i < n:
        head = _fixed_body(lines[i])
        if head is None:
            i += 1
            continue
        start = end = i
        parts = [_fixed_text(head[1])]
        j = i + 1
        while True:
            k = j
            while k < n and _is_fixed_filler(lines[k]) and _fixed_body(lines[k]) is None:
                k += 1
            nxt = _fixed_body(lines[k]) if k < n else None
            if nxt is None or not nxt[0]:
                break
            parts.append(_fixed_text(nxt[1]))
            end = k
            j = k + 1
        found.append((start + 1, end + 1, squash_spaces(" ".join(parts))))
        i = end + 1
    return found


def _fixed_text(body: str) -> str:
    """Fixed-form directive text of one line: comment cut, a free-form style `&` tolerated."""
    text = _cut_comment(body).rstrip()
    return text[:-1] if text.endswith("&") else text


def scan_fortran_directives(lines: Sequence[str], *, fixed_form: bool) -> list[tuple[int, int, str]]:
    """Find OpenMP directives in Fortran source lines.

    Returns (first line, last line, joined text after the sentinel) with 1-based lines.  Free
    form: `!$omp` after optional blanks, continued by a trailing `&` and/or a next line starting
    `!$omp&`; comment and blank lines between continuation lines are skipped.  Fixed form:
    `!$omp`, `c$omp` or `*$omp` in columns 1-5 with a continuation character in column 6;
    continuation lines are joined with a blank.  `!$` conditional-compilation lines are not
    directives and end a pending continuation.
    """
    cleaned = _lines(lines)
    return _scan_fixed(cleaned) if fixed_form else _scan_free(cleaned)
