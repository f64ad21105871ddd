"""A superseded analysis is given a grace before its worker is ended (kernlint.lsp.worker): the worker
keeps the facts of unchanged kernels between versions, which ending it would lose."""

from __future__ import annotations

import asyncio

from kernlint.lsp import worker


class _Recording(worker.Analyser):
    def __init__(self) -> None:
        super().__init__()
        self.stops = 0

    def _stop(self) -> None:
        self.stops += 1


def _superseded(still_running: bool) -> int:
    """Supersede a running analysis of a document; the stops of its worker once the grace is over."""

    async def scenario() -> int:
        analyser = _Recording()
        analyser._running, analyser._runs = "file:///k.cpp", 1
        analyser.supersede("file:///k.cpp")
        assert analyser.stops == 0  # not at once
        if not still_running:  # it ended, and the next version's analysis began
            analyser._running, analyser._runs = "file:///k.cpp", 2
        await asyncio.sleep(worker.STALE_GRACE_SECONDS * 2)
        return analyser.stops

    return asyncio.run(scenario())


def test_a_superseded_analysis_still_running_after_the_grace_is_stopped() -> None:
    assert _superseded(still_running=True) == 1


def test_a_superseded_analysis_that_ended_within_the_grace_keeps_its_worker() -> None:
    assert _superseded(still_running=False) == 0


def test_another_documents_analysis_is_not_stopped() -> None:
    async def scenario() -> int:
        analyser = _Recording()
        analyser._running, analyser._runs = "file:///other.cpp", 1
        analyser.supersede("file:///k.cpp")
        await asyncio.sleep(worker.STALE_GRACE_SECONDS * 2)
        return analyser.stops

    assert asyncio.run(scenario()) == 0
