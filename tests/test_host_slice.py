"""Which host statements the device reuse keys leave out (`kernlint.frontends.cpp.device.host_slice`):
only those no component can read, each a statement of its own lines whose names nothing else spells.
What leaving one out does to the analyses is checked in test_device_reuse.py (incremental == fresh)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.device import host_slice

# `device` stands for a kernel's code (passed as a device region): it reads `width` and, through the
# macro, `factor`. The statements of `host` are the candidates.
PROGRAM = """\
#define SCALE factor
int table[4];
void device(int *out) { out[0] = width + SCALE; }
void host() {
  int width = 64;
  int factor = 2;
@
  device(table);
}
"""


def _cut(
    statement: str,
    kept: list[tuple[int, int]] | None = None,
    elsewhere: list[frozenset[bytes]] | None = None,
    macros: frozenset[str] = frozenset(),
) -> list[str]:
    """The text of each range cut from PROGRAM with `statement` in place of its `@` line."""
    text = PROGRAM.replace("@\n", statement + "\n" if statement else "").encode()
    root = treesitter.parser("cpp").parse(text).root_node
    start = text.index(b"void device")
    regions = [(start, text.index(b"}\n", start) + 1)]
    cuts = host_slice.unread_lines(root, regions, kept or [], elsewhere or [], macros)
    return [text[a:b].decode() for a, b in cuts]


@pytest.mark.parametrize(
    "statement",
    [
        "  int fresh = 1;",
        "  int fresh = 1;  // a note",
        "  long fresh =\n      2;",
        "  unsigned long fresh = sizeof(long) * 2;",
        "\tconst double fresh = 0.5;\r",
    ],
)
def test_a_statement_of_its_own_names_is_cut_whole_lines(statement: str) -> None:
    assert _cut(statement) == [statement + "\n"]


def test_statements_that_name_only_each_other_are_cut_together() -> None:
    assert _cut("  int fresh = 1;\n  fresh += 2;\n  other(fresh);") == [
        "  int fresh = 1;\n",
        "  fresh += 2;\n",
        "  other(fresh);\n",
    ]


@pytest.mark.parametrize(
    "statement",
    [
        "  int fresh = width;",  # a name the kernel reads
        "  int fresh = 1;\n  width = fresh;",  # names that reach the kernel through another statement
        "  int fresh = 1;\n  int chained = fresh;\n  width = chained;",  # … through two
        "  factor = 3;",  # a name the kernel reads through a macro
        "  table[0] = 1;",  # a name another host statement spells
    ],
)
def test_a_statement_that_names_what_is_read_is_kept(statement: str) -> None:
    assert _cut(statement) == []


@pytest.mark.parametrize(
    "statement",
    [
        "  int fresh = 1; int other = 2;",  # two statements on a line
        "  int fresh = 1; /* a note */",
        "  /* a note */ int fresh = 1;",
        "  int fresh = 1;  // continued onto the next line \\",
        "  int fresh = 1; \\",
    ],
)
def test_a_statement_sharing_its_lines_is_kept(statement: str) -> None:
    assert _cut(statement) == []


def test_a_statement_after_a_continued_line_is_kept() -> None:
    assert _cut("  int first = 1;  // continued \\\n  int fresh = 1;") == []


@pytest.mark.parametrize(
    "statement",
    [
        "  auto fresh = [](int v) { v++; };",  # code of its own
        "  int fresh = ({ 1; });",
        "  fresh = fresh_flag ? 1 : throw 2;",  # a keyword that is neither a type nor an operator
        "  this->fresh = 1;",
        "  int fresh\\u00e9 = 1;",  # a universal character name: a name the words may not see whole
        "  int fresh$ = 1;",
        "  int fresh\u00e9 = 1;",
        "#ifdef FRESH\n  int fresh = 1;\n#endif",  # not directly in the block
        "  if (fresh_flag)\n    fresh_count++;",  # the body of an if without braces
        "  for (int fresh = 0; fresh < 2; fresh++) {\n    fresh_total += fresh;\n  }",
        "  int fresh = 1;\n  int broken = (1;",  # a syntax error anywhere: nothing is cut
    ],
)
def test_what_is_not_read_by_name_alone_is_kept(statement: str) -> None:
    assert _cut(statement) == []


def test_a_launch_or_local_allocation_is_kept() -> None:
    text = PROGRAM.replace("@", "  go(fresh);")
    at = text.index("go(fresh)")
    assert _cut("  go(fresh);") == ["  go(fresh);\n"]
    assert _cut("  go(fresh);", kept=[(at, at + len("go(fresh)"))]) == []


def test_names_spelt_in_headers_or_configured_macros_are_read() -> None:
    assert _cut("  int fresh = 1;", elsewhere=[frozenset({b"unrelated"})]) == ["  int fresh = 1;\n"]
    assert _cut("  int fresh = 1;", elsewhere=[frozenset({b"unrelated"}), frozenset({b"fresh"})]) == []


def test_a_keyword_that_is_a_macro_is_a_name() -> None:
    """`int` names nothing, unless a macro of that name rewrites it (the file spells `int` elsewhere)."""
    assert _cut("  int fresh = 1;") == ["  int fresh = 1;\n"]
    assert _cut("  int fresh = 1;", macros=frozenset({"int"})) == []


def test_without_cuts_the_ranges_inside_a_piece() -> None:
    text = b"0123456789"
    assert host_slice.without(text, 100, [(90, 95), (102, 104), (106, 107), (108, 120)]) == b"0145789"
    assert host_slice.without(text, 100, []) == text
    assert host_slice.without(text, 100, [(50, 60), (200, 210)]) == text


def test_header_words_are_read_once_per_version(tmp_path: Path) -> None:
    header = tmp_path / "h.h"
    header.write_text("#define ROW row_width\n")
    stat = header.stat()
    assert host_slice.header_words((str(header), stat.st_size, stat.st_mtime_ns)) == frozenset(
        {b"define", b"ROW", b"row_width"}
    )
    assert host_slice.header_words((str(tmp_path / "gone.h"), -1, -1)) == frozenset()  # missing: read as nothing
    assert host_slice.header_words((str(tmp_path), 1, 1)) is None  # there but unreadable: unknown
