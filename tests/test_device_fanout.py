"""The device components an edit invalidated, analysed at once in forked children (`kernlint.fanout`,
which the language server's worker turns on): the facts, the diagnostics and the component cache
afterwards (its entries, their order, its hits and misses) must be those of the components analysed
one after another, on every corpus C/C++ file and on HeCBench-like files of many kernels, typed into
included; and a child that fails, a stop and the time limit per file must change no result."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kernlint import fanout, stopping
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_source
from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.device import code, reuse
from reuse_support import cache_off, component_cache, diagnostics, engine_setup
from test_device_reuse import MAIN_PROGRAM
from test_device_reuse import PROGRAM as SYCL_PROGRAM
from test_fanout import RUN_ON_S, reaped

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CORPUS_FILES = sorted(
    path for path in CORPUS.rglob("*") if path.suffix in (".c", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".inc")
)

# A file of kernels in functions of their own, two sharing a helper, as HeCBench's SYCL ports are.
KERNELS = """\
#include <sycl/sycl.hpp>
#define BLOCK 256
constexpr int ROWS = 4096;

static float damp(float v, int lane) {
  if (lane & 1) {
    return v * 0.5f;
  }
  return v;
}

void smooth(sycl::queue &q, float *out, const float *in, int n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(BLOCK + 2), h);
    h.parallel_for(sycl::nd_range<1>(ROWS, BLOCK), [=](sycl::nd_item<1> it) {
      int i = it.get_global_id(0);
      int lid = it.get_local_id(0);
      tile[lid + 1] = in[i];
      if (lid == 0 && i > 0) tile[0] = in[i - 1];
      if (lid == BLOCK - 1 && i + 1 < n) tile[BLOCK + 1] = in[i + 1];
      it.barrier(sycl::access::fence_space::local_space);
      out[i] = damp((tile[lid] + tile[lid + 1] + tile[lid + 2]) / 3.0f, lid);
    });
  });
}

void scale(sycl::queue &q, float *out, int n, float by) {
  q.parallel_for(sycl::nd_range<1>(ROWS, BLOCK), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    if (i < n) out[i] = damp(out[i] * by, it.get_local_id(0));
  });
}

void transpose(sycl::queue &q, float *out, const float *in, int width) {
  q.parallel_for(sycl::nd_range<2>(sycl::range<2>(ROWS, 64), sycl::range<2>(16, 16)), [=](sycl::nd_item<2> it) {
    int r = it.get_global_id(0);
    int c = it.get_global_id(1);
    out[c * width + r] = in[r * width + c];
  });
}

void reduce(sycl::queue &q, float *sum, const float *in, int n) {
  q.parallel_for(sycl::nd_range<1>(ROWS, BLOCK), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    int i = it.get_global_id(0);
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) {
      v += sycl::shift_group_left(sg, v, offset);
    }
    if (sg.get_local_linear_id() == 0) {
      sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> total(*sum);
      total += v;
    }
  });
}

void histogram(sycl::queue &q, int *bins, const int *keys, int n) {
  q.parallel_for(sycl::range<1>(ROWS), [=](sycl::id<1> i) {
    int k = keys[i] % 64;
    for (int step = 0; step < k; step++) {
      if (keys[(i + step) % n] == k) bins[k] += 1;
    }
  });
}
"""

# Kernels launched in `main` with buffers and accessors, host statements between them.
MAIN = """\
#include <sycl/sycl.hpp>
#include <vector>
const int N = 1 << 16;
const int WG = 128;

