"""What the tests of kept facts between edits share: one engine setup, a file's diagnostics, the
component cache turned on for one test (SYCL and OpenMP keys alike live in it) or off for a fresh
analysis to compare with, the random edits of the property tests, and the OpenMP components an edit
invalidated solved at once in forked children."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kernlint import fanout
from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import EngineSetup, analyse_source
from kernlint.frontends.cpp.device import reuse
from kernlint.frontends.cpp.openmp import reuse as openmp_reuse
from kernlint.session import make_setup

_SETUP: list[EngineSetup] = []


def engine_setup() -> EngineSetup:
    """An uncached setup for two devices, made once per test process."""
    if not _SETUP:
        _SETUP.append(make_setup(Config(devices=("xe-hpc", "a100")), use_cache=False))
    return _SETUP[0]


@contextmanager
def component_cache() -> Iterator[reuse.ComponentCache]:
    """The component cache turned on, empty, for the block (each test's `cache` fixture)."""
    kept = reuse.ComponentCache()
    kept.scope = ("test",)
    reuse.turn_on(kept)
    try:
        yield kept
    finally:
        reuse.turn_on(None)


@contextmanager
def cache_off() -> Iterator[None]:
    """No component cache for the block (a fresh analysis), the one before turned on again after it."""
    kept = reuse.active()
    reuse.turn_on(None)
    try:
        yield
    finally:
        reuse.turn_on(kept)


@contextmanager
def openmp_forking(children: int = 3) -> Iterator[list[int]]:
    """The OpenMP components an edit invalidated solved in batches shared with up to `children` forked
    children, however small; yields the pids of the children forked (so a test sees that it forked)."""
    assert threading.active_count() == 1, "a thread is running: fanout would fork nothing"
    forked: list[int] = []
    fork, least = fanout._fork, openmp_reuse.SHARE_BYTES

    def counted(*arguments: Any) -> tuple[int, int]:
        read, pid = fork(*arguments)
        forked.append(pid)
        return read, pid

    fanout._fork, openmp_reuse.SHARE_BYTES = counted, 1  # type: ignore[assignment]
    fanout.turn_on(children)
    try:
        yield forked
    finally:
        fanout.turn_on(0)
        fanout._fork, openmp_reuse.SHARE_BYTES = fork, least


def diagnostics(path: str, text: bytes, setup: EngineSetup | None = None) -> tuple:
    """The diagnostics of a C/C++ file, with whatever cache is turned on."""
    return analyse_source(SourceEntry(path, "cpp", False), text, setup or engine_setup()).diagnostics


def randomly_edited(text: str, kind: str, where: int) -> str:
    """`text` after one random edit of `kind` at line `where` (modulo its lines): a comment added to a
    line (`comment`), a comment line (`note`), a statement (`statement`), a line deleted (`delete`) or
    repeated (`duplicate`), the first `1` and `64` of a line made `2` and `8` (`constant`), a blank line
    (anything else)."""
    lines = text.split("\n")
    at = where % len(lines)
    if kind == "comment":
        lines[at] += " // edited"
    elif kind == "note":
        lines.insert(at, "  // a note")
    elif kind == "statement":
        lines.insert(at, "int kernlint_edit = 1;")
    elif kind == "delete":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(at, lines[at])
    elif kind == "constant":
        lines[at] = lines[at].replace("1", "2", 1).replace("64", "8", 1)
    else:
        lines.insert(at, "")
    return "\n".join(lines)
