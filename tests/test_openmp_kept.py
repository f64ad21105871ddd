"""The OpenMP constructs kept between edits with their component's solved facts
(`kernlint.frontends.cpp.openmp.kept`): each edit's facts must be a fresh analysis's, compared in
full (every construct, every loop and condition around it, every solved fact), and the constructs an
edit leaves alone must be kept, not built again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.device import reuse
from kernlint.frontends.cpp.openmp import kept
from reuse_support import cache_off, component_cache, randomly_edited
from test_openmp_reuse import _KINDS  # (random edits: a comment, a note, a statement, a line deleted …)

# As HeCBench writes its kernels: a `target teams` block in a host loop that repeats it, holding a
# team's arrays and a `parallel` block with barriers and loops; a second kernel sharing nothing.
PROGRAM = """\
#include <stdio.h>
#define W 16
#define N 1024

int main() {
  float in[N], out[N];
  int repeat = 10;
  #pragma omp target data map(to: in[0:N]) map(from: out[0:N])
  {
  for (int r = 0; r < repeat; r++) {
    #pragma omp target teams num_teams(N/W) thread_limit(W)
    {
      float tile[W];
      #pragma omp parallel
      {
        int tx = omp_get_thread_num();
        tile[tx] = in[omp_get_team_num() * W + tx];
        #pragma omp barrier
        for (int s = 1; s < W; s *= 2) {
          if (tx % (2 * s) == 0) tile[tx] += tile[tx + s];
          #pragma omp barrier
        }
        if (tx == 0) out[omp_get_team_num()] = tile[0];
      }
    }
  }
  #pragma omp target update from(out[0:N])
  #pragma omp target teams distribute parallel for thread_limit(W)
  for (int i = 0; i < N; i++) {
    #pragma omp simd
    for (int j = 0; j < 4; j++)
      if (i % 3) out[i] += in[i + j] * 2.0f;
  }
  }
  printf("%f\\n", out[0]);
  return 0;
}
"""


@pytest.fixture
def cache() -> Iterator[reuse.ComponentCache]:
    with component_cache() as kept_facts:
        yield kept_facts


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the constructs built (not kept), for the analyses of the test."""
    found: list[str] = []
    construct = kept._KeepingBuilder.construct

    def counted(self: kept._KeepingBuilder, item: object) -> object:
        found.append(getattr(item.directive, "kind", "?"))  # type: ignore[attr-defined]
        return construct(self, item)  # type: ignore[arg-type]

    monkeypatch.setattr(kept._KeepingBuilder, "construct", counted)
    return found


def _facts(text: str) -> object:
    return frontend.extract("k.cpp", text.encode())


def _fresh(text: str) -> object:
    with cache_off():
        return _facts(text)


def _edited(before: str, after: str, built: list[str]) -> list[str]:
    """`after` analysed with what `before` left: its facts must be a fresh analysis's. Returns the
    kinds of the constructs built for it."""
    assert before != after
    _facts(before)
    built.clear()
    assert _facts(after) == _fresh(after)
    return list(built)


def _replace(old: str, new: str) -> str:
    assert old in PROGRAM
    return PROGRAM.replace(old, new, 1)


def test_the_program_keeps_constructs_between_edits(cache: reuse.ComponentCache, built: list[str]) -> None:
    assert _facts(PROGRAM) == _fresh(PROGRAM)
    first = list(built)
    assert first.count("barrier") == 2
    built.clear()
    assert _facts(PROGRAM) == _fresh(PROGRAM)
    assert not {"barrier", "parallel", "simd"} & set(built)  # kept
    assert {"target data", "target teams", "target update"} <= set(built)  # read more than their code: built


def test_a_statement_above_the_kernels_keeps_their_constructs(cache: reuse.ComponentCache, built: list[str]) -> None:
    after = _replace("  int repeat = 10;\n", "  int repeat = 10;\n  int kernlint_edit = 1;\n")
    assert not {"barrier", "parallel", "simd"} & set(_edited(PROGRAM, after, built))


def test_a_statement_in_a_kernel_builds_its_constructs_only(cache: reuse.ComponentCache, built: list[str]) -> None:
    after = _replace(
        "        int tx = omp_get_thread_num();\n", "        int tx = omp_get_thread_num();\n        int e = 1;\n"
    )
    kinds = _edited(PROGRAM, after, built)
    assert kinds.count("barrier") == 2 and "simd" not in kinds


# Each moves or changes what a kept construct holds without changing its component's key: a kept
# construct must move with its code, take its lines from its own directive, and read the loops and
# conditions around it anew.
_EDITS: dict[str, tuple[str, str]] = {
    "a comment line above every kernel (every line moves)": (
        "  int repeat = 10;\n",
        "  // repeat\n  int repeat = 10;\n",
    ),
    "a comment line between a directive and its block": (
        "      #pragma omp parallel\n",
        "      #pragma omp parallel\n      // the threads of a team\n",
    ),
    "a statement after the kernel in the loop around it (the loop ends later)": (
        "    }\n  }\n  #pragma omp target update",
        "    }\n    int kernlint_edit = 1;\n  }\n  #pragma omp target update",
    ),
    "the loop around the kernel": ("r < repeat; r++", "r < repeat; r += 2"),
    "a condition around the kernel": (
        "    #pragma omp target teams num_teams",
        "    if (repeat > 1)\n    #pragma omp target teams num_teams",
    ),
    "a clause of the kernel": ("thread_limit(W)\n    {", "thread_limit(8)\n    {"),
    "the constant a loop in the kernel reads": ("#define W 16", "#define W 32"),
    "the other kernel": ("if (i % 3)", "if (i % 5)"),
    "the other kernel's inner loop": ("j < 4", "j < 8"),
    "a directive's line continued": (
        "#pragma omp target update from(out[0:N])",
        "#pragma omp target update \\\n  from(out[0:N])",
    ),
}


@pytest.mark.parametrize("name", sorted(_EDITS))
def test_each_edit_gives_the_fresh_analysis(cache: reuse.ComponentCache, built: list[str], name: str) -> None:
    old, new = _EDITS[name]
    _edited(PROGRAM, _replace(old, new), built)


def test_an_array_another_kernel_declares_is_read_anew(cache: reuse.ComponentCache, built: list[str]) -> None:
    """A `target` construct's implicit maps leave out the arrays any target region declares: an
    array declared in another kernel's code changes them, though nothing its own component reads."""
    before = _replace("    #pragma omp simd\n", "    out[i] += tile2[i % W];\n    #pragma omp simd\n").replace(
        "  float in[N], out[N];", "  float in[N], out[N], tile2[W];"
    )
    after = before.replace(
        "        int tx = omp_get_thread_num();\n", "        int tx = omp_get_thread_num();\n        float tile2[W];\n"
    )
    assert _fresh(after) != _fresh(before)
    _edited(before, after, built)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(_KINDS, st.integers(0, 10_000)), min_size=1, max_size=4))
def test_random_edits_give_the_facts_of_a_fresh_analysis(
    cache: reuse.ComponentCache, edits: list[tuple[str, int]]
) -> None:
    text = PROGRAM
    _facts(text)
    for kind, where in edits:
        text = randomly_edited(text, kind, where)
        assert _facts(text) == _fresh(text)
