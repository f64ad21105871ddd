"""Files that are not valid UTF-8: how much their undecodable bytes matter, and a copy to parse.

A Latin-1 `©` in a licence header changes nothing kernlint analyses, while the same byte in code may
hide an identifier or a directive: comments are found lexically to tell the two apart. Only files
with invalid UTF-8 are scanned, so one regular expression per language is enough; it skips string
and character literals, so that `"//"` in a string opens no comment.

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
    r"""(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.DOTALL
)
_FORTRAN_LEXEMES = re.compile(r"""(?P<comment>![^\n]*)|"(?:""|[^"\n])*"|'(?:''|[^'\n])*'""")
_FIXED_FORM_COMMENT_LINE = re.compile(r"^[cC*!][^\n]*", re.MULTILINE)


def comment_spans(text: str, family: str, fixed_form: bool = False) -> list[tuple[int, int]]:
    """Sorted, non-overlapping (start, end) character ranges of the comments in `text`."""
    lexemes = _FORTRAN_LEXEMES if family == "fortran" else _C_LEXEMES
    spans = [m.span() for m in lexemes.finditer(text) if m.group("comment")]
    if family == "fortran" and fixed_form:
        spans.extend(m.span() for m in _FIXED_FORM_COMMENT_LINE.finditer(text))
        spans = _merge(spans)
    return spans


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def only_in_comments(text: str, character: str, family: str, fixed_form: bool = False) -> bool:
    """Whether every occurrence of `character` in `text` lies inside a comment."""
    spans = comment_spans(text, family, fixed_form)
    starts = [start for start, _ in spans]
    position = text.find(character)
    while position != -1:
        index = bisect_right(starts, position) - 1
        if index < 0 or position >= spans[index][1]:
            return False
        position = text.find(character, position + 1)
    return True
