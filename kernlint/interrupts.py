"""Ctrl-C and SIGTERM: one way to stop a run, whichever arrives and wherever it lands.

A `kill` (SIGTERM, what CI runners and pre-commit send on a timeout) is handled like Ctrl-C (SIGINT):
both raise `KeyboardInterrupt` in the main thread, so every `finally` runs and no half-written file
is left behind. The signal is also remembered, because C code interrupted half-way (a tree-sitter
query compiling its regular expressions) may turn the `KeyboardInterrupt` into an error of its own:
whatever surfaces after a signal arrived is an interruption, never an internal error. Writes that
must not stop half-way (a source file being fixed) run inside `deferred()`, which holds a signal
until the write is done.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

HANDLED = (signal.SIGINT, signal.SIGTERM)
_received: int | None = None
_deferring = 0
_pending = False


class Interrupted(KeyboardInterrupt):
    """An interruption with something to say about what was already done (e.g. files fixed)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def _handle(signum: int, _frame: object) -> None:
    global _received, _pending
    _received = signum
    if _deferring:
        _pending = True
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Handle SIGINT and SIGTERM in the block (main thread only, where signals are delivered), with
    no signal remembered from before; the handlers the process had come back after it (a program or
    a test suite that calls `kernlint.cli.main` keeps its own)."""
    reset()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _handle) for signum in HANDLED}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def ignore() -> None:
    """Leave both signals to the parent process (a pool worker: the parent stops it)."""
    for signum in HANDLED:
        signal.signal(signum, signal.SIG_IGN)


def received() -> int | None:
    """The last signal that arrived, or None."""
    return _received


def exit_code() -> int:
    """What a process ended by a signal returns, as shells report it: 128 + the signal's number
    (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + int(_received or signal.SIGINT)


def check() -> None:
    """Raise `KeyboardInterrupt` if a signal arrived: for code that caught what an interrupted call
    raised in its place."""
    if _received is not None:
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run the block to its end even if a signal arrives meanwhile; the interruption follows it."""
    global _deferring, _pending
    _deferring += 1
    fire = False
    try:
        yield
    finally:
        _deferring -= 1
        fire = not _deferring and _pending
        if fire:
            _pending = False
    if fire:
        raise KeyboardInterrupt


def reset() -> None:
    """Forget an earlier signal (tests run several commands in one process)."""
    global _received, _pending
    _received, _pending = None, False
