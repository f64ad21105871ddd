"""The component cache of device-code facts (`kernlint.frontends.cpp.device.reuse`), which the language
server's worker turns on: an analysis that reuses the facts of unchanged kernels must give what an
analysis from scratch gives, diagnostics compared in full, for any edit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.config import Config
from kernlint.engine import EngineSetup
from kernlint.facts import Span
from kernlint.frontends.cpp.device import reuse
from kernlint.session import make_setup
from reuse_support import cache_off, component_cache, diagnostics, randomly_edited


@pytest.fixture
def cache() -> Iterator[reuse.ComponentCache]:
    with component_cache() as kept:
        yield kept


CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "sycl"


_analyse = diagnostics


def _fresh(path: str, text: bytes) -> tuple:
    with cache_off():
        return diagnostics(path, text)


def _edited(cache: reuse.ComponentCache, before: str, after: str, path: str = "k.cpp") -> tuple[int, int]:
    """Analyse `before` (filling the cache), then `after` with it: the result must be a fresh
    analysis's. Returns the components reused and analysed again for `after`."""
    _analyse(path, before.encode())
    hits, misses = cache.hits, cache.misses
    reused = _analyse(path, after.encode())
    assert reused == _fresh(path, after.encode())
    return cache.hits - hits, cache.misses - misses


PROGRAM = """\
#include <sycl/sycl.hpp>
#define TILE 16
constexpr int N = 1024;

float scale(float v, int lid) {
  if (lid % 2 == 0) {
    return v * 2.0f;
  }
  return v;
}

void first(sycl::queue &q, float *a, float *b) {
  q.parallel_for(sycl::nd_range<1>(N, TILE), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    int lid = it.get_local_id(0);
    if (lid < 4) {
      a[i] = b[i * 2] + 1.0f;
    }
    a[i] = scale(a[i], lid);
  });
}

void second(sycl::queue &q, float *a, float *b) {
  q.parallel_for(sycl::nd_range<1>(N, TILE), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    int lid = it.get_local_id(0);
    b[i] = scale(b[i], lid);
  });
}

void third(sycl::queue &q, float *c) {
  q.parallel_for(sycl::nd_range<1>(N, TILE), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    int lid = it.get_local_id(0);
    for (int k = 0; k < lid; k++) {
      c[i * TILE + k] += 1.0f;
    }
    if (i % 3 == 1) {
      c[i] = 0.0f;
    }
  });
}
"""


def test_program_has_findings_to_compare() -> None:
    codes = {d.code for d in _fresh("k.cpp", PROGRAM.encode())}
    assert "KL501" in codes  # the divergent branches the cases below move and change


def test_an_unchanged_document_reuses_every_component(cache: reuse.ComponentCache) -> None:
    assert _edited(cache, PROGRAM, PROGRAM) == (2, 0)  # {first, second, scale} and {third}


