"""Independent pieces of one analysis worked out at once, in forked children, on the CPUs there are.

The language server's worker analyses one document at a time, and a statement half typed in host code
re-analyses every device component of its file (each one's key holds the host text): about 100 ms of
pure Python spread over a few dozen independent components, which threads cannot run at once. So
the worker turns this on (`turn_on`), and `forked_map` forks up to one child per CPU this process may
use beyond its own (at most `MOST_CHILDREN`) that no other task wants at the time. Each child works out
its share of the pieces on a copy of the parent's memory (the parse tree, the tables built so far:
nothing to send), sends each result back pickled through a pipe and ends; the parent works out its
own share meanwhile. The command line never turns it on: its parallelism is per file, and its output
the same at every job count.

What holds, whatever happens to a child:
- a result is the piece's result or absent, never another: a child that raises, runs out of stack,
  crashes or is killed sends nothing more, and the caller works out whatever is absent itself (so an
  exception is the one working it out in order raises);
- a stop (`kernlint.stopping`, checked between the parent's pieces and while it waits) or the time
  limit per file (`limits.time_limit`: its timer signal interrupts the wait) ends and reaps every
  child before it propagates; children also end with the process that forked them (PR_SET_PDEATHSIG),
  and never run on after their share;
- a child runs no garbage collection (it would touch, and so copy, every page), handles no signal
  its parent handled (no timer is inherited across fork), checks no stop of the parent's, writes
  nothing but its pipe (stdout is the language server's channel) and ends with `os._exit`, running
  no exit handler and flushing no buffer.

Forking is safe only in a process with one thread (a lock another thread held stays locked in the
child): where there are more, or on a platform other than Linux, `forked_map` forks nothing.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TypeVar

from kernlint import stopping
from kernlint.limits import cpu_count, exit_with_parent
from kernlint.records import record

T = TypeVar("T")

MOST_CHILDREN = 7  # beyond that, forking and collecting cost more than the pieces of one file save
_WAIT_S = 0.02  # how often a waiting parent checks for a stop
_PIPE_BYTES = 1 << 20  # a child's results, at most, that fit its pipe without waiting for the parent
_HEADER = struct.Struct("<Q")  # each result's length, then its pickle
_children = 0  # children a map may fork: 0, off (the command line)
_when_idle = False  # only as many as there are CPUs no other task wants at the time (`turn_on()`)
_LOADAVG = "/proc/loadavg"  # its fourth field: the tasks runnable now / all tasks
# Signals whose handler may raise (the time limit per file): held while a child is forked and recorded.
_RAISING = {signal.SIGALRM}


@record
class Spread:
    """A map that forked, for a benchmark's trace: its children, and when (monotonic ns) it began, the
    parent's own share was done and the last child's results were in."""

    children: int
    began: int
    shared: int
    collected: int


spreads: list[Spread] = []  # the maps that forked since the caller last cleared it (the worker: each analysis)


def turn_on(children: int | None = None) -> None:
    """Let `forked_map` fork up to `children` children (0: none). None: one per CPU this process may
    use beyond its own (at most `MOST_CHILDREN`), and at each map only as many as there are such CPUs
    that no other task wants at that moment: on a machine busy with other work a child would wait for
    a CPU and only add its cost (forking, pages copied), so the analysis is made in turn as before."""
    global _children, _when_idle
    _children = min(MOST_CHILDREN, cpu_count() - 1) if children is None else max(0, children)
    _when_idle = children is None


def children() -> int:
    """How many children a map may fork now: none unless turned on, on Linux, with one thread."""
    if not _children or not sys.platform.startswith("linux") or threading.active_count() > 1:
        return 0
    return min(_children, _idle_cpus()) if _when_idle else _children


def _idle_cpus() -> int:
    """The CPUs this process may use that no runnable task (this process among them) wants now, by the
    kernel's count of runnable tasks; unknown: as many as turned on."""
    try:
        with open(_LOADAVG, "rb") as loadavg:
            runnable = int(loadavg.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return _children
    return max(0, cpu_count() - runnable)


def shares(weights: Sequence[int], ways: int) -> list[list[int]]:
    """The indices of `weights` in `ways` shares of about equal total weight (the heaviest first, each
    to the lightest share so far), each share in ascending order: the lightest first (the parent's, which
    begins after every fork), then the others heaviest first (forked in that order, the heaviest soonest)."""
    loads = [(0, way) for way in range(ways)]
    split: list[list[int]] = [[] for _ in range(ways)]
    for index in sorted(range(len(weights)), key=lambda i: (-weights[i], i)):
        load, way = min(loads)
        split[way].append(index)
        loads[way] = (load + weights[index], way)
    lightest, *others = sorted(range(ways), key=lambda way: (loads[way][0], way))
    return [sorted(split[way]) for way in (lightest, *reversed(others))]


def forked_map(
    function: Callable[..., T],
    calls: Sequence[tuple[Any, ...]],
    weights: Sequence[int],
    least: int = 1,
    stacklevel: int = 1,
    meanwhile: Callable[[], object] | None = None,
) -> dict[int, T]:
    """`function(*arguments)` of each of `calls`, by its index, the calls shared between this process
    and up to `children()` forked children by `weights` (one per call), each share weighing about
    `least` or more. A call that raised, or whose child ended early, is absent (the caller makes it
    itself, and meets the exception there); so is every call where there is nothing to share. Each
    call runs as deep in Python's stack as if the caller (`stacklevel` 1; 2: the caller's caller, as
    for `warnings.warn`) had made it: the recursion limit is raised by the frames between, so an
    analysis that reads what it can within the stack reads the same. The parent's own share is the
    lightest; `meanwhile` (work of the caller's that no call needs) it does after that share, while the
    children finish theirs. Should `meanwhile` raise an `Exception`, it is dropped here: the caller does
    that work again in its turn and meets it there."""
    ways = min(children() + 1, len(calls), sum(weights) // max(1, least))
    if ways < 2:
        return {}
    began = time.monotonic_ns()
    caller = _depth(sys._getframe(stacklevel))
    split = shares(weights, ways)
    results: dict[int, T] = {}
    running: dict[int, tuple[int, bytearray]] = {}  # read end: (child's pid, bytes read)
    try:
        for share in split[1:]:
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _RAISING)  # a child is reaped once it is known
            try:
                read, pid = _fork(function, calls, share, caller, blocked)
                running[read] = (pid, bytearray())
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for index in split[0]:  # the parent's own share, until a call raises
            stopping.checkpoint()
            try:
                results[index] = _as_called(caller, function, calls[index])
            except Exception:
                break
            _collect(running, results, 0)
        if meanwhile is not None:  # (while the children, which start later and copy pages, finish theirs)
            with contextlib.suppress(Exception):
                meanwhile()
        shared = time.monotonic_ns()
        while running:
            stopping.checkpoint()
            _collect(running, results, _WAIT_S)
    finally:
        _end(running)
    spreads.append(Spread(ways - 1, began, shared, time.monotonic_ns()))
    return results


def _depth(frame: FrameType | None) -> int:
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def _as_called(caller: int, function: Callable[..., T], arguments: tuple[Any, ...]) -> T:
    """`function(*arguments)` with Python's recursion limit raised by how much deeper this frame is
    than the frame at depth `caller`, which would have called `function` itself."""
    extra = _depth(sys._getframe()) - caller
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + extra)
    try:
        return function(*arguments)
    finally:
        sys.setrecursionlimit(limit)


