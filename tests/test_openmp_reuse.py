"""The per-component reuse of OpenMP facts (`kernlint.frontends.cpp.openmp.reuse`), which the language
server's worker turns on with the device-code cache: the facts of a file whose components are solved
apart, or reused from an earlier version, must be what the whole file's analysis gives, compared in
full, for any edit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS
from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.device import reuse
from kernlint.frontends.cpp.openmp import reuse as openmp_reuse
from reuse_support import cache_off, component_cache, diagnostics, openmp_forking, randomly_edited


@pytest.fixture
def cache() -> Iterator[reuse.ComponentCache]:
    with component_cache() as kept:
        yield kept


OPENMP_FILES = sorted(p for p in (CORPUS / "openmp").iterdir() if p.suffix in (".c", ".cpp", ".h", ".inc"))

# A HeCBench-like program: regions in `main` inside a `target data`, a helper two regions call, a
# `#define` in a clause, host constants the loops read, a region in a function of its own.
PROGRAM = """\
#include <stdio.h>
#define TL 64
#define N 4096

static const int rows = 64;

float scale(float v, int k) {
  if (k > 2) return v * 2.0f;
  return v;
}

void setw(int &w);
void peek(int w);
void fill(const int (&v)[2], int &w);

void own(float *a, int n) {
  #pragma omp target teams distribute parallel for thread_limit(TL)
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0) a[i] = 0.0f;
  }
}

