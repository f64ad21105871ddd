"""Files that are not valid UTF-8: how much their undecodable bytes matter, and a copy to parse.

A Latin-1 `©` in a licence header or an `"é"` in a message string changes nothing kernlint analyses,
while the same byte in code may hide an identifier or a directive: comments and string literals are
found lexically to tell the two apart. Only files with invalid UTF-8 are scanned, so one regular
expression per language is enough (a `"//"` in a string opens no comment). What a compiler reads as
code stays code: a Fortran `!$omp` line, a string in a preprocessor line (`#include "…"`) or in
`_Pragma("…")`.

The parsers get a copy with every undecodable byte replaced by `?`: the same length, so every byte
offset (and so every position) holds, while nothing downstream meets a byte it cannot decode
(tree-sitter's query predicates decode node text strictly, and raised on such bytes).
"""

from __future__ import annotations

import codecs
import re
from bisect import bisect_right

_QUESTION_MARKS = "kernlint.question-marks"


def _question_marks(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    return "?" * (error.end - error.start), error.end


codecs.register_error(_QUESTION_MARKS, _question_marks)


def decodable(data: bytes) -> bytes:
    """`data` with each byte that is not part of valid UTF-8 replaced by `?` (same length)."""
    return data.decode("utf-8", errors=_QUESTION_MARKS).encode("utf-8")


_C_LEXEMES = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))|(?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')""", re.DOTALL
)
# A `!$` line is an OpenMP directive or conditionally compiled code, not a comment.
_FORTRAN_LEXEMES = re.compile(
    r"""(?P<directive>!\$[^\n]*)|(?P<comment>![^\n]*)|(?P<string>"(?:""|[^"\n])*"|'(?:''|[^'\n])*')"""
)
_FIXED_FORM_COMMENT_LINE = re.compile(r"^[cC*!](?!\$)[^\n]*", re.MULTILINE)
# A string is only inert where nothing reads it: not in a preprocessor line (an `#include` name) nor in
# `_Pragma("…")` (a directive), nor in a fixed-form `c$omp` line.
_CODE_LINE_START = re.compile(r"[ \t]*#|[cC*!]\$")
_PRAGMA_BEFORE = re.compile(r"_Pragma\s*\(\s*$")


def inert_spans(text: str, family: str, fixed_form: bool = False) -> dict[str, list[tuple[int, int]]]:
    """Sorted, non-overlapping (start, end) character ranges of the comments and of the string and
    character literals in `text` that no analysis reads, by kind (`comment`, `string`)."""
    lexemes = _FORTRAN_LEXEMES if family == "fortran" else _C_LEXEMES
    spans: dict[str, list[tuple[int, int]]] = {"comment": [], "string": []}
    for match in lexemes.finditer(text):
        if match.group("comment"):
            spans["comment"].append(match.span())
        elif match.group("string") and _inert_string(text, match.start()):
            spans["string"].append(match.span())
    if family == "fortran" and fixed_form:
        spans["comment"].extend(m.span() for m in _FIXED_FORM_COMMENT_LINE.finditer(text))
        spans["comment"] = _merge(spans["comment"])
    return spans


def _inert_string(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    return _CODE_LINE_START.match(before) is None and _PRAGMA_BEFORE.search(before) is None


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def inert_places(text: str, character: str, family: str, fixed_form: bool = False) -> tuple[str, ...] | None:
    """Where `character` occurs when every occurrence is inert: the kinds of place, `comments` and/or
    `string literals`, in that order; None when one occurrence is in code the analysis reads."""
    spans = inert_spans(text, family, fixed_form)
    starts = {kind: [start for start, _ in ranges] for kind, ranges in spans.items()}
    found: set[str] = set()
    position = text.find(character)
    while position != -1:
        kind = next((k for k, ranges in spans.items() if _inside(ranges, starts[k], position)), None)
        if kind is None:
            return None
        found.add(kind)
        position = text.find(character, position + 1)
    return tuple(name for kind, name in (("comment", "comments"), ("string", "string literals")) if kind in found)


def _inside(ranges: list[tuple[int, int]], starts: list[int], position: int) -> bool:
    index = bisect_right(starts, position) - 1
    return index >= 0 and position < ranges[index][1]
