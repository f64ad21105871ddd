"""The constant table is built in two stages: the includes and macro names (all the preprocessor facts
need), then the bindings. Asking for the names first must leave the table what it would have been."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp import constants
from kernlint.frontends.cpp.constants import CppConstants

_INNER = "#define TILE 16\nstatic const int lanes = 32;\n#define ASSERT_OK(x) (x)\n"
_OUTER = '#include "inner.h"\n#define BLOCK (TILE * 2)\nconst int width = BLOCK + 1;\n'
_MAIN = '#include "outer.h"\n#define LOCAL 3\nint run() { const int n = width * LOCAL; return n + lanes; }\n'


def _table(folder: Path, name: str = "main.cpp", fresh: bool = True) -> CppConstants:
    """The table of `folder/name`; `fresh`: with no header read before (headers are shared between the
    files of a process, and what an includer lists depends on what its headers have read)."""
    if fresh:
        constants._HEADER_CACHE.clear()
    path = folder / name
    root = treesitter.parser("cpp").parse(path.read_bytes()).root_node
    return CppConstants(root, str(path), defines={"LOCAL": "5"})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "inner.h").write_text(_INNER)
    (tmp_path / "outer.h").write_text(_OUTER)
    (tmp_path / "main.cpp").write_text(_MAIN)
    return tmp_path


def _answers(table: CppConstants, at: int) -> dict[str, object]:
    return {
        "names": table.macro_names(),
        "dependencies": list(table.dependencies),
        "width": table.value("width", at),
        "lanes": table.value("lanes", at),
        "n": table.value("n", at),
        "TILE": table.macro_body("TILE"),
        "LOCAL": table.value("LOCAL", at),
        "defines": table.header_defining("run"),
    }


def test_names_first_leave_the_table_as_values_first(folder: Path) -> None:
    at = _MAIN.index("return")
    values_first = _table(folder)
    expected = {"width": values_first.value("width", at)} | _answers(values_first, at)
    names_first = _table(folder)
    names = names_first.macro_names()
    assert {"width": names_first.value("width", at)} | _answers(names_first, at) == expected
    assert names == expected["names"]


def test_what_the_headers_bind_is_known_after_the_names(folder: Path) -> None:
    at = _MAIN.index("return")
    table = _table(folder)
    assert table.macro_names() >= {"TILE", "BLOCK", "ASSERT_OK", "LOCAL"}
    assert table.value("width", at) == 33  # outer.h's constant, through inner.h's macro
    assert table.value("lanes", at) == 32  # inner.h's constant, two includes away
    assert table.value("LOCAL", at) == 5  # the configured -D wins over the file's own
    assert table.value("n", at) == 165
    assert [Path(d).name for d in table.dependencies][:1] == ["outer.h"]


def test_a_header_asked_for_its_names_first_still_binds_for_its_includers(folder: Path) -> None:
    """Headers are shared between files: one whose names alone were read (by an earlier includer's
    preprocessor facts) must still give its constants to the next includer."""
    (folder / "other.cpp").write_text('#include "outer.h"\nint f() { return width; }\n')
    first = _table(folder)
    first.macro_names()
    second = _table(folder, "other.cpp", fresh=False)
    assert second.value("width", len('#include "outer.h"\nint f() { return ')) == 33


def test_a_file_lists_every_header_it_reads_whatever_was_read_before(folder: Path) -> None:
    """The cache renews a file's result when a header it depends on changes, so its dependencies must
    list the headers two levels down too, and those of a file that never looks a constant up (its
    preprocessor facts still come from them), however the headers were first read in this process."""
    from kernlint.frontends.cpp.frontend import extract

    expected = [str(folder / "outer.h"), str(folder / "inner.h")]
    (folder / "quiet.cpp").write_text('#include "outer.h"\nint run() { return 0; }\n')
    constants._HEADER_CACHE.clear()
    facts = extract(str(folder / "quiet.cpp"), (folder / "quiet.cpp").read_bytes())
    assert list(facts.dependencies) == expected and {"BLOCK", "TILE"} <= set(facts.preprocessor.macros)
    constants._HEADER_CACHE.clear()
    table = _table(folder, fresh=False)
    assert table.macro_names() and list(table.dependencies) == expected
