"""The facts of a file do not depend on what the process analysed before: a second extraction in the
same process (warm header and query caches) gives exactly the first one's facts, for every corpus file
and for a file whose headers include each other and whose mapped pointers escape in several ways."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import CORPUS
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.frontends import extract_facts
from kernlint.source import SourceFile

SHARED_HEADER = "#pragma once\n#define ROWS 64\n"
OUTER_HEADER = '#pragma once\n#include "rows.h"\n#define COLS (ROWS * 2)\n'
MAIN = """#include "grid.h"
#include "rows.h"
void touch(float *p);
void sweep(float *grid, float *seen, int n) {
#pragma omp target teams distribute parallel for map(tofrom: grid[0:n], seen[0:n])
  for (int i = 0; i < n; ++i) {
    float *alias = grid + i;
    touch(&grid[i]);
    touch(seen);
    float **where = &seen;
    *alias += COLS + (**where);
  }
}
"""


def facts_twice(path: str, config: Config) -> tuple[object, object]:
    entry = discover([path], config)[0][0]
    data = Path(path).read_bytes()
    return (extract_facts(entry, SourceFile(path, data), config), extract_facts(entry, SourceFile(path, data), config))


def test_headers_included_twice_and_escaping_pointers(tmp_path: Path) -> None:
    (tmp_path / "rows.h").write_text(SHARED_HEADER)
    (tmp_path / "grid.h").write_text(OUTER_HEADER)
    (tmp_path / "sweep.c").write_text(MAIN)
    first, second = facts_twice(str(tmp_path / "sweep.c"), Config(root=str(tmp_path)))
    assert first == second
    assert len(first.dependencies) == len(set(first.dependencies)) == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "path",
    sorted(str(p) for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".f", ".f90", ".hpp")),
    ids=os.path.basename,
)
def test_corpus_facts_are_the_same_the_second_time(path: str) -> None:
    first, second = facts_twice(path, Config(root=str(CORPUS)))
    assert first == second


def test_query_captures_come_in_document_order() -> None:
    """py-tree-sitter returns a query's captures in an order that changes with the process (its hash
    seed): facts read from them, such as which use of a mapped variable a fact points at, did too."""
    from kernlint.frontends.common import treesitter

    source = "void f(float *a) {\n" + "".join(f"  a[{i}] = v{i} + w{i};\n" for i in range(200)) + "}\n"
    root = treesitter.parser("cpp").parse(source.encode()).root_node
    for query in ("cpp_openmp_uses", "cpp_device", "cpp_symbols"):
        for name, nodes in treesitter.captures("cpp", query, root).items():
            starts = [(n.start_byte, -n.end_byte) for n in nodes]
            assert starts == sorted(starts), f"{query} @{name}"
    uses = treesitter.captures("cpp", "cpp_openmp_uses", root)["use"]
    assert len(uses) == 602 and uses[0].start_byte < uses[-1].start_byte
