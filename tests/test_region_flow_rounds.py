"""The reaching definitions of an OpenMP region (`openmp.region_flow`) walk a nested loop from where
its head stood in the last round of the loop around it (`Flow.looping`'s key), not from scratch.
The definitions reaching a head only grow from round to round, so the answer must be the one a walk
from scratch gives: every OpenMP file of the corpus, and deep nests, get the same facts either way."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

from kernlint.analysis import reaching
from kernlint.config import Config
from kernlint.discovery import SourceEntry, family_of
from kernlint.facts import FileFacts
from kernlint.frontends import extract_facts
from kernlint.frontends.openmp import region_flow
from kernlint.source import SourceFile

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "openmp"
_FILES = sorted(p for p in CORPUS.iterdir() if family_of(str(p)) is not None)

_NEST = """\
void sweep(float *a, const float *b, int n, int m) {
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n])
  for (int i = 0; i < n; i++) {
    int k = i, j = 0, s = 0;
    for (int x = 0; x < m; x++) {
      for (int y = 0; y < m; y++) {
        for (int z = 0; z < m; z++) {
          for (int w = 0; w < m; w++) {
            if (s > 3) k = j;
            j = s + w;
            if (j > z) s = k;
          }
          if (k > n) j = y;
        }
        s = s + x;
      }
    }
    if (k > 0) a[i] = b[s];
  }
}
"""


def _facts(path: Path) -> FileFacts:
    family = family_of(str(path))
    assert family is not None
    entry = SourceEntry(str(path), family[0], family[1])
    return extract_facts(entry, SourceFile(str(path), path.read_bytes()), Config())


def _from_scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every loop walked from its entry state, as if it had no key."""
    keyed = reaching.Flow.looping

    def looping(self: reaching.Flow, *args: Any, key: Hashable | None = None, **kwargs: Any) -> reaching.Steps:
        return keyed(self, *args, **kwargs)

    monkeypatch.setattr(reaching.Flow, "looping", looping)


@pytest.mark.parametrize("path", _FILES, ids=lambda p: p.name)
def test_corpus_facts_are_those_of_walks_from_scratch(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keyed = _facts(path)
    _from_scratch(monkeypatch)
    assert _facts(path) == keyed


def test_a_deep_nest_takes_fewer_rounds_for_the_same_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "nest.c"
    path.write_text(_NEST)
    walks: list[int] = []
    walk = region_flow.RegionFlow._walk_indices

    def counted(self: region_flow.RegionFlow, indices: list[int], conditional: bool) -> None:
        walks.append(len(indices))
        walk(self, indices, conditional)

    monkeypatch.setattr(region_flow.RegionFlow, "_walk_indices", counted)
    keyed = _facts(path)
    keyed_walks = len(walks)
    walks.clear()
    _from_scratch(monkeypatch)
    assert _facts(path) == keyed
    assert keyed.branches  # (the nest is analysed at all: `k > 0` depends on i)
    assert keyed_walks < len(walks) / 2  # (2 rounds a loop: 2 ** depth walks of the innermost from scratch)
