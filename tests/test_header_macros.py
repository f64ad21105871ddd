"""Attribute-like macros from headers that include one another: the same macros as walking every path
(each header and the headers it includes, up to the depth limit, the nearest definition first), found
with each header read once per depth rather than once per path to it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernlint.frontends.cpp import dialect
from kernlint.frontends.cpp.dialect import file_macros, header_macros


def walked_on_every_path(path: str, depth: int = 0) -> dict[str, str]:
    """What `header_macros` gives, worked out without remembering anything: every path walked."""
    try:
        stat = os.stat(path)
    except OSError:
        return {}
    found = dict(dialect._own_macros(path, stat.st_size, stat.st_mtime_ns))
    if depth < dialect._MAX_HEADER_DEPTH:
        for header in dialect._header_includes(path, stat.st_size, stat.st_mtime_ns):
            if header != path:
                for name, value in walked_on_every_path(header, depth + 1).items():
                    found.setdefault(name, value)
    return found


@pytest.fixture()
def tangled(tmp_path: Path) -> Path:
    """Four headers, each including all the others (a tangle some projects have), each defining its own
    attribute-like macro and one shared name with its own value."""
    names = [f"h{i}.h" for i in range(4)]
    for index, name in enumerate(names):
        includes = "".join(f'#include "{other}"\n' for other in names if other != name)
        (tmp_path / name).write_text(f"#pragma once\n{includes}#define ATTR_{index} static\n#define SHARED inline\n")
    (tmp_path / "main.cpp").write_text('#include "h3.h"\n#include "h0.h"\nATTR_1 int f();\n')
    return tmp_path


def test_tangled_headers_give_what_walking_every_path_gives(tangled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for header in sorted(tangled.glob("*.h")):
        assert header_macros(str(header)) == walked_on_every_path(str(header))
    stats: list[str] = []
    real_stat = os.stat

    def counted(path: str, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dialect.os, "stat", counted)
    main = tangled / "main.cpp"
    macros = file_macros(str(main), main.read_bytes())
    assert {f"ATTR_{i}" for i in range(4)} <= set(macros.objects) and macros.objects["SHARED"] == "inline"
    # each header once per depth it is met at, not once per path (4 headers, 3 includes each: 3^6 paths)
    assert len(stats) <= 4 * (dialect._MAX_HEADER_DEPTH + 1)