def test_an_edit_in_one_kernel_reanalyses_only_its_component(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("c[i] = 0.0f;", "c[i] = 0.0f;\n      c[i + 1] = 2.0f;")
    assert _edited(cache, PROGRAM, after) == (1, 1)


def test_an_edit_in_a_shared_helper_reanalyses_both_kernels(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("if (lid % 2 == 0) {", "if (lid % 4 == 0) {")
    assert _edited(cache, PROGRAM, after) == (1, 1)


def test_lines_added_above_a_kernel_move_its_findings(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("if (lid < 4) {", "// two\n    // more lines\n    if (lid < 4) {")
    hits, misses = _edited(cache, PROGRAM, after)
    assert (hits, misses) == (1, 1)  # `third`, below the edit, reused and moved down two lines
    moved = [d.line for d in _fresh("k.cpp", after.encode()) if d.code == "KL501"]
    assert max(moved) > max(d.line for d in _fresh("k.cpp", PROGRAM.encode()) if d.code == "KL501")


def test_a_changed_define_a_kernel_reads_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("#define TILE 16", "#define TILE 32")
    assert _edited(cache, PROGRAM, after)[0] == 0


def test_a_define_inside_another_kernel_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("b[i] = scale(b[i], lid);", "b[i] = scale(b[i], lid);\n#define STEP 2")
    assert _edited(cache, PROGRAM, after)[0] == 0


def test_a_changed_launch_size_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    third = PROGRAM.index("void third")
    after = PROGRAM[:third] + PROGRAM[third:].replace("nd_range<1>(N, TILE)", "nd_range<1>(N, 8)", 1)
    assert after != PROGRAM
    assert _edited(cache, PROGRAM, after) == (0, 2)  # host code that names what kernels read: all again


def test_a_statement_of_its_own_names_after_every_kernel_reuses_them(cache: reuse.ComponentCache) -> None:
    after = PROGRAM.replace("  });\n}\n", "  });\n  int kernlint_later = 1;\n}\n")
    assert after.count("kernlint_later") == 3
    assert _edited(cache, PROGRAM, after) == (2, 0)


def test_new_host_code_after_every_kernel_is_read_again(cache: reuse.ComponentCache) -> None:
    """A function is more than statements: the host text is part of every key, wherever it lies."""
    assert _edited(cache, PROGRAM, PROGRAM + "\nvoid later(float *p) { p[0] = 1.0f; }\n") == (0, 2)


def test_a_global_assigned_after_a_kernel_that_reads_it_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    before = PROGRAM.replace("constexpr int N = 1024;", "constexpr int N = 1024;\nint width = 64;").replace(
        "c[i] = 0.0f;", "c[i * width] = 0.0f;"
    )
    after = before + "\nvoid later() { width = 1; }\n"  # no longer a constant: the stride is unknown
    assert _fresh("k.cpp", before.encode()) != _fresh("k.cpp", after.encode())
    assert _edited(cache, before, after) == (0, 2)  # `third` reads `width`: analysed again (and the rest)


def test_another_configuration_is_another_scope(cache: reuse.ComponentCache) -> None:
    _analyse("k.cpp", PROGRAM.encode())
    cache.scope = ("other",)
    hits = cache.hits
    _analyse("k.cpp", PROGRAM.encode())
    assert cache.hits == hits


def test_a_span_moves_with_its_region_and_one_outside_refuses() -> None:
    moves = reuse.Moves(((100, 200, 9, 130, 12),))
    inside = Span(110, 120, 11, 4, 11, 14)
    assert moves.span(inside) == Span(140, 150, 14, 4, 14, 14)
    with pytest.raises(reuse.NotMovable):
        moves.span(Span(90, 120, 9, 0, 11, 14))
    with pytest.raises(reuse.NotMovable):
        moves.value(({1: inside},))  # a value the mover does not know


def test_moved_facts_are_kept_where_they_moved_to() -> None:
    cache = reuse.ComponentCache()
    fact = (Span(20, 30, 2, 0, 2, 10),)
    cache.put("key", ((0, 40, 0),), fact)
    moved = cache.get("key", ((5, 45, 1),))
    assert moved == (Span(25, 35, 3, 0, 3, 10),)
    assert cache.get("key", ((5, 45, 1),)) is moved  # kept there: not moved again
    assert cache.get("key", ((0, 40, 0),)) == fact  # and from there back
    assert cache.get("key", ((9, 49, 4),)) == (Span(29, 39, 6, 0, 6, 10),)


def test_a_component_whose_facts_cannot_move_is_analysed_again(cache: reuse.ComponentCache) -> None:
    cache.put("key", ((0, 10, 0),), (Span(20, 30, 2, 0, 2, 10),))
    assert cache.get("key", ((5, 15, 1),)) is None
    assert cache.get("missing", ((5, 15, 1),)) is None


_FILES = sorted(p for p in CORPUS.glob("*.cpp") if p.stat().st_size < 20_000)
_EDITS = st.sampled_from(["comment", "note", "statement", "delete", "duplicate", "blank"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_FILES), st.lists(st.tuples(_EDITS, st.integers(0, 10_000)), min_size=1, max_size=3))
def test_random_edits_of_corpus_files_match_a_fresh_analysis(
    cache: reuse.ComponentCache, path: Path, edits: list[tuple[str, int]]
) -> None:
    text = path.read_text()
    _analyse(str(path), text.encode())
    for kind, where in edits:  # each version analysed with the cache the versions before it filled
        text = randomly_edited(text, kind, where)
        assert _analyse(str(path), text.encode()) == _fresh(str(path), text.encode())


def test_a_comment_in_host_code_moves_the_kernels_below_it(cache: reuse.ComponentCache) -> None:
    third = PROGRAM.index("void third")
    after = PROGRAM[:third] + "// a note on the third launch\n" + PROGRAM[third:].replace(") {", ") {  // mine", 1)
    hits, misses = _edited(cache, PROGRAM, after)
    assert (hits, misses) == (2, 0)


@pytest.mark.parametrize(
    ("before", "after", "same"),
    [
        (b"a = 1;  // one\n}", b"a = 1;\n}", True),
        (b"// only a comment\nf();", b"f();", True),
        (b"f();\n  // between statements\ng();", b"f();\ng();", True),
        (b"int n = 4 +\n// inside an expression\n 1;", b"int n = 4 +\n 1;", False),
        (b"#define N 4 // four", b"#define N 4", False),  # a macro's text
        (b'puts("x"); // y', b'puts("x");', False),  # a quote on the line
        (b"g(a, // first\n  b);", b"g(a,\n  b);", False),  # inside an argument list
        (b"a = 1; // a \\\nb = 2;", b"a = 1;\nb = 2;", False),  # a backslash continues the comment
        (b"a = 1; // */\nb = 2;", b"a = 1;\nb = 2;", False),  # may close a block comment
        (b'auto s = R"(x)";\na = 1; // y', b'auto s = R"(x)";\na = 1;', False),  # a raw string in the text
    ],
)
def test_host_text_drops_only_comments_no_analysis_reads(before: bytes, after: bytes, same: bool) -> None:
    assert (reuse.without_trailing_comments(before) == reuse.without_trailing_comments(after)) is same


def test_binding_lines_are_read_without_their_comments() -> None:
    text = b"int a = 1;\nconst int n = 4; // four\n#define M 2 // two\nx = 1; // a const remark\n  static int s;"
    assert reuse.binding_lines(text) == (b"const int n = 4;", b"#define M 2 // two", b"static int s;")
    assert [at for at, _line in reuse.binding_lines_at(text)] == [11, 36, 80]


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.cpp")), ids=lambda p: p.name)
def test_components_analysed_apart_give_the_facts_of_the_file_analysed_at_once(path: Path) -> None:
    """With the cache on, each component of the call graph is analysed apart (a fresh cache: nothing
    reused); without it, all together, as the command line does."""
    data = path.read_bytes()
    kept = reuse.ComponentCache()
    reuse.turn_on(kept)
    try:
        apart = _analyse(str(path), data)
    finally:
        reuse.turn_on(None)
    assert kept.hits == 0
    assert apart == _analyse(str(path), data)


# Host code that kernels launched from `main` read: each edit below changes something a kernel's analysis
# may read outside its own code (a constant, a launch size, a macro, a captured name, a called function's
# overloads) or only moves the kernels. Whatever the component key keeps, incremental must equal fresh.
MAIN_PROGRAM = """\
#include <sycl/sycl.hpp>
#define TILE 16
constexpr int N = 1024;
const int STRIDE = 2;

float scale(float v, int lid) {
  return lid % 2 == 0 ? v * 2.0f : v;
}

int main() {
  sycl::queue q;
  float *a = sycl::malloc_device<float>(N * STRIDE, q);
  float *b = sycl::malloc_device<float>(N * STRIDE, q);
  int width = 64;
  q.parallel_for(sycl::nd_range<1>(N, TILE), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    int lid = it.get_local_id(0);
    if (lid < 4) {
      a[i] = b[i * STRIDE] + 1.0f;
    }
    a[i] = scale(a[i], lid);
  });
  q.parallel_for(sycl::nd_range<1>(N, TILE), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    for (int k = 0; k < it.get_local_id(0); k++) {
      b[i * width + k] += 1.0f;
    }
  });
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
    a[i] = b[i * STRIDE] * width;
  });
  q.wait();
  return 0;
}
"""

_HOST_EDITS: dict[str, tuple[str, str]] = {
    "statement in main": ("  int width = 64;\n", "  int width = 64;\n  int unused = 3;\n"),
    "statement above the launches": ("  sycl::queue q;\n", "  sycl::queue q;\n  q.wait();\n"),
    "constant a kernel reads": ("const int STRIDE = 2;", "const int STRIDE = 1;"),
    "constexpr launch size": ("constexpr int N = 1024;", "constexpr int N = 1000;"),
    "captured value": ("  int width = 64;", "  int width = 1;"),
    "captured value reassigned": ("  sycl::queue q;\n", "  sycl::queue q;\n  int width2 = 3;\n"),
    "launch size": ("sycl::nd_range<1>(N, TILE)", "sycl::nd_range<1>(N, 32)"),
    "work-group size macro": ("#define TILE 16", "#define TILE 7"),
    "define above the kernel": ("int main() {", "#define STRIDE 3\nint main() {"),
    "renamed captured variable": ("int width = 64;", "int width_ = 64;\n  int width = 4 * width_;"),
    "new overload of a called function": (
        "int main() {",
        "double scale(double v, int lid) { return v; }\nint main() {",
    ),
    "assignment after a launch": ("  q.wait();\n", "  width = 2;\n  q.wait();\n"),
    "blank line in main": ("  q.wait();\n", "\n  q.wait();\n"),
    # Statements whose names no kernel reads (left out of the keys) and ones that reach a kernel.
    "statement of its own names": ("  sycl::queue q;\n", "  sycl::queue q;\n  int kernlint_edit = 3;\n"),
    "two statements of their own names": ("  int width = 64;\n", "  int width = 64;\n  int t0 = 1;\n  t0 += 2;\n"),
    "own statement with a comment": ("  int width = 64;\n", "  int width = 64;\n  long t1 = 2;  // scratch\n"),
    "own statement sharing a line with a write": (
        "  int width = 64;\n",
        "  int width = 64;\n  int t2 = 1; width = 2;\n",
    ),
    "write of a captured value through a reference": (
        "  int width = 64;\n",
        "  int width = 64;\n  int &alias = width;\n  alias = 2;\n",
    ),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(sorted(_HOST_EDITS)), min_size=1, max_size=4))
def test_random_host_edits_match_a_fresh_analysis(cache: reuse.ComponentCache, edits: list[str]) -> None:
    text = MAIN_PROGRAM
    _analyse("main.cpp", text.encode())
    for name in edits:  # each version analysed with the cache the versions before it filled
        old, new = _HOST_EDITS[name]
        text = text.replace(old, new, 1)
        assert _analyse("main.cpp", text.encode()) == _fresh("main.cpp", text.encode()), name


@pytest.mark.parametrize("name", sorted(_HOST_EDITS))
def test_each_host_edit_changes_the_text_and_matches_a_fresh_analysis(cache: reuse.ComponentCache, name: str) -> None:
    old, new = _HOST_EDITS[name]
    assert old in MAIN_PROGRAM
    _edited(cache, MAIN_PROGRAM, MAIN_PROGRAM.replace(old, new, 1), "main.cpp")


def test_main_program_has_findings_that_host_edits_change() -> None:
    """Host edits must change what is found, not only where, or comparing with a fresh analysis tests little."""

    def found(text: str) -> set[tuple[str, str]]:
        return {(d.code, d.message) for d in _analyse("main.cpp", text.encode())}

    before = found(MAIN_PROGRAM)
    changed = {n for n, (old, new) in _HOST_EDITS.items() if found(MAIN_PROGRAM.replace(old, new, 1)) != before}
    assert {"constant a kernel reads", "captured value", "constexpr launch size", "define above the kernel"} <= changed


def _found(text: str, path: str = "main.cpp", setup: EngineSetup | None = None) -> set[tuple[str, str]]:
    with cache_off():
        found = diagnostics(path, text.encode(), setup)
    return {(d.code, d.message) for d in found}


def test_a_statement_no_kernel_reads_reuses_every_kernel(cache: reuse.ComponentCache) -> None:
    """`int kernlint_edit = 3;` above the launches spells no name anything else spells: left out of the
    keys (`host_slice`), every component below it is reused, moved a line down."""
    after = MAIN_PROGRAM.replace("  sycl::queue q;\n", "  sycl::queue q;\n  int kernlint_edit = 3;\n", 1)
    assert _edited(cache, MAIN_PROGRAM, after, "main.cpp") == (3, 0)
    later = after.replace("  int kernlint_edit = 3;\n", "  int kernlint_edit = 3;\n  kernlint_edit *= 2;\n")
    assert _edited(cache, after, later, "main.cpp") == (3, 0)


def _through_names(program: str) -> list[tuple[str, str, str]]:
    """(name, before, after) pairs whose edit is a statement that a kernel reads only through names other
    statements, macros or headers spell: each changes what is found."""
    chained = program.replace("int width = 64;", "int base = 64;\n  int width = base;")
    return [
        ("value through another variable", chained, chained.replace("int base = 64;", "int base = 1;")),
        ("declaration through another variable", chained.replace("  int base = 64;\n", ""), chained),
        (
            "write after a comment continued onto the next line",
            program.replace("  q.wait();\n", "  width = 2;\n  q.wait();\n"),
            program.replace("  q.wait();\n", "  int t3 = 1;  // continued \\\n  width = 2;\n  q.wait();\n"),
        ),
        (
            "call after the launches that may write a captured value",
            program,
            program.replace("  q.wait();\n", "  update(width);\n  q.wait();\n"),
        ),
        (
            "write after the launches to what a captured value is made of",
            chained,
            chained.replace("  q.wait();\n", "  base = 2;\n  q.wait();\n"),
        ),
        (
            "write after the own statement on its line",
            program.replace("  q.wait();\n", "  int t4 = 1; width = 2;\n  q.wait();\n"),
            program.replace("  q.wait();\n", "  int t4 = 1;\n  q.wait();\n"),
        ),
    ]


@pytest.mark.parametrize(
    "case",
    _through_names(MAIN_PROGRAM.replace("int main() {", "void update(int &v);\nint main() {")),
    ids=lambda c: c[0],
)
def test_a_statement_a_kernel_reads_through_other_names_is_a_new_analysis(
    cache: reuse.ComponentCache, case: tuple[str, str, str]
) -> None:
    _name, before, after = case
    assert _found(before) != _found(after)  # else comparing with a fresh analysis tests little
    assert _edited(cache, before, after, "main.cpp")[1] >= 1


_THROUGH_A_MACRO = MAIN_PROGRAM.replace("b[i * width + k]", "b[i * ROW + k]").replace("  int width = 64;\n", "")


def test_a_statement_a_file_macro_reads_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    before = _THROUGH_A_MACRO.replace("#define TILE 16", "#define TILE 16\n#define ROW row_width")
    after = before.replace("  sycl::queue q;\n", "  sycl::queue q;\n  int row_width = 64;\n")
    assert _found(before) != _found(after)
    assert _edited(cache, before, after, "main.cpp")[1] >= 1


def test_a_statement_a_header_macro_reads_is_a_new_analysis(cache: reuse.ComponentCache, tmp_path: Path) -> None:
    """The macro's body lies in a quoted header: the names the header spells count as spelt."""
    (tmp_path / "rows.h").write_text("#pragma once\n#define ROW row_width\n")
    path = str(tmp_path / "main.cpp")
    before = _THROUGH_A_MACRO.replace("#define TILE 16", '#define TILE 16\n#include "rows.h"')
    after = before.replace("  sycl::queue q;\n", "  sycl::queue q;\n  int row_width = 64;\n")
    assert _found(before, path) != _found(after, path)
    assert _edited(cache, before, after, path)[1] >= 1


def test_a_statement_a_configured_macro_reads_is_a_new_analysis(cache: reuse.ComponentCache) -> None:
    """`-D ROW=row_width`: the names of the configured macros count as spelt."""
    setup = make_setup(Config(devices=("xe-hpc", "a100"), defines=(("ROW", "row_width"),)), use_cache=False)
    before = _THROUGH_A_MACRO
    after = before.replace("  sycl::queue q;\n", "  sycl::queue q;\n  int row_width = 64;\n")
    assert _found(before, setup=setup) != _found(after, setup=setup)
    _analyse_with(setup, before)
    misses = cache.misses
    assert _analyse_with(setup, after) == tuple(_analyse_with_fresh(setup, after))
    assert cache.misses > misses


def _analyse_with(setup: EngineSetup, text: str) -> tuple:
    return diagnostics("main.cpp", text.encode(), setup)


def _analyse_with_fresh(setup: EngineSetup, text: str) -> tuple:
    with cache_off():
        return _analyse_with(setup, text)


# Statements typed in `main`, anywhere among the launches: names the kernels read (`width`, `STRIDE`,
# `N`, the pointers), names of their own, and the shapes that bind or write one (a declaration, an
# assignment, a reference, a call that may write, an increment).
_NAMES = st.sampled_from(["width", "base", "t0", "t1", "alias", "STRIDE", "N", "a", "b"])
_SHAPES = st.sampled_from(
    ["int {0} = {1};", "{0} = {1} + 1;", "int &{0} = {1};", "update({0});", "{0}++;", "long {0} = 2 * {1};"]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(_SHAPES, _NAMES, _NAMES, st.integers(0, 1_000)), min_size=1, max_size=4))
def test_random_statements_in_main_match_a_fresh_analysis(
    cache: reuse.ComponentCache, statements: list[tuple[str, str, str, int]]
) -> None:
    text = MAIN_PROGRAM.replace("int main() {", "void update(int &v);\nint main() {")
    _analyse("main.cpp", text.encode())
    for shape, first, second, where in statements:  # each version analysed with the cache the ones before filled
        lines = text.split("\n")
        body = [k for k, line in enumerate(lines) if line.startswith("  ") and line[2] not in " }"]
        at = body[where % len(body)]  # before a statement of `main`'s own block (not in a kernel's)
        lines.insert(at, "  " + shape.format(first, second))
        text = "\n".join(lines)
        assert _analyse("main.cpp", text.encode()) == _fresh("main.cpp", text.encode()), text
