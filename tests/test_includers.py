"""Whether a C compiler reads a header: the folders' listings are kept between files, and a `.c` file
added to or removed from a folder after a first answer must change the next one."""

from __future__ import annotations

import os
from pathlib import Path

from kernlint.frontends.cpp.includers import compiled_as_c

_PAST = 1_000_000_000 * 1_000_000_000  # a modification time (ns) no listing below is made at


def _age(folder: Path) -> None:
    """Give `folder` a modification time in the past, so the next entry added changes it whatever the
    clock's granularity."""
    os.utime(folder, ns=(_PAST, _PAST))


def test_a_c_file_added_next_to_a_header_is_seen(tmp_path: Path) -> None:
    header = tmp_path / "proj" / "kernels.h"
    header.parent.mkdir()
    header.write_text("int twice(int x);\n")
    _age(header.parent)
    _age(tmp_path)
    assert compiled_as_c(str(header)) == (False, ())
    source = header.parent / "main.c"
    source.write_text('#include "kernels.h"\n')
    assert compiled_as_c(str(header)) == (True, (str(source),))
    _age(header.parent)
    source.unlink()
    assert compiled_as_c(str(header)) == (False, ())


def test_a_c_file_added_in_the_folder_above_is_seen(tmp_path: Path) -> None:
    header = tmp_path / "include" / "kernels.h"
    header.parent.mkdir()
    header.write_text("int twice(int x);\n")
    _age(header.parent)
    _age(tmp_path)
    assert compiled_as_c(str(header)) == (False, ())
    source = tmp_path / "main.c"
    source.write_text('#include "include/kernels.h"\n')
    assert compiled_as_c(str(header)) == (True, (str(source),))


def test_sources_of_other_folders_are_not_mixed_up(tmp_path: Path) -> None:
    """Two folders listed at the same modification time keep their own sources."""
    first, second = tmp_path / "a" / "k.h", tmp_path / "b" / "k.h"
    for header in (first, second):
        header.parent.mkdir()
        header.write_text("int twice(int x);\n")
    (first.parent / "main.c").write_text('#include "k.h"\n')
    for folder in (first.parent, second.parent, tmp_path):
        _age(folder)
    assert compiled_as_c(str(first)) == (True, (str(first.parent / "main.c"),))
    assert compiled_as_c(str(second)) == (False, ())
