"""A header that is also a file of the run is parsed once for both readers (`scan.parsed`, keyed by
the bytes the parser is given). Sharing must never change a fact: whichever reader comes first, with
the trees of the last files kept or not, every file's facts are the ones a fresh process finds, and
bytes that differ (a header read as a file blanks its dead `#if 0` arm, as an include it does not)
never share a tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.facts import FileFacts
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp import constants, frontend, scan

_HEADER = """\
#pragma once
#define BLOCK 128
static const int tile = BLOCK / 4;

inline void scale(float *out, const float *in, int n) {
  #pragma omp target teams distribute parallel for thread_limit(BLOCK) map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i++) {
    if (i % tile == 0) out[i] = 2.0f * in[i];
    else out[i] = in[i];
  }
}
"""
_DEAD = "#if 0\n#pragma omp barrier\nstatic const int unused = 7;\n#endif\n"
_MAIN = """\
#include "kernels.h"

void run(float *out, const float *in, int n) {
  #pragma omp target teams distribute parallel for num_teams(4096 / BLOCK) map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i++) {
    out[i] = in[i] + tile;
  }
  scale(out, in, n);
}
"""


def _forget() -> None:
    """A fresh process's caches: no tree and no header kept."""
    scan._RECENT.clear()
    constants._HEADER_CACHE.clear()


def _facts(path: Path) -> FileFacts:
    return frontend.extract(str(path), path.read_bytes())


def _folder(tmp_path: Path, header: str) -> tuple[Path, Path]:
    (tmp_path / "kernels.h").write_text(header)
    (tmp_path / "main.cpp").write_text(_MAIN)
    return tmp_path / "kernels.h", tmp_path / "main.cpp"


@pytest.mark.parametrize("header", [_HEADER, _DEAD + _HEADER], ids=["same-bytes", "dead-arm"])
def test_facts_do_not_depend_on_which_reader_parses_first(tmp_path: Path, header: str) -> None:
    kernels, main = _folder(tmp_path, header)
    _forget()
    alone = {kernels: _facts(kernels)}
    _forget()
    alone[main] = _facts(main)
    for order in ((kernels, main), (main, kernels)):
        _forget()
        assert {path: _facts(path) for path in order} == alone
    assert dict(alone[main].omp[0].values)["num_teams"] == 32  # BLOCK, from the header
    assert dict(alone[kernels].omp[0].values)["thread_limit"] == 128


def test_the_same_bytes_are_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernels, main = _folder(tmp_path, _HEADER)
    parses: list[bytes] = []
    parser = treesitter.parser("cpp")

    class Counting:
        def parse(self, data: bytes) -> object:
            parses.append(data)
            return parser.parse(data)

    monkeypatch.setattr(treesitter, "parser", lambda _name: Counting())
    _forget()
    _facts(kernels)
    _facts(main)  # its include is the header's bytes again
    assert parses == [kernels.read_bytes(), main.read_bytes()]


def test_a_dead_arm_keeps_the_header_and_the_file_apart(tmp_path: Path) -> None:
    """As a file, the `#if 0` arm is blanked before parsing; as an include it is not: two trees."""
    kernels, main = _folder(tmp_path, _DEAD + _HEADER)
    _forget()
    _facts(kernels)
    _facts(main)
    assert len(scan._RECENT) == 3
    assert kernels.read_bytes() in scan._RECENT  # the include's bytes, as they are on disk


def test_an_edited_header_is_read_again(tmp_path: Path) -> None:
    kernels, main = _folder(tmp_path, _HEADER)
    _forget()
    _facts(kernels)
    before = _facts(main)
    kernels.write_text(_HEADER.replace("#define BLOCK 128", "#define BLOCK 64   "))
    constants._HEADER_CACHE.clear()  # (keyed by size and time: the test writes faster than the clock moves)
    after = _facts(main)
    assert dict(before.omp[0].values)["num_teams"] == 32
    assert dict(after.omp[0].values)["num_teams"] == 64
    assert dict(_facts(kernels).omp[0].values)["thread_limit"] == 64