int main() {
  sycl::queue q;
  std::vector<float> x(N, 1.0f), y(N, 2.0f);
  float alpha = 2.0f;
  sycl::buffer<float, 1> bx(x.data(), sycl::range<1>(N));
  sycl::buffer<float, 1> by(y.data(), sycl::range<1>(N));
  q.submit([&](sycl::handler &h) {
    auto ax = bx.get_access<sycl::access::mode::read>(h);
    auto ay = by.get_access<sycl::access::mode::read_write>(h);
    h.parallel_for(sycl::nd_range<1>(N, WG), [=](sycl::nd_item<1> it) {
      int i = it.get_global_id(0);
      ay[i] = alpha * ax[i] + ay[i];
    });
  });
  int passes = 4;
  for (int p = 0; p < passes; p++) {
    q.submit([&](sycl::handler &h) {
      auto ay = by.get_access<sycl::access::mode::read_write>(h);
      sycl::local_accessor<float, 1> part(sycl::range<1>(WG), h);
      h.parallel_for(sycl::nd_range<1>(N, WG), [=](sycl::nd_item<1> it) {
        int lid = it.get_local_id(0);
        part[lid] = ay[it.get_global_id(0)];
        for (int s = WG / 2; s > 0; s >>= 1) {
          it.barrier(sycl::access::fence_space::local_space);
          if (lid < s) part[lid] += part[lid + s];
        }
        if (lid == 0) ay[it.get_group(0)] = part[0];
      });
    });
  }
  q.submit([&](sycl::handler &h) {
    auto ax = bx.get_access<sycl::access::mode::write>(h);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
      ax[i] = i % 3 == 0 ? 0.0f : ax[i] * 0.5f;
    });
  });
  q.wait();
  return 0;
}
"""

PROGRAMS = {"kernels.cpp": KERNELS, "main.cpp": MAIN, "program.cpp": SYCL_PROGRAM, "main_program.cpp": MAIN_PROGRAM}


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Up to 3 children, for any two components however small; yields the pids of the children forked."""
    assert threading.active_count() == 1, "a thread is running: fanout would fork nothing"
    forked: list[int] = []
    fork = fanout._fork

    def counted(*arguments: Any) -> tuple[int, int]:
        read, pid = fork(*arguments)
        forked.append(pid)
        return read, pid

    monkeypatch.setattr(fanout, "_fork", counted)
    monkeypatch.setattr(code, "_SHARE_BYTES", 1)
    stopping.clear()
    try:
        yield forked
    finally:
        fanout.turn_on(0)
        stopping.clear()


def _kept(cache: reuse.ComponentCache) -> tuple[object, ...]:
    return tuple(cache._stored.items()), cache.hits, cache.misses


def _versions(path: str, versions: list[bytes], children: int, facts: bool = True) -> list[Any]:
    """Each version's facts (`facts`) and diagnostics analysed with the component cache the versions
    before it filled, then the cache's contents; components analysed at once in up to `children`."""
    fanout.turn_on(children)
    try:
        with component_cache() as cache:
            seen: list[Any] = []
            for text in versions:
                seen.append((frontend.extract(path, text) if facts else None, diagnostics(path, text)))
                seen.append(_kept(cache))
            return seen
    finally:
        fanout.turn_on(0)


