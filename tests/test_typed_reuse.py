"""A statement typed one character at a time, as the language server's worker sees it: every prefix
is a version of the document, and most have a syntax error until the statement is complete. With the
worker's caches on (the component cache and the tree cache), each version's facts and diagnostics
must be a fresh analysis's, compared in full: in host code, in a SYCL kernel, in an OpenMP region,
over corpus files and HeCBench-like programs, and for the edits whose error recovery reaches
furthest (an unclosed brace, comment or string, a `#if` whose arms stop parsing together)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.frontends.common import reparse
from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.device import reuse
from reuse_support import cache_off, component_cache, diagnostics, openmp_forking
from test_device_reuse import MAIN_PROGRAM
from test_device_reuse import PROGRAM as SYCL_PROGRAM
from test_openmp_kept import PROGRAM as KEPT_PROGRAM
from test_openmp_reuse import PROGRAM as OPENMP_PROGRAM

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture
def cache() -> Iterator[reuse.ComponentCache]:
    """The worker's caches: kept components and each document's last tree."""
    with component_cache() as kept:
        reparse.turn_on(reparse.TreeCache())
        try:
            yield kept
        finally:
            reparse.turn_on(None)


def _fresh(path: str, text: bytes) -> tuple[object, tuple]:
    """Facts and diagnostics with no cache at all (the command line's analysis)."""
    trees = reparse.active()
    reparse.turn_on(None)
    try:
        with cache_off():
            return frontend.extract(path, text), diagnostics(path, text)
    finally:
        reparse.turn_on(trees)


def _cached(path: str, text: bytes) -> tuple[object, tuple]:
    return frontend.extract(path, text), diagnostics(path, text)


def _typed(cache: reuse.ComponentCache, path: str, text: str, at: int, statement: str) -> int:
    """Type `statement` a character at a time on a new line before line `at` (from 0) of `text`, each
    version analysed with the caches the versions before it filled and compared with a fresh
    analysis; returns the components reused."""
    lines = text.split("\n")
    at %= len(lines)
    _cached(path, text.encode())
    hits = cache.hits
    for end in range(1, len(statement) + 1):
        version = "\n".join([*lines[:at], statement[:end], *lines[at:]]).encode()
        assert _cached(path, version) == _fresh(path, version), version.decode()
    return cache.hits - hits


def _line_of(text: str, needle: str) -> int:
    """The line (from 0) of the first line of `text` holding `needle`."""
    return next(k for k, line in enumerate(text.split("\n")) if needle in line)


# (program, name, a line of it to type before) — host code, a SYCL kernel, an OpenMP region.
_PLACES = {
    "sycl host above the launches": (MAIN_PROGRAM, "main.cpp", "int width = 64;"),
    "sycl host between the launches": (MAIN_PROGRAM, "main.cpp", "q.parallel_for(sycl::range<1>(N)"),
    "sycl host after the launches": (MAIN_PROGRAM, "main.cpp", "q.wait();"),
    "sycl kernel": (MAIN_PROGRAM, "main.cpp", "a[i] = scale(a[i], lid);"),
    "sycl helper": (SYCL_PROGRAM, "k.cpp", "return v;"),
    "sycl kernel of a function": (SYCL_PROGRAM, "k.cpp", "b[i] = scale(b[i], lid);"),
    "openmp host above the regions": (OPENMP_PROGRAM, "m.cpp", "int width = 32;"),
    "openmp region": (OPENMP_PROGRAM, "m.cpp", "grid[(i % width) * rows + i / width]"),
    "openmp host between the regions": (OPENMP_PROGRAM, "m.cpp", "// between the launches"),
    "openmp parallel block": (KEPT_PROGRAM, "m.cpp", "tile[tx] = in[omp_get_team_num()"),
    "openmp host after the regions": (KEPT_PROGRAM, "m.cpp", 'printf("%f'),
}
# A helper whose head is in a `#if` group with a brace opened in both arms: its tree has an error, and
# the file is read one arm at a time (`CppUnit._parse_split_groups`), error or not in what is typed.
_SPLIT_PROGRAM = MAIN_PROGRAM.replace(
    "float scale(float v, int lid) {\n",
    "#ifdef KERNLINT_WIDE\nfloat scale(float v, int lid, int wide) {\n#else\nfloat scale(float v, int lid) {\n#endif\n",
)
_PLACES["split group, host"] = (_SPLIT_PROGRAM, "main.cpp", "int width = 64;")
_PLACES["split group, helper"] = (_SPLIT_PROGRAM, "main.cpp", "return lid % 2 == 0")
_PLACES["split group, kernel"] = (_SPLIT_PROGRAM, "main.cpp", "a[i] = scale(a[i], lid);")

# What a user types: a declaration of fresh names, one naming what the code reads, a call, a branch,
# and the ones whose prefixes leave the most open: a brace, a comment, a string.
_STATEMENTS = (
    "int kernlint_n = f(a, 1);",
    "width = scale(width, 2) + k;",
    'printf("%d\\n", width);',
    "if (k > 1) { out[0] = 1.0f; }",
    "for (int j = 0; j < 4; j++) {",
    "/* width = 2; */",
    'const char *s = "{ width";',
    "#if 0",
)


@pytest.mark.parametrize("statement", _STATEMENTS)
@pytest.mark.parametrize("place", sorted(_PLACES))
def test_each_prefix_of_a_typed_statement_gives_the_fresh_analysis(
    cache: reuse.ComponentCache, place: str, statement: str
) -> None:
    program, path, needle = _PLACES[place]
    _typed(cache, path, program, _line_of(program, needle), statement)


_OPENMP_PLACES = sorted(place for place in _PLACES if place.startswith("openmp"))


@pytest.mark.parametrize("statement", _STATEMENTS)
@pytest.mark.parametrize("place", _OPENMP_PLACES)
def test_each_prefix_typed_in_openmp_code_gives_the_fresh_analysis_with_components_solved_at_once(
    cache: reuse.ComponentCache, place: str, statement: str
) -> None:
    """The OpenMP places again, the components each clean version invalidated solved in forked children."""
    program, path, needle = _PLACES[place]
    _cached(path, program.encode())  # (its components solved, one after another)
    with openmp_forking() as forked:
        _typed(cache, path, program, _line_of(program, needle), statement)
    if statement == _STATEMENTS[0]:  # (a clean version of it invalidates two components or more everywhere)
        assert forked


def test_typing_in_one_kernel_reuses_the_others(cache: reuse.ComponentCache) -> None:
    """A statement typed in the third kernel: the first two components are kept for every version,
    syntax error or not (the tests above check that what is kept is what a fresh analysis gives)."""
    statement = "int kernlint_n = f(a, 1);"
    reused = _typed(cache, "k.cpp", SYCL_PROGRAM, _line_of(SYCL_PROGRAM, "c[i] = 0.0f;"), statement)
    assert reused >= 2 * len(statement)


_SYCL = sorted(p for p in (CORPUS / "sycl").glob("*.cpp") if p.stat().st_size < 6_000)
_OPENMP = sorted(p for p in (CORPUS / "openmp").glob("*.cpp") if p.stat().st_size < 6_000)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from([None, *_SYCL, *_OPENMP]),
    st.integers(0, 10_000),
    st.sampled_from(_STATEMENTS),
)
def test_statements_typed_anywhere_give_the_fresh_analysis(
    cache: reuse.ComponentCache, path: Path | None, at: int, statement: str
) -> None:
    name, text = ("main.cpp", MAIN_PROGRAM) if path is None else (str(path), path.read_text())
    _typed(cache, name, text, at, statement)


