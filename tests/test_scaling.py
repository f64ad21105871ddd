"""Work that grows with a file's size, not with its square (issue 19, item 6), checked by counting, never
by timing (benchmarks/bench_file_size.py gives the times).

A generated file of N blocks that reuse the same local names (`i`, `lid`, `v`) is analysed, and so is
one of 4N blocks. The containment tests made (`Span.contains`), the OpenMP constructs looked at
(`OmpConstruct.leaves`) and the declarations of a name looked at to resolve it must grow about 4 times,
as the file does: a scan of every launch, branch, construct or declaration for each question grows 16
times. The indexes that replaced the scans must answer as the scans did (`SpanIndex` against a scan).
"""

from __future__ import annotations

import importlib.util
import os
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_source
from kernlint.facts.base import Span
from kernlint.facts.openmp import OmpConstruct
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.cpp import constants
from kernlint.session import make_setup

_SPEC = importlib.util.spec_from_file_location(
    "bench_file_size", Path(__file__).resolve().parents[1] / "benchmarks" / "bench_file_size.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


class _CountedList(list):
    """A list that counts the elements read through it (iterations over all of it)."""

    counter: Counter[str]

    def __iter__(self) -> Iterator[object]:
        self.counter["declarations read"] += len(self)
        return super().__iter__()


@contextmanager
def _counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    counts: Counter[str] = Counter()
    contains, leaves = Span.contains, OmpConstruct.leaves
    definitions = constants.CppConstants._definitions

    def counted_contains(self: Span, other: Span) -> bool:
        counts["containment tests"] += 1
        return contains(self, other)

    def counted_leaves(self: OmpConstruct) -> tuple[str, ...]:
        counts["constructs looked at"] += 1
        return leaves.fget(self)  # type: ignore[attr-defined]

    def counted_definitions(self: constants.CppConstants, name: str) -> list[constants.Definition]:
        found = _CountedList(definitions(self, name))
        found.counter = counts
        return found

    with monkeypatch.context() as patch:
        patch.setattr(Span, "contains", counted_contains)
        patch.setattr(OmpConstruct, "leaves", property(counted_leaves))
        patch.setattr(constants.CppConstants, "_definitions", counted_definitions)
        yield counts


def _work(kind: str, blocks: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], int]:
    """The counts of analysing a generated file of `blocks` blocks, and how many findings it had."""
    name, data = bench.generate(kind, 0)
    block = bench.KINDS[kind][2]
    data += "".join(block(k) for k in range(blocks)).encode()
    setup = make_setup(Config(root=os.getcwd()), use_cache=False, timeout_s=None)
    family = ("fortran", False) if name.endswith(".f90") else ("cpp", False)
    with _counting(monkeypatch) as counts:
        result = analyse_source(SourceEntry(name, *family), data, setup)
    assert result.status.value == "ok"
    return counts, len(result.diagnostics)


@pytest.mark.parametrize("kind", list(bench.KINDS))
def test_work_grows_with_the_file_not_its_square(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    small, small_findings = _work(kind, 12, monkeypatch)
    large, large_findings = _work(kind, 48, monkeypatch)
    assert large_findings == 4 * small_findings > 0  # the same findings in every block
    for what in ("containment tests", "constructs looked at", "declarations read"):
        # linear: 4 times (plus what the file's head costs); quadratic: 16 times
        assert large[what] <= 5 * small[what] + 50, (what, small[what], large[what])


def _spans(seed: int, count: int) -> list[Span]:
    rng = random.Random(seed)
    spans = []
    for _ in range(count):
        start = rng.randrange(0, 200)
        end = start + rng.choice([0, 1, 2, 5, 20, 80, 300])
        spans.append(Span(start, end, 1, 0, 1, 0))
    return spans


@pytest.mark.parametrize("seed", range(20))
def test_a_span_index_answers_as_a_scan_does(seed: int) -> None:
    items = _spans(seed, 1 + seed * 7)  # nested, overlapping, equal and empty spans alike
    index = SpanIndex((span, k) for k, span in enumerate(items))
    for query in _spans(1000 + seed, 40) + items:
        assert index.containing(query) == [k for k, span in enumerate(items) if span.contains(query)]
        assert index.inside(query) == [k for k, span in enumerate(items) if query.contains(span)]


def test_an_empty_span_index_finds_nothing() -> None:
    index: SpanIndex[int] = SpanIndex([])
    assert index.containing(Span(0, 5, 1, 0, 1, 5)) == [] and index.inside(Span(0, 5, 1, 0, 1, 5)) == []
