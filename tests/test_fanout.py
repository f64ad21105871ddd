"""`kernlint.fanout`: calls made at once in forked children. Whatever a child does (finishes, raises,
crashes, is killed, or outlives a stop or a time limit), a result is the call's own result or absent,
no child is left running or unreaped, and a child leaves nothing of its own behind (no output, no exit
handler run, no buffer flushed twice)."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernlint import fanout, stopping
from kernlint.limits import FileTimeout, time_limit

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


@pytest.fixture
def forking() -> Iterator[None]:
    """Up to 3 children per map; the test process must be one that may fork."""
    assert threading.active_count() == 1, "a thread is running: fanout would fork nothing"
    fanout.turn_on(3)
    stopping.clear()
    try:
        yield
    finally:
        fanout.turn_on(0)
        stopping.clear()


def reaped(pid: int) -> bool:
    """Whether `pid` is gone: not running, and no zombie waiting for its parent."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _pid_and_square(value: int) -> tuple[int, int]:
    return os.getpid(), value * value


def test_results_are_each_calls_own_and_children_make_some(forking: None) -> None:
    calls = [(value,) for value in range(12)]
    results = fanout.forked_map(_pid_and_square, calls, [1] * 12)
    assert {index: square for index, (_pid, square) in results.items()} == {i: i * i for i in range(12)}
    made_by = {pid for pid, _square in results.values()}
    assert os.getpid() in made_by and len(made_by) == 4  # the parent and 3 children, each its share
    assert all(reaped(pid) for pid in made_by - {os.getpid()})


def test_nothing_is_forked_when_turned_off_or_not_worth_it(forking: None) -> None:
    assert fanout.forked_map(_pid_and_square, [(1,), (2,)], [10, 10], least=11) == {}  # one share's worth
    assert fanout.forked_map(_pid_and_square, [(1,)], [100]) == {}  # one call
    fanout.turn_on(0)
    assert fanout.children() == 0
    assert fanout.forked_map(_pid_and_square, [(1,), (2,)], [10, 10]) == {}


def test_threads_stop_forking(forking: None) -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert fanout.children() == 0
    finally:
        release.set()
        thread.join()
    assert fanout.children() == 3


@pytest.mark.parametrize("runnable", [1, 2, 3, 1000])
def test_turned_on_per_cpu_a_map_forks_only_for_cpus_no_task_wants(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, runnable: int
) -> None:
    loadavg = tmp_path / "loadavg"
    loadavg.write_text(f"1.50 1.20 0.90 {runnable}/321 4567\n")
    monkeypatch.setattr(fanout, "_LOADAVG", str(loadavg))
    monkeypatch.setattr(fanout, "cpu_count", lambda: 6)
    try:
        fanout.turn_on()
        assert fanout.children() == min(5, max(0, 6 - runnable))  # this process is one of the runnable
        loadavg.write_text("unreadable")
        assert fanout.children() == 5
        fanout.turn_on(3)  # a number: that many, however busy
        loadavg.write_text(f"1.50 1.20 0.90 {runnable}/321 4567\n")
        assert fanout.children() == 3
    finally:
        fanout.turn_on(0)


@given(st.lists(st.integers(0, 1000), max_size=30), st.integers(1, 8))
def test_shares_hold_each_index_once_balanced_lightest_then_heaviest_first(weights: list[int], ways: int) -> None:
    split = fanout.shares(weights, ways)
    assert len(split) == ways
    assert sorted(i for share in split for i in share) == list(range(len(weights)))
    assert all(share == sorted(share) for share in split)
    loads = [sum(weights[i] for i in share) for share in split]
    assert loads[0] == min(loads) and loads[1:] == sorted(loads[1:], reverse=True)
    if weights:  # greedy, heaviest first: no share exceeds the mean by more than the heaviest call
        assert max(loads) <= sum(weights) / ways + max(weights)


def _raises_on_some(value: int) -> tuple[int, int]:
    if value % 3 == 1:
        raise ValueError(value)
    return _pid_and_square(value)


def test_a_call_that_raises_is_absent_and_the_rest_are_made(forking: None) -> None:
    results = fanout.forked_map(_raises_on_some, [(v,) for v in range(12)], [1] * 12)
    own, *theirs = fanout.shares([1] * 12, 4)
    # Each child goes on with the rest of its share; the parent stops its own at its first exception
    # (the caller makes the rest in order, and meets the exception there).
    first = min(i for i in own if i % 3 == 1)
    expected = {i for share in theirs for i in share if i % 3 != 1} | {i for i in own if i < first}
    assert first != max(own) and expected < set(range(12))
    assert set(results) == expected
    assert all(results[i] == (os.getpid() if i in own else results[i][0], i * i) for i in results)
    assert {pid for pid, _s in results.values()} - {os.getpid()}  # children's calls came back


