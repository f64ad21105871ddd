"""A file's constant table reads what its quoted includes bind to a name when the name is first looked
up (`CppConstants.imported_named`), not every header's whole table up front. The bindings of a name
must still be, in this order: the configured (-D) macro, then the file-scope macros and variables of
each quoted include in include order (theirs first, recursively), then the file's own. Checked for
every name of the corpus files that include headers, and of a file whose headers, configuration and
own code all bind the same names."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.cpp.constants import CppConstants, Definition
from kernlint.frontends.cpp.unit import CppUnit

ROOT = Path(__file__).resolve().parent.parent / "corpus"
FILE_SCOPE = (0, 1 << 62)
INCLUDERS = sorted(p for p in ROOT.rglob("*") if p.suffix in (".c", ".cpp", ".h") and b'#include "' in p.read_bytes())


def _expected(constants: CppConstants, name: str) -> list[Definition]:
    """The contract, built from a table of the file alone (no includes) and the headers' own answers."""
    alone = CppConstants(constants._root, None, defines=constants._defines, arms=constants._arms)
    alone._ensure()
    own = alone._definitions(name)
    configured = [d for d in own if d.start_byte == -1]
    imported = [
        Definition(d.name, d.kind, -1, FILE_SCOPE, d.is_const, d.type_text, d.value_text)
        for _include, header in constants._headers
        for d in _expected(header, name)
        if d.scope == FILE_SCOPE
        and d.kind in ("macro", "var")
        and not (d.kind == "macro" and name in constants._defines)
    ]
    return configured + imported + [d for d in own if d.start_byte != -1]


def _names(constants: CppConstants) -> set[str]:
    """Every name the file, its configuration or a header it reaches binds."""
    constants._ensure()
    found = set(constants._pending) | set(constants._defines) | set(constants._defs or ())
    for _include, header in constants._headers:
        found |= _names(header)
    return found


def _check(constants: CppConstants) -> int:
    names = sorted(_names(constants))
    for name in names:
        assert constants._definitions(name) == _expected(constants, name), name
    return len(names)


@pytest.mark.parametrize("path", INCLUDERS, ids=lambda p: p.name)
def test_corpus_includers(path: Path) -> None:
    unit = CppUnit(str(path), path.read_bytes())
    assert _check(unit.constants) > 0


def test_corpus_includers_read_headers() -> None:
    loaded = 0
    for path in INCLUDERS:
        constants = CppUnit(str(path), path.read_bytes()).constants
        constants._ensure()
        loaded += bool(constants._headers)
    assert loaded >= 5


def test_headers_configuration_and_file_bind_the_same_names(tmp_path: Path) -> None:
    (tmp_path / "inner.h").write_text("#define TILE 8\nconst int WIDTH = 4;\nint counter = 0;\n")
    (tmp_path / "outer.h").write_text(
        '#include "inner.h"\n#define TILE 16\n#define DEPTH 2\nconst int WIDTH = 32;\nstatic int scratch[4];\n'
    )
    (tmp_path / "other.h").write_text("#define DEPTH 3\nconstexpr int LANES = 64;\n")
    source = (
        '#include "outer.h"\n#include "other.h"\n#define LANES 32\n'
        "const int WIDTH = 128;\n"
        "void f(int *a) { const int TILE = 4; for (int i = 0; i < TILE * WIDTH * DEPTH * LANES; i++) a[i] = 0; }\n"
    )
    path = tmp_path / "main.cpp"
    path.write_text(source)
    for defines in (None, {"DEPTH": "5"}, {"TILE": "1", "WIDTH": "2"}):
        unit = CppUnit(str(path), path.read_bytes(), defines=defines)
        assert _check(unit.constants) >= 6
    unit = CppUnit(str(path), path.read_bytes(), defines={"DEPTH": "5"})
    assert unit.constants.value("DEPTH", source.index("a[i]")) == 5
    at = source.index("a[i]")
    assert unit.constants.value("TILE", at) is None  # two header bodies: a macro wins over the local
    assert [d.value_text for d in unit.constants._definitions("WIDTH")] == ["4", "32", "128"]
    assert [d.value_text for d in unit.constants._definitions("DEPTH")] == ["5"]
    assert unit.constants.value("TILE * DEPTH", at) is None
    unit = CppUnit(str(path), path.read_bytes(), defines={"TILE": "3", "DEPTH": "5"})
    assert unit.constants.value("TILE * DEPTH", at) == 15