def _fork(
    function: Callable[..., Any],
    calls: Sequence[tuple[Any, ...]],
    share: list[int],
    caller: int,
    mask: set[int | signal.Signals],
) -> tuple[int, int]:
    """A child making the calls of `share`: the read end of its pipe and its pid (`mask`: the signals
    the parent blocked before the fork, which the child blocks once it handles none of the parent's)."""
    read, write = os.pipe()
    with contextlib.suppress(OSError, AttributeError):  # room for the results: the child need not wait
        import fcntl

        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: nothing in here may return or raise into the parent's code
        try:
            os.close(read)
            _child(parent, write, function, calls, share, caller, mask)
        finally:
            os._exit(0)
    os.close(write)
    return read, pid


def _child(
    parent: int,
    write: int,
    function: Callable[..., Any],
    calls: Sequence[tuple[Any, ...]],
    share: list[int],
    caller: int,
    mask: set[int | signal.Signals],
) -> None:
    gc.disable()
    for signum in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, TypeError):
            if callable(signal.getsignal(signum)):
                signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    stopping.clear()
    exit_with_parent(parent)
    for index in share:
        try:
            result = pickle.dumps((index, _as_called(caller, function, calls[index])), pickle.HIGHEST_PROTOCOL)
        except BaseException:  # the parent makes the call itself, and meets the exception there
            continue
        message = memoryview(_HEADER.pack(len(result)) + result)
        while message:
            message = message[os.write(write, message) :]


def _collect(running: dict[int, tuple[int, bytearray]], results: dict[int, Any], timeout: float) -> None:
    """Read what the children sent within `timeout` seconds; reap each that closed its pipe."""
    poll = select.poll()
    for read in running:
        poll.register(read, select.POLLIN)
    for read, _event in poll.poll(timeout * 1000):
        pid, received = running[read]
        chunk = os.read(read, _PIPE_BYTES)
        if chunk:
            received += chunk
            _unpack(received, results)
            continue
        os.waitpid(pid, 0)  # (before it is forgotten: a time limit here leaves it to `_end`)
        del running[read]
        os.close(read)


def _unpack(received: bytearray, results: dict[int, Any]) -> None:
    """Move each whole result from `received` into `results` (a child ended half-way leaves a part)."""
    while len(received) >= _HEADER.size:
        (length,) = _HEADER.unpack_from(received)
        if len(received) < _HEADER.size + length:
            return
        message = received[_HEADER.size : _HEADER.size + length]
        del received[: _HEADER.size + length]
        try:
            item, result = pickle.loads(message)
        except Exception:  # (what cannot be read back is made by the caller)
            continue
        results[item] = result


def _end(running: dict[int, tuple[int, bytearray]]) -> None:
    """Kill and reap every child still running (a stop, the time limit, an error in the parent)."""
    for read, (pid, _received) in running.items():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(read)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    running.clear()
