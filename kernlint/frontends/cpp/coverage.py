"""The lines of a C/C++ file the parser could not read, each region with its likely cause, so that
a partial parse says what was missed and the user can judge it (`LostLines`)."""

from __future__ import annotations

import re

import tree_sitter

from kernlint.facts import Span
from kernlint.facts.coverage import LostLines
from kernlint.frontends.common.coverage import kernel_coverage, merged_lines
from kernlint.frontends.common.nodes import span_of
from kernlint.frontends.cpp.unit import CppUnit

__all__ = ["kernel_coverage", "lost_lines"]

#: A word that reads as a macro: all capitals (`MYLIB_INLINE`), or reserved (`__dpct_inline__`).
_MACRO_WORD = re.compile(rb"\b(?:[A-Z][A-Z0-9_]*[A-Z0-9]|_[_A-Z]\w*)\b")
_NOT_MACROS = frozenset({"NULL", "FILE", "EOF", "TRUE", "FALSE"})  # capitals that are a library's names
_COMMENTS = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"', re.S)


def lost_lines(unit: CppUnit, errors: list[tree_sitter.Node]) -> tuple[LostLines, ...]:
    """The error regions, merged by line, each with its likely cause."""
    if not errors:
        return ()
    ranges = merged_lines((node.start_point[0] + 1, node.end_point[0] + 1) for node in errors)
    found = []
    for first, last in ranges:
        inside = [n for n in errors if first <= n.start_point[0] + 1 <= last]
        span = span_of(inside[0])
        end = max(inside, key=lambda n: n.end_byte)
        found.append(
            LostLines(
                Span(span.start_byte, end.end_byte, first, span.column_byte, last, end.end_point[1]),
                _cause(unit, first, last),
            )
        )
    return tuple(found)


def _cause(unit: CppUnit, first: int, last: int) -> str | None:
    """Why lines `first`..`last` did not parse, when it shows: an `#if` group with arms the parser
    read together, or a word that reads as a macro kernlint does not know."""
    lines = unit.data.split(b"\n")[max(first - 2, 0) : last]
    if any(re.match(rb"[ \t]*#[ \t]*(?:if|ifdef|ifndef|else|elif|endif)\b", line) for line in lines):
        return "an `#if` group splits a construct there"
    code = _COMMENTS.sub(b" ", b"\n".join(lines[1:] if first > 1 else lines))
    words = [
        w
        for w in (m.decode() for m in _MACRO_WORD.findall(code))
        if w not in _NOT_MACROS and unit.constants.macro_body(w) is None
    ]
    if words:
        return f"`{words[0]}` reads as a macro kernlint does not know"
    return None