int main() {
  float in[N], out[N], grid[N];
  int k = 3;
  int width = 32;
  #pragma omp target data map(to: in[0:N]) map(from: out[0:N], grid[0:N])
  {
    #pragma omp target teams distribute parallel for thread_limit(TL)
    for (int i = 0; i < N; i++) {
      if (i % 2) out[i] = scale(in[i], k);
      else out[i] = in[i];
    }
    // between the launches
    #pragma omp target update from(out[0:N])
    #pragma omp target teams distribute parallel for thread_limit(TL)
    for (int i = 0; i < N; i++) {
      grid[(i % width) * rows + i / width] = scale(in[i], 1);
    }
    #pragma omp target teams distribute parallel for collapse(2)
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < width; c++) {
        if (c < r) grid[r * width + c] = in[c * rows + r];
        peek(width);
      }
    }
  }
  printf("%f\\n", out[0] + grid[0]);
  return 0;
}
"""


def _facts(path: str, text: bytes) -> object:
    return frontend.extract(path, text)


def _fresh_facts(path: str, text: bytes) -> object:
    with cache_off():
        return _facts(path, text)


def _fresh_diagnostics(path: str, text: bytes) -> tuple:
    with cache_off():
        return diagnostics(path, text)


def _edited(cache: reuse.ComponentCache, before: str, after: str, path: str = "m.cpp") -> tuple[int, int]:
    """Analyse `before` (filling the cache), then `after` with it: its facts and diagnostics must be a
    fresh analysis's. Returns the components reused and solved again for `after`'s facts."""
    assert before != after
    _facts(path, before.encode())
    hits, misses = cache.hits, cache.misses
    assert _facts(path, after.encode()) == _fresh_facts(path, after.encode())
    counted = (cache.hits - hits, cache.misses - misses)
    assert diagnostics(path, after.encode()) == _fresh_diagnostics(path, after.encode())
    return counted


def test_program_has_openmp_findings_to_compare() -> None:
    codes = {d.code for d in _fresh_diagnostics("m.cpp", PROGRAM.encode())}
    assert {"KL501", "KL601"} <= codes
    facts = _fresh_facts("m.cpp", PROGRAM.encode())
    assert facts.branches and facts.memory_accesses  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", OPENMP_FILES, ids=lambda p: p.name)
def test_components_solved_apart_give_the_facts_of_the_whole_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openmp_reuse, "SOLVED_TOGETHER", False)
    data = path.read_bytes()
    whole = _fresh_facts(str(path), data)
    kept = reuse.ComponentCache()
    reuse.turn_on(kept)
    try:
        assert _facts(str(path), data) == whole  # solved apart
        assert _facts(str(path), data) == whole  # reused
    finally:
        reuse.turn_on(None)


def test_the_program_is_solved_apart_and_reused(cache: reuse.ComponentCache) -> None:
    assert _facts("m.cpp", PROGRAM.encode()) == _fresh_facts("m.cpp", PROGRAM.encode())
    assert (cache.hits, cache.misses) == (0, 3)  # `own`'s region; the two calling `scale`; the collapsed one
    _facts("m.cpp", PROGRAM.encode())
    assert (cache.hits, cache.misses) == (3, 3)


def _replace(old: str, new: str, count: int = 1) -> str:
    assert old in PROGRAM
    return PROGRAM.replace(old, new, count)


def test_an_edit_inside_a_region_solves_only_its_component(cache: reuse.ComponentCache) -> None:
    after = _replace("if (c < r) grid", "if (c <= r + 1) grid")
    assert _edited(cache, PROGRAM, after) == (2, 1)


def test_a_statement_typed_inside_a_region_solves_only_its_component(cache: reuse.ComponentCache) -> None:
    after = _replace("      for (int c = 0;", "      int kernlint_edit = 1;\n      for (int c = 0;")
    assert _edited(cache, PROGRAM, after) == (2, 1)


def test_an_edit_in_a_function_two_regions_call_solves_them_again(cache: reuse.ComponentCache) -> None:
    after = _replace("if (k > 2) return v * 2.0f;", "if (k > 2) return v * 3.0f;")
    _hits, misses = _edited(cache, PROGRAM, after)
    assert misses >= 1


def test_a_comment_in_host_code_reuses_every_component(cache: reuse.ComponentCache) -> None:
    after = _replace("  int k = 3;\n", "  // the factor\n  int k = 3;\n")
    assert _edited(cache, PROGRAM, after) == (3, 0)


def test_a_statement_no_region_reads_typed_above_them_reuses_them(cache: reuse.ComponentCache) -> None:
    after = _replace("  int width = 32;\n", "  int width = 32;\n  int kernlint_edit = 1;\n")
    assert _edited(cache, PROGRAM, after) == (3, 0)


@pytest.mark.parametrize(
    "directive", ["map(from: out[0:N], grid[0:N])\n", "parallel for collapse(2)\n", "thread_limit(TL)\n"]
)
def test_a_statement_typed_between_a_directive_and_its_code_gives_the_fresh_analysis(
    cache: reuse.ComponentCache, directive: str
) -> None:
    """The statement becomes what the directive applies to, though no name leads to it."""
    _edited(cache, PROGRAM, _replace(directive, directive + "  int kernlint_edit = 1;\n"))


def test_host_code_after_every_region_reuses_them(cache: reuse.ComponentCache) -> None:
    after = _replace("  return 0;", "  int kernlint_edit = 1;\n  return 0;")
    assert _edited(cache, PROGRAM, after) == (3, 0)


# Edits whose facts differ: each must give a fresh analysis's (checked in `_edited`).
_EDITS: dict[str, tuple[str, str]] = {
    "target data around the regions": ("map(to: in[0:N])", "map(tofrom: in[0:N])"),
    "a #define a clause reads": ("#define TL 64", "#define TL 1"),
    "a #define a loop bound reads": ("#define N 4096", "#define N 48"),
    "a host constant a loop bound reads": ("static const int rows = 64;", "static const int rows = 3;"),
    "a host value a subscript reads": ("int width = 32;", "int width = 1;"),
    "a later write of a value a region reads": ('  printf("', '  width = 2;\n  printf("'),
    "a later write through a reference": ('  printf("', '  int &alias = width;\n  alias = 2;\n  printf("'),
    "a call in another region passing a value by reference": (
        "if (c < r) grid",
        "setw(width);\n        if (c < r) grid",
    ),
    "a second definition of the called function after main": (
        "  return 0;\n}\n",
        "  return 0;\n}\nfloat scale(float v) { return v; }\n",
    ),
    "a call with a braced argument in another region": ("peek(width);", "fill({1, 2}, width);"),
    "a definition after main taking a reference": (
        "  return 0;\n}\n",
        "  return 0;\n}\nvoid peek(int &w) { w = 1; }\n",
    ),
    "a write in another region of a value a region reads": ("if (c < r) grid", "width = 2;\n        if (c < r) grid"),
    "a write typed above the regions of a value a region reads": (
        "  int width = 32;\n",
        "  int width = 32;\n  width = 8;\n",
    ),
    "a clause on a region": ("collapse(2)", "collapse(1)"),
    "a second definition of the called function": ("int main() {", "float scale(float v) { return v; }\nint main() {"),
    "a comment inside a region": ("if (i % 2) out", "if (i % 2 /* odd */) out"),
    "a directive between the regions": ("#pragma omp target update from(out[0:N])", "#pragma omp barrier"),
    "one lane": (
        "thread_limit(TL)\n    for (int i = 0; i < N; i++) {\n      grid",
        "thread_limit(1)\n    for (int i = 0; i < N; i++) {\n      grid",
    ),
}


@pytest.mark.parametrize("name", sorted(_EDITS))
def test_each_edit_gives_the_fresh_analysis(cache: reuse.ComponentCache, name: str) -> None:
    old, new = _EDITS[name]
    _edited(cache, PROGRAM, _replace(old, new))


def test_a_function_defined_after_main_that_writes_through_a_reference_is_a_new_analysis(
    cache: reuse.ComponentCache,
) -> None:
    """`peek(width)` in the collapsed region, with no declaration before: the definition after
    `main` makes `width` written, which the second region's subscripts read; only the call's piece
    spells `peek` for that region's key."""
    before = _replace("void peek(int w);\n", "")
    defined = "void peek(int &into) { into = 1; }\nvoid peek(float unused) {}\n"  # two: not followed
    after = before.replace("  return 0;\n}\n", "  return 0;\n}\n" + defined)
    assert _fresh_facts("m.cpp", after.encode()) != _fresh_facts("m.cpp", before.encode())
    _edited(cache, before, after)


