"""`preprocess.directive_matches` runs a multi-line `^[ \\t]*#…` expression only where a line starts with
`#` (after blanks), instead of `finditer` trying every byte: it must give exactly `finditer`'s matches
for every expression it is used with, over any bytes (continued lines, `#` inside lines, CRLF)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.common import preprocess
from kernlint.frontends.cpp import callees, dialect

#: Every expression the front-end runs through `directive_matches`.
PATTERNS = {
    "preprocess._DIRECTIVE": preprocess._DIRECTIVE,
    "preprocess._DIRECTIVE_LINE": preprocess._DIRECTIVE_LINE,
    "dialect._DEFINE": dialect._DEFINE,
    "dialect._INCLUDE": dialect._INCLUDE,
    "dialect._DIRECTIVES": dialect._DIRECTIVES,
    "callees._DEFINE": callees._DEFINE,
}
_PIECES = st.sampled_from(
    [
        "#",
        " ",
        "\t",
        "\n",
        "\r\n",
        "\\\n",
        "\\",
        "define",
        "include",
        "if",
        "endif",
        "else",
        "undef",
        "X",
        "(a)",
        '"h.h"',
        "x = 1;",
        "##",
        "/* c */",
        "//",
    ]
)
_DATA = st.lists(_PIECES, max_size=30).map(lambda pieces: "".join(pieces).encode())


def _spans(matches: object) -> list[tuple[tuple[int, int], tuple[bytes | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_each_expression_begins_with_a_directive_at_a_line_start(name: str) -> None:
    pattern = PATTERNS[name]
    assert pattern.flags & re.M
    assert pattern.pattern.startswith(rb"^[ \t]*#")


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(sorted(PATTERNS)), _DATA)
def test_the_matches_of_finditer(name: str, data: bytes) -> None:
    pattern = PATTERNS[name]
    assert _spans(preprocess.directive_matches(pattern, data)) == _spans(pattern.finditer(data))


def test_examples() -> None:
    data = b'int a; // #define NO 1\n  #define A 1 \\\n  #define B 2\n#include "k.h"\n\t# if X\n'
    found = [m.group(0) for m in preprocess.directive_matches(preprocess._DIRECTIVE_LINE, data)]
    assert found == [b"  #define A 1 \\\n  #define B 2", b'#include "k.h"', b"\t# if X"]
