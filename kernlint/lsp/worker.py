"""Analysing editor documents off the language server's event loop.

Analysis is CPU-bound Python: run on the event loop it would hold every request (hover, code
actions, the next keystroke) for as long as a large file takes. Here it runs in one worker process,
one document at a time, while the loop goes on answering. A newer version of a document supersedes
the analysis of an older one: a queued request is dropped, and a running one is asked to stop
(`kernlint.stopping`: a signal, then the analysis stops at its next checkpoint, between the kernels of
its device code or before its rules). The worker keeps the device-code facts of unchanged kernels
between versions of a document (`kernlint.frontends.cpp.device.reuse`), so an edit re-analyses only
what it touched, and analyses the kernels an edit invalidated at once in children it forks, one per CPU
it may use beyond its own (`kernlint.fanout`); a stopped analysis keeps the worker, and with it what the
worker kept, including the kernels it finished before it stopped. One that reaches no checkpoint within
a short grace is stopped by ending its worker, which the next request replaces. Where the platform has a
fork server, workers fork from one that has already imported the engine and compiled its queries, so a
replacement is ready in milliseconds. In its own main thread a worker also keeps the per-file time
limit (a timer signal), which a thread could not.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from kernlint import stopping
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus
from kernlint.discovery import SourceEntry
from kernlint.engine import EngineSetup
from kernlint.lsp.trace import mark
from kernlint.records import record

# A test hook: with this set to a directory, each analysis creates `<label>.started` there and waits
# for `<label>.go` before it begins, so a test can hold an analysis for as long as it likes.
TEST_GATE = "KERNLINT_LSP_TEST_GATE"
# How long a superseded analysis, asked to stop, may still run before its worker is ended: long
# enough to reach a checkpoint (one kernel's analysis), which keeps the worker and what it kept.
STALE_GRACE_SECONDS = 0.1
# The server's request to stop at the next checkpoint (`kernlint.stopping`); where the platform has
# no such signal, a superseded analysis runs on until the grace is over.
STOP_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR1", None)
STOPPED = "stopped"  # the worker's answer to a request it stopped
# How long the worker waits for the next request before it collects the cyclic garbage of the objects
# it froze (`_Collector`): longer than the pause between keystrokes, so that typing never waits for it.
IDLE_COLLECT_SECONDS = 1.0
# Analyses after which the frozen objects are collected even without a pause, so that typing for minutes
# on end does not keep the cycles of every analysis: one edit in so many waits for a full collection.
MOST_ANALYSES_FROZEN = 64


@record
class Request:
    """One document's text to analyse with its project's setup; `label` names it to the test gate and
    the trace."""

    entry: SourceEntry
    data: bytes
    setup: EngineSetup
    label: str
    run: int = 0  # the analyser's count of analyses started: which one a stop is meant for


class Analyser:
    """The worker process and the newest request of each document (by a generation count)."""

    def __init__(self) -> None:
        self._latest: dict[str, int] = {}
        self._running: str | None = None
        self._runs = 0  # analyses started: which one a delayed stop was meant for
        self._guard = threading.Lock()  # the process is started in a thread and stopped on the loop
        self._process: Any = None
        self._connection: Connection | None = None
        self._turn: asyncio.Lock | None = None
        self._context: Any = None  # a multiprocessing context
        self._stop_upto: Any = None  # shared with the worker: the last run it is asked to stop

    def supersede(self, uri: str) -> int:
        """A new version of `uri` (or its closing): every earlier request of it is stale; a running one
        is stopped now. Returns the new request's generation."""
        self._latest[uri] = self._latest.get(uri, 0) + 1
        if self._running == uri:
            self._stop_soon()
        return self._latest[uri]

    def _stop_soon(self) -> None:
        """Ask the running (stale) analysis to stop at its next checkpoint, and end its worker unless
        it ends within `STALE_GRACE_SECONDS`: stopped at a checkpoint (or finished), the worker and
        the facts it keeps between versions survive."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._stop()
            return
        with self._guard:
            process, stop_upto = self._process, self._stop_upto
        if STOP_SIGNAL is not None and process is not None and process.pid is not None and stop_upto is not None:
            stop_upto.value = self._runs
            with contextlib.suppress(OSError):
                os.kill(process.pid, STOP_SIGNAL)
        loop.call_later(STALE_GRACE_SECONDS, self._stop_if_running, self._runs)

    def _stop_if_running(self, run: int) -> None:
        if self._runs == run and self._running is not None:
            self._stop()

    def is_current(self, uri: str, generation: int) -> bool:
        return self._latest.get(uri) == generation

    async def analyse(self, uri: str, generation: int, request: Request) -> FileResult | None:
        """The result of `request`, or None when a newer version of the document superseded it."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:  # one analysis at a time, in the order asked
            if not self.is_current(uri, generation):
                return None
            self._running = uri
            self._runs += 1
            request = replace(request, run=self._runs)
            try:
                result = await asyncio.get_running_loop().run_in_executor(None, self._call, request)
            finally:
                self._running = None
        if not self.is_current(uri, generation):
            return None
        if result is None:  # not stopped by us: the worker died (killed for memory, a crash)
            message = "internal error: the analysis process ended unexpectedly; edit or save to try again"
            error = Diagnostic.parse_error(request.entry.path, message, internal=True)
            return FileResult(request.entry.path, None, FileStatus.ERROR, message, (error,))
        return result

    def start(self) -> None:
        """Start the worker ahead of the first request (the fork server's imports take a moment)."""
        with self._guard:
            self._ensure()

    def close(self) -> None:
        self._stop()

    def _call(self, request: Request) -> FileResult | None:
        """The worker's result for `request`; None when the worker stopped the analysis as asked, or
        ended (stopped after the grace, or died)."""
        with self._guard:
            connection = self._ensure()
        try:
            mark("send", request.label)
            connection.send(request)
            result: FileResult | str = connection.recv()
        except (EOFError, OSError):  # the worker was ended (a newer version came) or died
            with contextlib.suppress(OSError):
                connection.close()
            return None
        return None if isinstance(result, str) else result

    def _ensure(self) -> Connection:
        if self._process is None or not self._process.is_alive() or self._connection is None:
            if self._context is None:
                self._context = _context()
            ours, theirs = self._context.Pipe()
            stop_upto = self._context.RawValue("q", 0)
            process = self._context.Process(
                target=_serve, args=(theirs, stop_upto), name="kernlint-analysis", daemon=True
            )
            process.start()
            theirs.close()
            self._process, self._connection, self._stop_upto = process, ours, stop_upto
        return self._connection

    def _stop(self) -> None:
        with self._guard:
            if self._process is not None:
                self._process.kill()
                self._process = None
                self._connection = None