def _dies_in_a_child(value: int, how: str, parent: int) -> tuple[int, int]:
    if os.getpid() != parent and value >= 6:
        if how == "exit":
            os._exit(3)
        if how == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RecursionError if how == "recursion" else ValueError(value)
    return _pid_and_square(value)


@pytest.mark.parametrize("how", ["exit", "kill", "recursion", "exception"])
def test_a_child_that_fails_loses_only_the_calls_it_did_not_make(forking: None, how: str) -> None:
    parent = os.getpid()
    results = fanout.forked_map(_dies_in_a_child, [(v, how, parent) for v in range(12)], [1] * 12)
    own, *theirs = fanout.shares([1] * 12, 4)
    assert any(i >= 6 for share in theirs for i in share)  # each share ascending: what it sent came back
    assert set(results) == set(own) | {i for share in theirs for i in share if i < 6}
    assert all(results[i][1] == i * i for i in results)
    assert all(reaped(pid) for pid, _s in results.values() if pid != parent)


def _gc_and_timer(_value: int) -> tuple[bool, tuple[float, float], object, set[int]]:
    blocked = {int(signum) for signum in signal.pthread_sigmask(signal.SIG_BLOCK, [])}
    return gc.isenabled(), signal.getitimer(signal.ITIMER_REAL), signal.getsignal(signal.SIGALRM), blocked


def test_children_collect_no_garbage_and_inherit_no_timer_handler_or_mask(forking: None) -> None:
    with time_limit(30):
        results = fanout.forked_map(_gc_and_timer, [(v,) for v in range(4)], [1] * 4)
        parent = _gc_and_timer(0)
    children = [results[i] for i in range(4) if i not in fanout.shares([1] * 4, 4)[0]]
    assert parent[0] and parent[1][0] > 0 and callable(parent[2])  # the parent's, as it was
    assert int(signal.SIGALRM) not in parent[3]  # (held only while a child is forked)
    assert len(children) == 3
    for enabled, timer, handler, blocked in children:
        assert not enabled
        assert timer == (0.0, 0.0)
        assert handler == signal.SIG_DFL
        assert blocked == parent[3]


def _refuse() -> None:
    raise ValueError("cannot be read back")


class _Unreadable:
    def __reduce__(self) -> tuple[object, tuple[()]]:
        return _refuse, ()


def _unreadable_in_a_child(value: int, parent: int) -> object:
    return _Unreadable() if os.getpid() != parent else value


def test_a_result_that_cannot_be_read_back_is_absent(forking: None) -> None:
    parent = os.getpid()
    results = fanout.forked_map(_unreadable_in_a_child, [(v, parent) for v in range(8)], [1] * 8)
    assert results == {i: i for i in fanout.shares([1] * 8, 4)[0]}


RUN_ON_S = 5.0  # how long a child sleeps before it leaves a mark that it ran on after the parent gave up


def _sleeps_in_a_child(folder: str, parent: int, stop: bool) -> int:
    if os.getpid() != parent:
        Path(folder, str(os.getpid())).touch()
        time.sleep(RUN_ON_S)
        Path(folder, f"ran-on-{os.getpid()}").touch()
    elif stop:
        while len(os.listdir(folder)) < 3:  # each child has begun
            time.sleep(0.01)
        stopping.request()
    return os.getpid()


def _children_in(folder: Path) -> list[int]:
    """The children that began (each left its pid), after checking that none ran on to its end."""
    assert not [name for name in os.listdir(folder) if name.startswith("ran-on-")]
    return [int(name) for name in os.listdir(folder) if name.isdigit()]


def test_a_stop_ends_and_reaps_every_child(forking: None, tmp_path: Path) -> None:
    calls = [(str(tmp_path), os.getpid(), True) for _ in range(4)]
    with pytest.raises(stopping.Stopped):
        fanout.forked_map(_sleeps_in_a_child, calls, [1] * 4)
    children = _children_in(tmp_path)
    assert len(children) == 3 and all(reaped(pid) for pid in children)
    stopping.clear()
    results = fanout.forked_map(_pid_and_square, [(2,), (3,)], [1, 1])  # still usable
    assert {i: s for i, (_p, s) in results.items()} == {0: 4, 1: 9}


