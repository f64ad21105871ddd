"""The text report written without `rich` (to a file or a pipe) is what `rich` writes there, byte for
byte: any text, any styles (property test against rich itself), and whole reports over the corpus in
every text mode."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kernlint.report.text
from conftest import CORPUS
from kernlint.report import render
from kernlint.report._console import PlainOut, RichOut, Styled, out_for, rich_console
from kernlint.report.text import _rstrip, headline

# Everything rich treats specially: tabs, line breaks, the control characters it drops, wide and
# zero-width characters, trailing spaces.
_CHARACTERS = st.sampled_from(list("ab :\t\n\r\x07\x08\x0b\x0c\x1b\x00é\u0301あ👍\u200d\ufe0f ") + ["  "])
_TEXT = st.lists(_CHARACTERS, max_size=40).map("".join)
_STYLES = st.sampled_from([None, "bold", "dim", "bold red", "cyan", "green"])


def _rich_writes(action: str, *args: object) -> str:
    stream = io.StringIO()
    getattr(RichOut(rich_console(stream, None, 100)), action)(*args)
    return stream.getvalue()


def _plain_writes(action: str, *args: object) -> str:
    stream = io.StringIO()
    out = PlainOut(stream, 100)
    getattr(out, action)(*args)
    out.close()
    return stream.getvalue()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_TEXT, _STYLES), max_size=6))
def test_styled_parts_are_written_as_rich_writes_them(parts: Styled) -> None:
    assert _plain_writes("styled", parts) == _rich_writes("styled", parts)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _STYLES)
def test_a_line_is_written_as_rich_writes_it(text: str, style: str | None) -> None:
    assert _plain_writes("line", text, style) == _rich_writes("line", text, style)


def test_the_plain_writer_is_used_exactly_where_rich_would_not_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TTY_COMPATIBLE", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    assert isinstance(out_for(io.StringIO(), None, 100), PlainOut)
    assert isinstance(out_for(io.StringIO(), False, 100), PlainOut)
    assert isinstance(out_for(io.StringIO(), True, 100), RichOut)  # --color always
    assert isinstance(out_for(io.StringIO(), None, None), RichOut)  # a terminal's own width
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert isinstance(out_for(io.StringIO(), None, 100), RichOut)
    monkeypatch.setenv("FORCE_COLOR", "")
    assert isinstance(out_for(io.StringIO(), None, 100), PlainOut)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    assert isinstance(out_for(io.StringIO(), None, 100), RichOut)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TEXT, _STYLES), max_size=6))
def test_a_code_frame_ends_as_rich_strips_it(parts: Styled) -> None:
    """`_rstrip` (the end of a code frame) is `rich.text.Text.rstrip`, styles and all."""
    from rich.text import Text

    text = Text()
    for piece, style in parts:
        text.append(piece, style=style)
    text.rstrip()
    stream = io.StringIO()
    rich_console(stream, True, 100).print(text, soft_wrap=True)
    assert _rich_writes_coloured(_rstrip(parts)) == stream.getvalue()


def _rich_writes_coloured(parts: Styled) -> str:
    stream = io.StringIO()
    RichOut(rich_console(stream, True, 100)).styled(parts)
    return stream.getvalue()


@pytest.fixture(scope="module")
def corpus_result() -> object:
    from kernlint.discovery import discover
    from kernlint.projects import ConfigResolver
    from kernlint.session import ProjectSetups, run_projects

    setups = ProjectSetups(ConfigResolver(), use_cache=False)
    entries, _problems = discover([str(CORPUS)], setups.resolver.for_directory)
    return run_projects(entries, setups, jobs=1)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"quiet": True},
        {"statistics": True},
        {"show_partial": True},
        {"show_infos": lambda path: "openmp" in path},
    ],
)
@pytest.mark.parametrize("fmt", ["text", "concise"])
def test_whole_reports_are_the_bytes_rich_writes(
    corpus_result: object, fmt: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    plain = io.StringIO()
    render(fmt, corpus_result, plain, **options)  # type: ignore[arg-type]
    monkeypatch.setattr(
        kernlint.report.text, "out_for", lambda stream, color, width: RichOut(rich_console(stream, color, width))
    )
    rich = io.StringIO()
    render(fmt, corpus_result, rich, **options)  # type: ignore[arg-type]
    assert plain.getvalue() == rich.getvalue()
    assert plain.getvalue().count("\n") > 10


def test_a_reader_that_leaves_ends_the_run_as_with_rich(tmp_path: Path) -> None:
    """A clean file's report into a pipe its reader closed: as rich ended it, quietly with status 1."""
    (tmp_path / "k.cpp").write_text("int main() { return 0; }\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "kernlint", "k.cpp", "--no-cache"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    assert stderr == b"" and process.returncode == 1


def _headline_by_characters(message: str, limit: int) -> tuple[str, str]:
    """The headline cut as first written: a depth per character (the reference for `headline`)."""
    first, _, rest = message.partition("\n")
    if len(first) <= limit:
        return first, rest
    outside: list[bool] = []
    depth = 0
    for character in first:
        if character in ")]":
            depth = max(depth - 1, 0)
        outside.append(depth == 0)
        if character in "([":
            depth += 1
    clauses = [i for i in range(len(first) - 1) if first[i : i + 2] in (": ", "; ") and outside[i]]
    words = [i for i in range(len(first)) if first[i] == " " and outside[i]]
    clause = max((i for i in clauses if 40 <= i < limit - 1), default=-1)
    word = max((i for i in words if 40 <= i < limit - 1), default=-1)
    if clause < 0 and word < 0:
        later = [i for i in clauses + words if i >= limit - 1]
        if not later:
            return first, rest
        first_later = min(later)
        clause, word = (first_later, -1) if first_later in clauses else (-1, first_later)
    if clause >= 0:
        head, tail = first[:clause], first[clause + 2 :]
    else:
        head, tail = first[:word].rstrip() + " …", "… " + first[word:].lstrip()
    return head, tail + ("\n" + rest if rest else "")


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.sampled_from(["word", "a", " ", ": ", "; ", ":", "(", ")", "[", "]", "x(y z)", "\n", "  "]), max_size=90
    ).map("".join),
    st.integers(min_value=20, max_value=140),
)
def test_the_headline_is_cut_where_the_per_character_reading_cuts_it(message: str, limit: int) -> None:
    assert headline(message, limit) == _headline_by_characters(message, limit)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_cell_widths_are_rich_s(text: str) -> None:
    from rich.cells import cell_len

    from kernlint.report._console import cell_width

    assert cell_width(text) == cell_len(text)