def _context() -> Any:
    """A fork server that preloads the engine where there is one (fork itself is unsafe in a server
    with threads); else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kernlint.lsp.preload"])
        return context
    return multiprocessing.get_context("spawn")


def _serve(connection: Connection, stop_upto: Any) -> None:
    """The worker: analyse each request it is sent, until the server goes away. A stop signal stops
    the running analysis at its next checkpoint when the server asked to stop it (its run is at most
    `stop_upto`); a request asked to stop before it began stops at its first."""
    from kernlint import fanout, interrupts
    from kernlint.engine import analyse_source
    from kernlint.frontends.common import reparse
    from kernlint.frontends.cpp.device import reuse
    from kernlint.limits import exit_with_parent

    exit_with_parent(os.getppid())
    mark("worker-started", "-")
    interrupts.ignore()  # the editor stops the server, and the server its worker
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # stdout is the server's channel to the editor: nothing here may write to it
    os.close(null)
    sys.stdout = sys.stderr
    cache = reuse.ComponentCache()  # device-code facts of unchanged kernels, between versions of a document
    reuse.turn_on(cache)
    fanout.turn_on()  # the components an edit invalidated, analysed at once on the CPUs there are
    reparse.turn_on(reparse.TreeCache())  # each document's last tree, to parse its next version from
    running = 0  # the run being analysed (0: none, or one the server does not count)

    def asked_to_stop() -> bool:
        return 0 < running <= stop_upto.value  # (never by a stop meant for an earlier run, arriving late)

    def stop_requested(_signum: int, _frame: object) -> None:
        if asked_to_stop():
            stopping.request()

    if STOP_SIGNAL is not None:
        signal.signal(STOP_SIGNAL, stop_requested)
    collector = _Collector()
    while True:
        try:
            if not connection.poll(IDLE_COLLECT_SECONDS):
                collector.idle()
            request: Request = connection.recv()
        except (EOFError, OSError):
            return
        mark("worker-received", request.label)
        _wait_at_gate(request.label)
        cache.scope = scope_of(request)
        stopping.clear()
        running = request.run
        if asked_to_stop():  # asked before it began: it stops at its first checkpoint
            stopping.request()
        answer: FileResult | str = STOPPED
        fanout.spreads.clear()
        try:
            answer = analyse_source(request.entry, request.data, request.setup)
        except stopping.Stopped:
            pass
        finally:
            running = 0
        for spread in fanout.spreads:
            mark("fanout-forked", request.label, spread.began)
            mark("fanout-shared", request.label, spread.shared)
            mark("fanout-collected", request.label, spread.collected)
            mark(f"fanout-children-{spread.children}", request.label)
        mark("worker-stopped" if isinstance(answer, str) else "worker-analysed", request.label)
        connection.send(answer)
        collector.settle()


class _Collector:
    """Python's cyclic garbage collection, kept off the time an editor waits. A full collection walks
    every object the worker keeps between analyses (the kept facts and trees, the compiled queries:
    some 13 ms here, and it came every few analyses, on whichever edit it fell). So what outlives an
    analysis is frozen after it (`gc.freeze`: left out of later collections, still freed when no longer
    referenced), and the frozen objects are collected together only when no request came for
    `IDLE_COLLECT_SECONDS` (the garbage among them is reference cycles only, and waits until then), or
    after `MOST_ANALYSES_FROZEN` analyses without such a pause."""

    def __init__(self) -> None:
        self.frozen = 0  # analyses whose survivors were frozen since the last full collection
        self.settle()

    def settle(self) -> None:
        """After an analysis: collect its young garbage (cheap), then freeze what is left."""
        if self.frozen >= MOST_ANALYSES_FROZEN:
            self.idle()
        gc.collect(1)
        gc.freeze()
        self.frozen += 1

    def idle(self) -> None:
        """No request for a while: collect everything once, then freeze what is left again."""
        if self.frozen:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.frozen = 0


def scope_of(request: Request) -> tuple[str, bytes]:
    """What a cached component's facts belong to: the document and its configuration (the setup as
    sent; equal bytes, equal setup)."""
    return (request.entry.path, hashlib.sha256(pickle.dumps(request.setup)).digest())


def _wait_at_gate(label: str) -> None:
    gate = os.environ.get(TEST_GATE)
    if not gate:
        return
    Path(gate, f"{label}.started").touch()
    while not Path(gate, f"{label}.go").exists():
        time.sleep(0.01)
