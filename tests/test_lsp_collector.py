"""The language server's worker keeps Python's full garbage collections off the time an editor waits
(`worker._Collector`): what outlives an analysis is frozen, and collected only when the worker is idle."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from kernlint.lsp import worker


@pytest.fixture
def collector() -> Iterator[worker._Collector]:
    enabled = gc.isenabled()
    gc.disable()  # (only the collections the tests make)
    found = worker._Collector()
    try:
        yield found
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_what_outlives_an_analysis_is_frozen_then_collected_when_idle(collector: worker._Collector) -> None:
    cycle = _Cycle()
    alive = weakref.ref(cycle)
    collector.settle()  # after an analysis: `cycle` outlived it
    del cycle  # now garbage, but only a full collection of the frozen objects finds it
    gc.collect()
    assert alive() is not None
    collector.idle()
    assert alive() is None
    assert gc.get_freeze_count() > 0  # what is left, frozen again


def test_idle_collects_once_until_the_next_analysis(collector: worker._Collector) -> None:
    collector.idle()
    assert not collector.frozen
    cycle = _Cycle()
    alive = weakref.ref(cycle)
    del cycle
    collector.idle()  # nothing analysed since: nothing to do (a collection would free the cycle)
    assert alive() is not None
    collector.settle()
    assert collector.frozen


def test_frozen_cycles_are_collected_after_many_analyses_without_a_pause(collector: worker._Collector) -> None:
    cycle = _Cycle()
    alive = weakref.ref(cycle)
    collector.settle()
    del cycle
    for _ in range(worker.MOST_ANALYSES_FROZEN - 2):  # typing on: analyses with no pause between them
        collector.settle()
    assert alive() is not None
    collector.settle()  # the last analysis the frozen objects may wait for
    collector.settle()
    assert alive() is None