def test_the_time_limit_ends_and_reaps_every_child(forking: None, tmp_path: Path) -> None:
    calls = [(str(tmp_path), os.getpid(), False) for _ in range(4)]
    with pytest.raises(FileTimeout), time_limit(0.5):
        fanout.forked_map(_sleeps_in_a_child, calls, [1] * 4)
    children = _children_in(tmp_path)
    assert len(children) == 3 and all(reaped(pid) for pid in children)


def _recursion_room(_value: int) -> int:
    """How many more frames this call could push before Python's recursion limit."""

    def deeper(depth: int) -> int:
        try:
            return deeper(depth + 1)
        except RecursionError:
            return depth

    return deeper(0)


def test_each_call_has_the_stack_room_the_caller_would_have_given_it(forking: None) -> None:
    direct = _recursion_room(0)
    results = fanout.forked_map(_recursion_room, [(v,) for v in range(4)], [1] * 4)
    assert results == {i: direct for i in range(4)}
    assert _forked_from_a_helper() == {i: direct for i in range(4)}


def _forked_from_a_helper() -> dict[int, int]:
    """The map made one frame down, as if its caller's caller made the calls (`stacklevel` 2)."""
    return fanout.forked_map(_recursion_room, [(v,) for v in range(4)], [1] * 4, stacklevel=2)


_SCRIPT = """
import atexit, os, sys, time
sys.path.insert(0, {root!r})
from kernlint import fanout

def call(value, folder):
    if folder and os.getpid() != PARENT:
        open(os.path.join(folder, str(os.getpid())), "w").close()
        time.sleep(60)
    return value

PARENT = os.getpid()
atexit.register(lambda: print("exit handler", flush=True))
sys.stdout.write("unflushed ")
fanout.turn_on(3)
folder = sys.argv[1] if len(sys.argv) > 1 else ""
if folder:
    fanout.forked_map(call, [(v, folder) for v in range(4)], [1] * 4)
print(sorted(fanout.forked_map(call, [(v, "") for v in range(8)], [1] * 8).items()))
"""


def _script(tmp_path: Path) -> Path:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(_SCRIPT.format(root=str(Path(__file__).resolve().parents[1]))))
    return script


def test_children_write_nothing_and_run_no_exit_handler(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(_script(tmp_path))], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"unflushed {[(v, v) for v in range(8)]}\nexit handler\n"
    assert done.stderr == ""


def test_children_end_with_the_process_that_forked_them(tmp_path: Path) -> None:
    folder = tmp_path / "children"
    folder.mkdir()
    process = subprocess.Popen([sys.executable, str(_script(tmp_path)), str(folder)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(os.listdir(folder)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        children = _children_in(folder)
        assert len(children) == 3
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 30
    while not all(_gone(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in children)


def _gone(pid: int) -> bool:
    """Whether `pid` no longer runs (ended; a zombie its new parent has not reaped counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_meanwhile_runs_once_in_the_parent_after_its_share_and_a_failure_of_it_is_dropped(forking: None) -> None:
    order: list[tuple[str, int]] = []

    def square(value: int) -> tuple[int, int]:
        order.append(("call", os.getpid()))
        return _pid_and_square(value)

    def meanwhile() -> None:
        order.append(("meanwhile", os.getpid()))

    results = fanout.forked_map(square, [(v,) for v in range(12)], [1] * 12, meanwhile=meanwhile)
    assert {i: s for i, (_pid, s) in results.items()} == {i: i * i for i in range(12)}
    own = fanout.shares([1] * 12, 4)[0]
    assert order == [("call", os.getpid())] * len(own) + [("meanwhile", os.getpid())]  # (children's are theirs)

    def failing() -> None:
        raise ValueError("the caller does this again, and meets it there")

    results = fanout.forked_map(_pid_and_square, [(v,) for v in range(12)], [1] * 12, meanwhile=failing)
    assert {i: s for i, (_pid, s) in results.items()} == {i: i * i for i in range(12)}
    assert fanout.forked_map(_pid_and_square, [(1,)], [1], meanwhile=failing) == {}  # nothing forked: not run


def test_a_stop_in_meanwhile_ends_and_reaps_every_child(forking: None, tmp_path: Path) -> None:
    def stopped() -> None:  # (a stop is no `Exception`: never dropped)
        while len(os.listdir(tmp_path)) < 3:  # each child has begun
            time.sleep(0.01)
        stopping.request()
        stopping.checkpoint()

    calls = [(str(tmp_path), os.getpid(), False) for _ in range(4)]
    with pytest.raises(stopping.Stopped):
        fanout.forked_map(_sleeps_in_a_child, calls, [1] * 4, meanwhile=stopped)
    children = _children_in(tmp_path)
    assert len(children) == 3 and all(reaped(pid) for pid in children)