def _host_statement(text: str) -> str:
    """`text` with a statement added in its host code: before the first launch's line (or in the middle)."""
    lines = text.split("\n")
    at = next((n for n, line in enumerate(lines) if "parallel_for" in line or ".submit(" in line), len(lines) // 2)
    return "\n".join([*lines[:at], "int kernlint_added = 1;", *lines[at:]])


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_each_corpus_file_analysed_at_once_as_one_after_another(forking: list[int], path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    versions = [text.encode(), _host_statement(text).encode()]
    assert _versions(path.name, versions, 3) == _versions(path.name, versions, 0)
    assert all(reaped(pid) for pid in forking)


def test_the_corpus_has_files_whose_components_fork(forking: list[int]) -> None:
    for path in CORPUS_FILES[::4]:
        _versions(path.name, [path.read_bytes()], 3, facts=False)
    assert len(forking) >= 10


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("children", [1, 3])
def test_programs_of_many_kernels_typed_into_as_one_after_another_and_as_fresh(
    forking: list[int], name: str, children: int
) -> None:
    text = PROGRAMS[name]
    typed = "int kernlint_n = f(a, 0);"
    host = _host_statement(text).split("\n").index("int kernlint_added = 1;")
    lines = text.split("\n")
    versions = [text.encode()] + [
        "\n".join([*lines[:host], typed[:k], *lines[host:]]).encode() for k in range(1, len(typed) + 1, 4)
    ]
    forked = _versions(name, versions, children)
    assert forked == _versions(name, versions, 0)
    assert forking and all(reaped(pid) for pid in forking)
    for n, version in enumerate(versions):
        with cache_off():
            assert forked[2 * n] == (frontend.extract(name, version), diagnostics(name, version))


def _failing_in_children(how: str) -> Any:
    """`_analyse_component` that fails in a forked child, as `how` says, and works in the parent."""
    analyse = code._analyse_component
    parent = os.getpid()

    def failing(*arguments: Any) -> Any:
        if os.getpid() != parent:
            if how == "exit":
                os._exit(1)
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RecursionError if how == "recursion" else ValueError("in a child")
        return analyse(*arguments)

    return failing


@pytest.mark.parametrize("how", ["exit", "kill", "recursion", "exception"])
def test_a_child_that_fails_changes_no_fact(forking: list[int], monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    versions = [KERNELS.encode(), _host_statement(KERNELS).encode(), MAIN.encode()]
    expected = _versions("k.cpp", versions, 0)
    monkeypatch.setattr(code, "_analyse_component", _failing_in_children(how))
    assert _versions("k.cpp", versions, 3) == expected
    assert forking and all(reaped(pid) for pid in forking)


def test_an_exception_of_a_component_is_the_one_analysing_in_order_raises(
    forking: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A component that raises everywhere: the error reported is the first component's in order (its
    message and traceback), wherever each component was analysed."""
    analyse = code._analyse_component

    def raising(unit: Any, graph: Any, keys: list[Any], *rest: Any) -> Any:
        code = b"\n".join(graph.roots[k].text for k in keys)
        for marker in (b"out[i] * by", b"c * width + r", b"% 64"):  # scale, transpose, histogram
            if marker in code:
                raise ValueError(f"component {marker!r}")
        return analyse(unit, graph, keys, *rest)

    monkeypatch.setattr(code, "_analyse_component", raising)
    versions = [KERNELS.encode(), _host_statement(KERNELS).encode()]
    expected = _versions("k.cpp", versions, 0, facts=False)
    message = expected[0][1][0].message
    assert message.startswith("internal error") and "component b'out[i] * by'" in message
    assert _versions("k.cpp", versions, 3, facts=False) == expected
    assert forking


def _slow_in_children(analyse: Any, folder: Path, in_parent: Any = None) -> Any:
    """`analyse`, which in a forked child first sleeps `RUN_ON_S` and then leaves a mark in `folder` that
    it ran on; in this process it calls `in_parent` first (a stop requested, as the server's signal does)."""
    parent = os.getpid()

    def analysed(*arguments: Any) -> Any:
        if os.getpid() != parent:
            time.sleep(RUN_ON_S)
            (folder / f"ran-on-{os.getpid()}").touch()
        elif in_parent is not None:
            in_parent()
        return analyse(*arguments)

    return analysed


@pytest.mark.parametrize("when", ["in its share", "while it waits"])
def test_a_stop_ends_every_child_and_the_next_analysis_is_right(
    forking: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, when: str
) -> None:
    """The server's stop comes while the parent analyses its own share, or later: once it has read the
    host side and waits for the children."""
    analyse = code._analyse_component
    parent = os.getpid()
    stopped = _slow_in_children(analyse, tmp_path, stopping.request if when == "in its share" else None)
    fanout.turn_on(3)
    previous = signal.signal(signal.SIGUSR1, lambda _signum, _frame: stopping.request())
    server = subprocess.Popen(["sh", "-c", f"sleep 1; kill -USR1 {parent}"]) if when == "while it waits" else None
    with component_cache() as cache:
        monkeypatch.setattr(code, "_analyse_component", stopped)
        try:
            with pytest.raises(stopping.Stopped):
                diagnostics("k.cpp", KERNELS.encode())
        finally:
            if server is not None:
                server.wait()
            signal.signal(signal.SIGUSR1, previous)
        assert len(forking) == 3 and all(reaped(pid) for pid in forking)
        assert not list(tmp_path.iterdir())  # no child ran on
        monkeypatch.setattr(code, "_analyse_component", analyse)
        stopping.clear()
        after = diagnostics("k.cpp", KERNELS.encode())
        kept = _kept(cache)
    fresh = _versions("k.cpp", [KERNELS.encode()], 0, facts=False)
    assert (None, after) == fresh[0] and kept[0] == fresh[1][0]  # (the stopped analysis counted a miss)


def test_the_time_limit_ends_every_child_and_the_next_analysis_is_right(
    forking: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    analyse = code._analyse_component
    slow_in_children = _slow_in_children(analyse, tmp_path)
    setup = dataclasses.replace(engine_setup(), timeout_s=1.0)
    fanout.turn_on(3)
    with component_cache():
        monkeypatch.setattr(code, "_analyse_component", slow_in_children)
        late = analyse_source(SourceEntry("k.cpp", "cpp", False), KERNELS.encode(), setup)
        assert "longer than the 1 s limit" in str(late.diagnostics)
        assert len(forking) == 3 and all(reaped(pid) for pid in forking)
        assert not list(tmp_path.iterdir())  # no child ran on
        monkeypatch.setattr(code, "_analyse_component", analyse)
        after = analyse_source(SourceEntry("k.cpp", "cpp", False), KERNELS.encode(), setup).diagnostics
    assert after == _versions("k.cpp", [KERNELS.encode()], 0, facts=False)[0][1]


def test_an_edit_in_one_kernel_forks_nothing(forking: list[int]) -> None:
    """Only the components the cache does not hold are shared out: one missed is analysed in turn."""
    edited = KERNELS.replace("out[c * width + r] = in[r * width + c];", "out[c * width + r] = in[r * width + c] + 1;")
    assert edited != KERNELS
    versions = [KERNELS.encode(), edited.encode()]
    forked = _versions("k.cpp", versions, 3, facts=False)
    assert len(forking) == 3  # the first version's
    assert forked[3][1:] == (3, 4 + 1)  # hits, misses: the edited version missed one component of 4
    assert forked == _versions("k.cpp", versions, 0, facts=False)


@pytest.mark.parametrize("children", [0, 3])
def test_what_every_component_reads_of_the_whole_file_is_read_once_by_the_parent(
    forking: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, children: int
) -> None:
    """The type definitions and the arm marks of the whole file: read once per analysis, before any
    child is forked (each component read them again: a whole-file query and two scans per kernel)."""
    from kernlint.frontends.cpp import types
    from kernlint.frontends.cpp.device import graph

    readers = tmp_path / "readers"

    def logged(function: Any, what: str) -> Any:
        def reading(*arguments: Any) -> Any:
            with readers.open("a") as log:
                log.write(f"{what} {os.getpid()}\n")
            return function(*arguments)

        return reading

    monkeypatch.setattr(types, "type_definitions", logged(types.type_definitions, "definitions"))
    monkeypatch.setattr(graph, "TextMarks", logged(graph.TextMarks, "marks"))
    text = KERNELS + _PAIRS
    half_typed = _host_statement(text).replace("int kernlint_added = 1;", "int kernlint_n = f(a")
    versions = [text.encode(), half_typed.encode()]
    _versions("k.cpp", versions, children, facts=False)
    assert len(forking) == (6 if children else 0)  # (both versions miss all five components)
    read = readers.read_text().split("\n")[:-1]
    assert {line.split()[1] for line in read} == {str(os.getpid())}  # never in a child
    assert read.count(f"marks {os.getpid()}") == len(versions)  # once a version, not once a component
    assert read.count(f"definitions {os.getpid()}") == len(versions)


# A kernel reading the members of a struct: its accesses need the struct's layout (the type definitions).
_PAIRS = """
struct Pair {
  float low;
  float high;
};

void spans(sycl::queue &q, const Pair *pairs, float *out, int n) {
  q.parallel_for(sycl::range<1>(ROWS), [=](sycl::id<1> i) {
    if (i < n) out[i] = pairs[i].high - pairs[i].low;
  });
}
"""


def test_a_whole_file_reading_that_fails_before_forking_fails_only_where_a_component_reads_it(
    forking: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the type definitions ahead, for every child, never raises where no component reads
    them (these kernels name no struct); where one does, it raises there, as one after another."""
    from kernlint.frontends.cpp import types

    def failing(*_arguments: Any) -> Any:
        raise ValueError("unreadable definitions")

    monkeypatch.setattr(types, "type_definitions", failing)
    half_typed = _host_statement(KERNELS).replace("int kernlint_added = 1;", "int kernlint_n = f(a")
    versions = [KERNELS.encode(), half_typed.encode()]
    assert _versions("k.cpp", versions, 3) == _versions("k.cpp", versions, 0)
    assert forking
    with pytest.raises(ValueError, match="unreadable definitions"):
        _versions("k.cpp", [(KERNELS + _PAIRS).encode()], 3)


def test_the_host_side_is_read_once_while_the_children_work_and_a_failure_of_it_is_met_after(
    forking: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The facts that read the launches but no kernel's (host flows among them) are read once per
    analysis, in the parent while its children analyse the kernels; should reading them fail there, it
    fails again after the kernels, where it did before."""
    half_typed = _host_statement(KERNELS).replace("int kernlint_added = 1;", "int kernlint_n = f(a")
    versions = [KERNELS.encode(), half_typed.encode()]
    expected = _versions("k.cpp", versions, 0)
    reads: list[tuple[int, int]] = []
    flows = frontend.host_flows

    def counted(*arguments: Any) -> Any:
        reads.append((os.getpid(), time.monotonic_ns()))
        return flows(*arguments)

    monkeypatch.setattr(frontend, "host_flows", counted)
    fanout.spreads.clear()
    assert _versions("k.cpp", versions, 3) == expected
    assert [pid for pid, _when in reads] == [os.getpid()] * (2 * len(versions))  # (extract, then diagnostics)
    assert forking and fanout.spreads
    for spread in fanout.spreads:  # each map that forked: the host side read while its children worked
        assert sum(spread.began <= when <= spread.collected for _pid, when in reads) == 1

    def failing(*_arguments: Any) -> Any:
        raise ValueError("unreadable host flows")

    monkeypatch.setattr(frontend, "host_flows", failing)
    for children in (0, 3):
        fanout.turn_on(children)
        with component_cache(), pytest.raises(ValueError, match="unreadable host flows"):
            frontend.extract("k.cpp", half_typed.encode())
