"""Bounds on a run's resources: time per file, worker count, and workers' lifetime.

One pathological file must cost its own time limit, not the run; a run must not start more workers
than there are CPUs to run them; and workers must not outlive a parent that was killed (as an
out-of-memory killer would), since nobody would ever collect their results.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

DEFAULT_TIMEOUT_S = 10.0


class FileTimeout(BaseException):
    """Raised into a file's analysis when its time is up. A BaseException, so that the engine's
    `except Exception` (which turns one rule's crash into a KL000) cannot swallow it."""


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise `FileTimeout` in the block after `seconds` of wall time (None or 0: no limit).

    A real-time timer signal interrupts pure-Python work wherever it is; it can only be armed from the
    main thread, which is where the CLI (in-process with `--jobs 1`) and every pool worker run files.
    Elsewhere (an embedding program's thread) the block runs without a limit.
    """
    if not seconds or not _can_interrupt():
        yield
        return
    armed = True

    def expire(_signum: int, _frame: object) -> None:
        if armed:
            raise FileTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def worker_count(requested: int | None) -> tuple[int, str | None]:
    """How many workers to start for `--jobs` (None or 0: one per CPU), and a note when capped."""
    if requested is not None and requested < 0:
        raise ValueError(f"a negative number of workers: {requested}")
    cpus = cpu_count()
    if not requested:
        return cpus, None
    if requested > cpus:
        return cpus, f"--jobs {requested} is more than the {cpus} CPU(s) available; using {cpus}"
    return requested, None


_PR_SET_PDEATHSIG = 1
_WATCH_INTERVAL_S = 1.0


def exit_with_parent(parent: int) -> None:
    """Make this worker process end as soon as `parent` (the process that started it) does.

    Linux delivers a signal on the parent's death (prctl PR_SET_PDEATHSIG); elsewhere a daemon thread
    watches for the worker being re-parented.
    """
    if sys.platform.startswith("linux") and _set_death_signal():
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)
        return
    threading.Thread(target=_watch_parent, args=(parent,), name="kernlint-parent-watch", daemon=True).start()


def _set_death_signal() -> bool:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_INTERVAL_S)
    os._exit(1)