def test_a_finished_statement_of_its_own_names_reuses_every_kernel_its_typed_versions_missed() -> None:
    """The versions with a syntax error miss every kernel (the half-typed statement is in the host text
    of the keys) and are not stored: with room for one version's components only, the finished
    statement, which no kernel reads, still finds the components of the text before it (every version
    but the last has an error)."""
    kept = reuse.ComponentCache(entries=3)
    kept.scope = ("test",)
    reuse.turn_on(kept)
    reparse.turn_on(reparse.TreeCache())
    try:
        statement = "  long kernlint_n = kernlint_f(2, 1);"
        at = _line_of(MAIN_PROGRAM, "int width = 64;")
        lines = MAIN_PROGRAM.split("\n")
        _cached("main.cpp", MAIN_PROGRAM.encode())
        for end in range(statement.index("k") + 1, len(statement) + 1):  # ("  long" parses: `long int width`)
            version = "\n".join([*lines[:at], statement[:end], *lines[at:]]).encode()
            hits, misses = kept.hits, kept.misses
            assert _cached("main.cpp", version) == _fresh("main.cpp", version)
        assert (kept.hits - hits, kept.misses - misses) == (6, 0)  # (facts, then diagnostics: 3 kernels each)
        assert kept.misses >= 3 * len(statement)  # (each version with an error missed them)
    finally:
        reparse.turn_on(None)
        reuse.turn_on(None)
