"""What the tests of kept facts between edits share: one engine setup, and the component cache turned on
for one test (SYCL and OpenMP keys alike live in it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kernlint.config import Config
from kernlint.engine import EngineSetup
from kernlint.frontends.cpp.device import reuse
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
