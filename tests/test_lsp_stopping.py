"""Stopping a superseded analysis at a checkpoint (`kernlint.stopping`), as the language server's
worker does: the stop lands only where nothing shared is half-built, what the worker kept stays
right (the next analysis equals a fresh one), the components finished before the stop are kept, and
the worker itself survives."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from kernlint import stopping
from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import EngineSetup, analyse_source
from kernlint.frontends.cpp.device import reuse
from kernlint.lsp import worker
from kernlint.session import make_setup
from test_device_reuse import PROGRAM

EDITED = PROGRAM.replace("c[i] = 0.0f;", "c[i] = 0.0f;\n      c[i + 1] = 2.0f;")


def _setup() -> EngineSetup:
    return make_setup(Config(devices=("xe-hpc", "a100")), use_cache=False)


@pytest.fixture
def cache() -> Iterator[reuse.ComponentCache]:
    kept = reuse.ComponentCache()
    kept.scope = ("test",)
    reuse.turn_on(kept)
    stopping.clear()
    try:
        yield kept
    finally:
        reuse.turn_on(None)
        stopping.clear()


def _analyse(text: str, setup: EngineSetup) -> tuple:
    return analyse_source(SourceEntry("k.cpp", "cpp", False), text.encode(), setup).diagnostics


def test_a_checkpoint_stops_only_after_a_request_and_no_except_exception_catches_it() -> None:
    stopping.clear()
    stopping.checkpoint()  # nothing asked: goes on
    stopping.request()
    try:
        with pytest.raises(stopping.Stopped):
            try:
                stopping.checkpoint()
            except Exception:  # what the engine does with a crash: must not swallow a stop
                pytest.fail("a stop was caught as an error")
    finally:
        stopping.clear()
    stopping.checkpoint()


def test_a_stop_between_kernels_keeps_the_finished_ones_and_the_next_analysis_is_fresh(
    cache: reuse.ComponentCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = _setup()
    stored: list[object] = []
    put = reuse.ComponentCache.put

    def put_then_stop(
        self: reuse.ComponentCache, key: object, regions: object, facts: object, *, keep: bool = True
    ) -> None:
        stored.append(key)
        stopping.request()  # the server's signal, arriving while the first component is analysed
        put(self, key, regions, facts, keep=keep)  # type: ignore[arg-type]

    monkeypatch.setattr(reuse.ComponentCache, "put", put_then_stop)
    with pytest.raises(stopping.Stopped):
        _analyse(PROGRAM, setup)
    assert len(stored) == 1  # stopped right after the first component, before the second
    monkeypatch.setattr(reuse.ComponentCache, "put", put)
    stopping.clear()
    hits = cache.hits
    resumed = _analyse(PROGRAM, setup)
    assert cache.hits - hits == 1  # the component finished before the stop was kept
    reuse.turn_on(None)
    assert resumed == _analyse(PROGRAM, setup)  # and what was kept is what a fresh analysis finds


def test_a_stop_requested_before_an_analysis_began_stops_it_at_its_first_checkpoint(
    cache: reuse.ComponentCache,
) -> None:
    stopping.request()
    with pytest.raises(stopping.Stopped):
        _analyse(PROGRAM, _setup())
    assert cache.hits == cache.misses == 0  # stopped before the first component was looked up


def test_a_worker_asked_to_stop_answers_stopped_keeps_running_and_then_analyses_afresh(tmp_path: Path) -> None:
    setup = _setup()
    path = tmp_path / "k.cpp"
    analyser = worker.Analyser()
    analyser.start()
    try:
        process = analyser._process

        def call(text: str, run: int) -> object:
            return analyser._call(worker.Request(SourceEntry(str(path), "cpp", False), text.encode(), setup, "k", run))

        first = call(PROGRAM, 1)
        assert first is not None
        analyser._stop_upto.value = 2  # what `_stop_soon` sets for the running run before its signal
        assert call(EDITED, 2) is None  # stopped, as asked
        assert analyser._process is process and process.is_alive()  # the worker (and its cache) survived
        assert call(EDITED, 0) is not None  # a request no run counts is never stopped
        later = call(EDITED, 3)
        assert later is not None
        fresh = analyse_source(SourceEntry(str(path), "cpp", False), EDITED.encode(), setup)
        assert later.diagnostics == fresh.diagnostics  # type: ignore[attr-defined]
    finally:
        analyser.close()


def test_superseding_a_running_analysis_asks_its_worker_to_stop_that_run() -> None:
    async def scenario() -> int:
        analyser = worker.Analyser()
        analyser.start()
        try:
            analyser._running, analyser._runs = "file:///k.cpp", 7
            analyser.supersede("file:///k.cpp")
            return int(analyser._stop_upto.value)
        finally:
            analyser._running = None
            analyser.close()

    assert asyncio.run(scenario()) == 7


def test_an_openmp_analysis_stops_between_its_stages_and_the_next_is_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    from kernlint.frontends.cpp.openmp import macros

    path = sorted((Path(__file__).resolve().parents[1] / "corpus" / "openmp").glob("*.cpp"))[0]
    text, setup = path.read_bytes(), _setup()
    fresh = analyse_source(SourceEntry(str(path), "cpp", False), text, setup).diagnostics
    build = macros.build_constructs
    reached: list[str] = []

    def build_then_stop(source: object) -> object:
        stopping.request()  # the server's signal, arriving while the directives are read
        return build(source)  # type: ignore[arg-type]

    def solve(*args: object) -> object:
        reached.append("solve")
        return None

    monkeypatch.setattr(macros, "build_constructs", build_then_stop)
    monkeypatch.setattr(macros, "solve_regions", solve)
    try:
        with pytest.raises(stopping.Stopped):
            analyse_source(SourceEntry(str(path), "cpp", False), text, setup)
    finally:
        stopping.clear()
    assert reached == []  # stopped before the regions were solved
    monkeypatch.undo()
    assert analyse_source(SourceEntry(str(path), "cpp", False), text, setup).diagnostics == fresh