def test_edits_that_change_what_regions_read_change_the_facts() -> None:
    """Otherwise the comparisons above would test little."""
    before = _fresh_facts("m.cpp", PROGRAM.encode())
    for name in (
        "a #define a clause reads",
        "a host value a subscript reads",
        "a later write of a value a region reads",
        "a write typed above the regions of a value a region reads",
    ):
        old, new = _EDITS[name]
        assert _fresh_facts("m.cpp", _replace(old, new).encode()) != before, name


_KINDS = st.sampled_from(["comment", "note", "statement", "delete", "duplicate", "blank", "constant"])


_SOURCES = [p for p in OPENMP_FILES if p.suffix in (".c", ".cpp") and p.stat().st_size < 12_000]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from([None, *_SOURCES]),
    st.lists(st.tuples(_KINDS, st.integers(0, 10_000)), min_size=1, max_size=4),
)
def test_random_edits_give_the_facts_of_a_fresh_analysis(
    cache: reuse.ComponentCache, path: Path | None, edits: list[tuple[str, int]]
) -> None:
    _edited_randomly(path, edits)


def _edited_randomly(path: Path | None, edits: list[tuple[str, int]]) -> None:
    name, text = ("m.cpp", PROGRAM) if path is None else (str(path), path.read_text())
    _facts(name, text.encode())
    for kind, where in edits:  # each version analysed with the cache the versions before it filled
        text = randomly_edited(text, kind, where)
        assert _facts(name, text.encode()) == _fresh_facts(name, text.encode())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from([None, *_SOURCES]),
    st.lists(st.tuples(_KINDS, st.integers(0, 10_000)), min_size=1, max_size=4),
)
def test_random_edits_give_the_facts_of_a_fresh_analysis_with_components_solved_at_once(
    cache: reuse.ComponentCache, path: Path | None, edits: list[tuple[str, int]]
) -> None:
    """The components an edit invalidated solved in batches, shared with up to 3 forked children."""
    with openmp_forking():
        _edited_randomly(path, edits)


def _analysed_in_turn(name: str, versions: list[bytes], children: int) -> tuple[list[object], int]:
    """Each version's facts and diagnostics, then the cache's entries, hits and misses, with the
    components solved in batches shared with up to `children` forked children; and the children forked."""
    with component_cache() as kept, openmp_forking(children) as forked:
        seen: list[object] = []
        for text in versions:  # (the cache after the facts: their lookups and stores, in order)
            seen += [_facts(name, text), (tuple(kept._stored.items()), kept.hits, kept.misses)]
            seen.append(diagnostics(name, text))
    return seen, len(forked)


@pytest.mark.parametrize("children", [1, 3])
@pytest.mark.parametrize("path", [None, *_SOURCES], ids=lambda p: "PROGRAM" if p is None else p.name)
def test_components_solved_at_once_give_what_solving_them_in_turn_gives(path: Path | None, children: int) -> None:
    """The file, then with a statement typed above its regions, the same half typed (a syntax error:
    every component solved, none looked up or stored), then a `#define` (which every later
    component's key holds) there and in its middle: facts, diagnostics and the cache (what it holds,
    in order, its hits and misses) as with no child (with one child, the batches come in another
    order than the components more often)."""
    name, text = ("m.cpp", PROGRAM) if path is None else (str(path), path.read_text())
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if "#pragma omp" in line), len(lines) // 2)
    typed = [
        "\n".join([*lines[:at], statement, *lines[at:]])
        for statement, at in (
            ("int kernlint_n = 1;", first),
            ("int kernlint_n = f(", first),
            ("#define KERNLINT_N 1", first),
            ("#define KERNLINT_N 1", len(lines) // 2),
        )
    ]
    versions = [version.encode() for version in (text, *typed)]
    alone, at_once = _analysed_in_turn(name, versions, 0), _analysed_in_turn(name, versions, children)
    assert alone[0] == at_once[0]
    assert not alone[1]
    if path is None:
        assert at_once[1] >= 4  # (the file's analysis, the half-typed statement, the two `#define`s)
