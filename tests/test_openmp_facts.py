"""OpenMP facts: the same from C/C++ and Fortran, and right on the shapes rules depend on."""

from __future__ import annotations

import textwrap

import pytest

from kernlint.config import Config
from kernlint.facts import FileFacts, Span
from kernlint.facts.openmp import Linear
from kernlint.frontends.cpp.frontend import extract as extract_cpp
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.frontends.openmp.expr import Scope, condition_shape, linear_text, parse
from kernlint.source import SourceFile


def c_facts(code: str) -> FileFacts:
    return extract_cpp("t.c", textwrap.dedent(code).encode())


def f_facts(code: str) -> FileFacts:
    return extract_fortran(SourceFile("t.f90", textwrap.dedent(code).encode()), fixed_form=False, config=Config())


def only(facts: FileFacts, kind: str):
    found = [c for c in facts.omp if c.kind == kind]
    assert len(found) == 1, [c.kind for c in facts.omp]
    return found[0]


NBODY_C = """
    #define TILE 64
    #define HINT 4
    void k(float *c, float *a, float *b, int n1, int n2) {
    #pragma omp target teams distribute parallel for thread_limit(1024) \\
        map(to: a[0:n1], b[0:n2]) map(tofrom: c[0:n1])
      for (int i = 0; i < n1; i++) {
        float dx = 0.0f;
        for (int j = 0; j < n2; j += TILE) {
          for (int u = 0; u < TILE; ++u) {
            dx += b[j + u] - a[i];
            int next = j + TILE + u;
            if (next % 16 == 0) {
    #pragma ompx prefetch data(HINT: b[next]) if (next < n2)
            }
          }
        }
        c[i] = dx;
      }
    }
"""

NBODY_F = """
    #define TILE 64
    #define HINT 4
    subroutine k(c, a, b, n1, n2)
      integer :: n1, n2, i, j, u, next
      real :: a(0:n1-1), b(0:n2-1), c(0:n1-1), dx
      !$omp target teams distribute parallel do thread_limit(1024) &
      !$omp& map(to: a, b) map(tofrom: c)
      do i = 0, n1 - 1
        dx = 0.0
        do j = 0, n2 - 1, TILE
          do u = 0, TILE - 1
            dx = dx + b(j + u) - a(i)
            next = j + TILE + u
            if (mod(next, 16) .eq. 0) then
              !$omp prefetch data(HINT: b(next:next)) if (next .lt. n2)
            end if
          end do
        end do
        c(i) = dx
      end do
    end subroutine
"""


@pytest.mark.parametrize("facts", [c_facts(NBODY_C), f_facts(NBODY_F)], ids=["c", "fortran"])
def test_the_same_kernel_gives_the_same_facts_in_c_and_fortran(facts: FileFacts) -> None:
    target = only(facts, "target teams distribute parallel " + ("do" if facts.language.endswith("fortran") else "for"))
    assert target.value("thread_limit") == 1024 and target.device
    assert [(loop.index, str(loop.low), str(loop.high), loop.step_value, loop.role) for loop in target.loops] == [
        ("i", "0", "n1 - 1", 1, "parallel"),
        ("j", "0", "n2 - 1", 64, "sequential"),
        ("u", "0", "63", 1, "sequential"),
    ]
    assert target.loop is target.loops[0]
    assert [(loop.kind, loop.side) for loop in facts.loops] == [("for", "device")] * 3
    uses = {v.name: (v.reads, v.writes, v.read_modify_writes, v.escapes, v.writes_cover) for v in target.variables}
    assert uses == {"a": (1, 0, 0, False, None), "b": (1, 0, 0, False, None), "c": (0, 1, 0, False, True)}

    prefetch = only(facts, "prefetch")
    assert prefetch.value("hint") == 4 and prefetch.device and prefetch.region is None
    assert [loop.index for loop in prefetch.enclosing_loops] == ["i", "j", "u"]
    (mask,) = prefetch.conditions
    assert mask.masks == ((Linear.of({"j": 1, "u": 1}, 64), 16),) and not mask.bounds
    assert prefetch.if_condition is not None and prefetch.if_condition.bounds[0].op == "<"
    (item,) = prefetch.targets
    assert (item.base, item.index, item.element_bytes, item.array_lower) == ("b", Linear.of({"j": 1, "u": 1}, 64), 4, 0)
    assert item.array_upper == Linear.of({"n2": 1}, -1)
    assert facts.constructs_around(prefetch.span) == [target]


def test_c_association_skips_comments_pragmas_and_steps_out_of_ifdef() -> None:
    facts = c_facts("""
        void f(float *a, int n) {
        #ifdef USE_GPU
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
        #endif
          // a comment
        #pragma unroll
          for (int i = n - 1; i >= 0; i -= 2) a[i] = 0;
        #pragma omp target
        #pragma omp teams
          { a[0] = 1; }
        #pragma omp barrier
        }
    """)
    loop_construct = only(facts, "target teams distribute parallel for")
    assert loop_construct.loop is not None and loop_construct.loop.span.line == 8
    loop = loop_construct.loop
    assert (str(loop.low), str(loop.high), loop.step_value, loop.step) == ("0", "n - 1", -2, "-(2)")
    assert (loop.lower, loop.upper, loop.upper_inclusive) == ("n - 1", "0", True)
    assert only(facts, "target").region == only(facts, "teams").region
    assert only(facts, "barrier").region is None


def _written(code: bytes, span: Span) -> str:
    return code[span.start_byte : span.end_byte].decode()


def test_map_types_say_where_a_fix_edits_the_type() -> None:
    """`map_types` locate each map clause's type on its own physical line: the written word when it
    comes first, else just inside the parenthesis; a continued directive keeps each clause's line."""
    c_code = textwrap.dedent("""\
        void f(float *a, float *b, float *c, int n) {
        #pragma omp target map(tofrom: a[0:n]) \\
            map( b[0:n]) map(always, tofrom: c[0:n])
          for (int i = 0; i < n; i++) a[i] = b[i] + c[i];
        }
    """).encode()
    construct = only(extract_cpp("t.c", c_code), "target")
    first, second, third = construct.map_types
    assert (first.word.line, _written(c_code, first.word), first.written) == (2, "tofrom", "tofrom")
    assert (second.inside.line, second.word, c_code[second.inside.start_byte :][:3]) == (3, None, b" b[")
    assert third.word is None  # `always` comes first: no in-place rewrite
    assert construct.map_type(construct.directive.clause("map").text) == first
    f_code = textwrap.dedent("""\
        subroutine s(a, n)
          real :: a(n)
          !$OMP TARGET MAP(TOFROM: a)
          a = 0
          !$OMP END TARGET
        end subroutine
    """).encode()
    (fortran,) = [
        c
        for c in extract_fortran(SourceFile("t.f90", f_code), fixed_form=False, config=Config()).omp
        if c.kind == "target"
    ]
    (site,) = fortran.map_types
    clause = fortran.directive.clause("map") if fortran.directive is not None else None
    assert clause is not None and site.word is not None
    assert (_written(f_code, site.word), site.written, clause.modifiers) == ("TOFROM", "TOFROM", ("tofrom",))


def test_c_loop_forms() -> None:
    facts = c_facts("""
        #define N 100
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for collapse(2)
          for (int i = 0; i <= N; ++i)
            for (int j = n; j > 0; j--)
              a[i] = j;
        #pragma omp target
          {
            for (int k = 0; n > k; k = k + 4) a[k] = 0;
            while (n > 0) n--;
          }
        }
    """)
    collapsed = only(facts, "target teams distribute parallel for")
    outer, inner = collapsed.loops
    assert (str(outer.low), str(outer.high), outer.upper_inclusive, outer.role) == ("0", "100", True, "parallel")
    assert (str(inner.low), str(inner.high), inner.step_value, inner.role) == ("1", "n", -1, "parallel")
    # first and last values: the inner loop counts down from n to 1
    assert (outer.lower_value, outer.upper_value, inner.lower_value, inner.upper_value) == (0, 100, None, 1)
    block = only(facts, "target")
    counted, loop_while = block.loops
    assert (counted.index, str(counted.high), counted.step_value, counted.role) == ("k", "n - 1", 4, "sequential")
    assert loop_while.index is None and loop_while.low is None


def test_uses_reads_writes_escapes_and_coverage() -> None:
    facts = c_facts("""
        void g(float *p);
        void f(float *a, float *b, float *c, float *d, float *e, float s, int n) {
        #pragma omp target teams distribute parallel for \\
            map(tofrom: a[0:n], b[0:n], c[0:n], d[0:n], e[1:n-1], s)
          for (int i = 0; i < n; ++i) {
            a[i] = s;
            b[i] += 1;
            if (i > 2) c[i] = 0;
            g(d);
            e[i] = 2;
          }
        }
    """)
    uses = {v.name: v for v in only(facts, "target teams distribute parallel for").variables}
    assert (uses["a"].writes, uses["a"].reads, uses["a"].writes_cover) == (1, 0, True)
    assert uses["b"].read_modify_writes == 1
    assert uses["c"].writes == 1 and uses["c"].writes_cover is None  # conditional
    assert uses["d"].escapes
    assert uses["e"].writes_cover is None  # section [1, n-1] vs loop [0, n-1]
    assert (uses["s"].reads, uses["s"].writes) == (1, 0)


WRITTEN_FIRST_C = """
    void f(float *y, float *z, float *w, float *v, const float *s, int n, int m) {
    #pragma omp target data map(tofrom: y[0:n], z[0:n], w[0:n], v[0:m]) map(to: s[0:n])
      {
    #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; ++i) { y[i] = s[i]; z[i] = 0.0f; }
    #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; ++i) { w[i] = s[i]; z[i] += y[i]; }
    #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; ++i) w[i] *= 2.0f;
        m = m / 2;
    #pragma omp target teams distribute parallel for
        for (int i = 0; i < m; ++i) v[i] = s[i];
    #pragma omp target teams distribute parallel for
        for (int i = 0; i < m; ++i) v[i] += 1.0f;
      }
    }
"""


def test_a_region_that_overwrites_a_section_before_reading_it() -> None:
    uses = {v.name: v for v in only(c_facts(WRITTEN_FIRST_C), "target data").variables}
    assert uses["y"].written_first and uses["y"].reads == 1  # written by the first loop, read by the second
    assert uses["z"].written_first and uses["z"].read_modify_writes == 1
    assert uses["w"].written_first  # its first use is the second loop, which runs unconditionally too
    assert not uses["v"].written_first  # `m` changes between the map and the loop
    assert not uses["s"].written_first  # only read


def test_fortran_section_overwritten_before_it_is_read() -> None:
    facts = f_facts("""
        subroutine s(u, f, n, warm)
          integer :: n, i
          logical :: warm
          real :: u(n), f(n)
          !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
          !$omp target teams distribute parallel do
          do i = 1, n
            u(i) = f(i)
          end do
          !$omp target teams distribute parallel do
          do i = 1, n
            u(i) = u(i) * f(i)
          end do
          !$omp end target data
          !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
          if (warm) then
            !$omp target teams distribute parallel do
            do i = 1, n
              u(i) = f(i)
            end do
          end if
          !$omp target teams distribute parallel do
          do i = 1, n
            u(i) = u(i) * f(i)
          end do
          !$omp end target data
        end subroutine
    """)
    regions = [c for c in facts.omp if c.kind == "target data"]
    assert [next(v for v in c.variables if v.name == "u").written_first for c in regions] == [True, False]


def _y_on_each_construct(facts: FileFacts) -> list[tuple[bool, bool | None]]:
    """(written_first, writes_cover) of `y` on each target construct, in order."""
    return [
        (use.written_first, use.writes_cover)
        for c in facts.omp
        if (c.kind or "").startswith("target")
        for use in c.variables
        if use.name == "y"
    ]


def test_an_iteration_that_stores_its_element_before_reading_it() -> None:
    loop = "#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])\n"
    bodies = [
        "y[i] = 0.0f; for (int k = 0; k < 4; k++) y[i] += x[i] * k;",  # reset, then accumulate
        "y[i] = x[i]; y[i] = y[i] * y[i];",  # stored, then read back
        "y[i] = y[i] + x[i];",  # the same statement reads the old value first
        "y[i] = 0.0f; y[i + 1] += x[i];",  # another iteration's element
        "y[i] = 0.0f; for (int i = 0; i < 4; i++) y[i] += x[i];",  # an inner loop reuses `i`
        "if (x[i] == 0.0f) continue; y[i] = 0.0f; y[i] += x[i];",  # the store may be skipped
        "float t = y[i]; y[i] = t;",  # read first
    ]
    code = "".join(
        f"void f{k}(float *y, const float *x, int n) {{\n{loop}for (int i = 0; i < n; i++) {{ {body} }}\n}}\n"
        for k, body in enumerate(bodies)
    )
    assert [first for first, _cover in _y_on_each_construct(c_facts(code))] == [True, True] + [False] * 5


def test_a_jump_before_a_store_makes_it_conditional() -> None:
    c_code = """
        void f(float *y, const float *x, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])
          for (int i = 0; i < n; i++) { if (x[i] < 0.0f) continue; y[i] = x[i]; }
        #pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])
          for (int i = 0; i < n; i++) { y[i] = x[i]; if (x[i] < 0.0f) continue; }
        }
    """
    assert [cover for _first, cover in _y_on_each_construct(c_facts(c_code))] == [None, True]
    f_code = """
        subroutine s(y, x, n)
          integer :: n, i
          real :: y(n), x(n)
          !$omp target teams distribute parallel do map(tofrom: y) map(to: x)
          do i = 1, n
            if (x(i) < 0.0) cycle
            y(i) = x(i)
          end do
          !$omp target teams distribute parallel do map(tofrom: y) map(to: x)
          do i = 1, n
            if (x(i) < 0.0) then
        10  continue
            end if
            y(i) = x(i)
          end do
        end subroutine
    """
    assert [cover for _first, cover in _y_on_each_construct(f_facts(f_code))] == [None, True]


def test_fortran_uses_whole_arrays_calls_and_target_update() -> None:
    facts = f_facts("""
        subroutine s(a, b, c, d, n)
          integer :: n, i
          real :: a(n), b(n), c(n), d(n)
          !$omp target data map(tofrom: a, b, c, d)
          !$omp target
          a = 0.0
          call smooth(b, n)
          c(1) = sum(d)
          !$omp end target
          !$omp target update from(c)
          !$omp end target data
        end subroutine
    """)
    uses = {v.name: v for v in only(facts, "target data").variables}
    assert uses["a"].writes == 1 and uses["a"].writes_cover is True
    assert uses["b"].escapes
    assert uses["c"].updated and uses["c"].writes_cover is None
    assert uses["d"].reads == 1 and not uses["d"].escapes


def test_simd_regions_and_device_loops() -> None:
    facts = c_facts("""
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for
          for (int i = 0; i < n; i += 16) {
        #pragma omp simd simdlen(16)
            for (int v = 0; v < 16; ++v) a[i + v] = 0;
          }
        }
    """)
    simd = only(facts, "simd")
    assert simd.value("simdlen") == 16 and simd.loop is not None and simd.loop.role == "simd" and simd.device
    outer = only(facts, "target teams distribute parallel for")
    assert [loop.role for loop in outer.loops] == ["parallel", "simd"]


# -- expressions ----------------------------------------------------------------------------------

CONSTANTS = Scope(lambda name: {"TILE": 64, "tile": 64}.get(name))


@pytest.mark.parametrize(
    "text, fortran, expected",
    [
        ("j + TILE + u", False, Linear.of({"j": 1, "u": 1}, 64)),
        ("2 * (i + 1) - 3", False, Linear.of({"i": 2}, -1)),
        ("(int)i + 1", False, Linear.of({"i": 1}, 1)),
        ("-i + TILE / 2", False, Linear.of({"i": -1}, 32)),
        ("i * n", False, None),
        ("a[i]", False, None),
        ("J + Tile - 1", True, Linear.of({"j": 1}, 63)),
        ("2**3 * k", True, Linear.of({"k": 8})),
        ("b(i)", True, None),
    ],
)
def test_linear_forms(text: str, fortran: bool, expected: Linear | None) -> None:
    assert linear_text(text, fortran=fortran, scope=CONSTANTS) == expected


def test_linear_substitutes_local_definitions() -> None:
    scope = Scope(lambda _n: None, lambda name: parse("j + 8", fortran=False) if name == "next" else None)
    assert linear_text("next + 1", fortran=False, scope=scope) == Linear.of({"j": 1}, 9)


@pytest.mark.parametrize(
    "text, fortran, masks, bounds, opaque",
    [
        ("(x % 16) == 0", False, [16], 0, False),
        ("!(x % 8)", False, [8], 0, False),
        ("(x & 15) == 0", False, [16], 0, False),
        ("x % 16 != 0", False, [], 0, False),
        ("x < n && x % 4 == 0", False, [4], 1, False),
        ("x < n || x % 4 == 0", False, [], 1, False),
        ("mod(x, 16) .eq. 0 .and. x .le. n", True, [16], 1, False),
        ("f(x) > 0", False, [], 1, True),
    ],
)
def test_condition_shapes(text: str, fortran: bool, masks: list[int], bounds: int, opaque: bool) -> None:
    shape = condition_shape(text, fortran=fortran, scope=CONSTANTS)
    assert [m for _subject, m in shape.masks] == masks
    assert len(shape.bounds) == bounds and shape.opaque is opaque


def test_linear_arithmetic_and_text() -> None:
    a = Linear.of({"n": 1}, -1)
    assert str(a) == "n - 1" and str(a + Linear.const(1)) == "n" and str(Linear.of({"i": -2}, 3)) == "-2*i + 3"
    assert (a - a).is_constant and a.coefficient("n") == 1 and a.without("n") == Linear.const(-1)


# -- divergence (Branch facts for KL501) ----------------------------------------------------------

DIVERGENT_C = """
    #include <omp.h>
    void k(float *a, const float *w, int n, int m) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
      for (int i = 0; i < n; ++i) {
        if (i % 2 == 0) a[i] = 0;
        if (i < m) a[i] += 1;
        for (int k = 0; k < m; ++k) if (k % 2) a[i] += w[k];
        for (int k = 0; k < i; ++k) a[i] += 1;
        if (w[i] > 0) a[i] = 1;
      }
    #pragma omp target teams
    #pragma omp parallel
      {
        int tid = omp_get_thread_num();
        if (tid & 1) a[tid] = 0;
        if (omp_get_team_num() == 0) a[0] = 1;
      }
    }
"""

DIVERGENT_F = """
    subroutine k(a, w, n, m)
      use omp_lib
      integer :: n, m, i, kk, tid
      real :: a(n), w(n)
      !$omp target teams distribute parallel do map(tofrom: a)
      do i = 1, n
        if (mod(i, 2) == 0) a(i) = 0
        if (i < m) a(i) = a(i) + 1
        do kk = 1, m
          if (mod(kk, 2) == 1) a(i) = a(i) + w(kk)
        end do
        do kk = 1, i
          a(i) = a(i) + 1
        end do
        if (w(i) > 0) a(i) = 1
      end do
      !$omp target teams
      !$omp parallel private(tid)
      tid = omp_get_thread_num()
      if (iand(tid, 1) == 1) a(tid) = 0
      if (omp_get_team_num() == 0) a(1) = 1
      !$omp end parallel
      !$omp end target teams
    end subroutine
"""


@pytest.mark.parametrize("facts", [c_facts(DIVERGENT_C), f_facts(DIVERGENT_F)], ids=["c", "fortran"])
def test_branch_facts_grade_the_same_in_c_and_fortran(facts: FileFacts) -> None:
    graded = [(b.kind, b.dependence, b.reason, b.origin) for b in facts.branches]
    assert graded[:4] == [
        ("if", "strong", "parity", "i"),
        ("if", "boundary", "tail-guard", "i"),
        ("loop", "strong", "loop-bound", "i"),
        ("if", "strong", "data", "i"),
    ]
    (thread,) = graded[4:]
    assert thread[1] == "strong" and thread[3] == "omp_get_thread_num()"
    # the sequential loop's own test `k % 2` and the team-id test are uniform: no facts
    assert len(facts.branches) == 5


def test_simd_model_makes_the_simd_index_the_lane_and_aligned_tiles_uniform() -> None:
    facts = c_facts("""
        void k(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i += 16) {
            if (i % 32 == 0) a[i] = 0;
        #pragma omp simd simdlen(16)
            for (int v = 0; v < 16; ++v) if (v % 2) a[i + v] = 1;
          }
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int t = 0; t < n; t += 32) {
            if ((t + 32) % 16 == 0) a[t] = 0;
            if (t % 64 == 0) a[t] = 1;
          }
        }
    """)
    assert [(b.condition.line, b.origin) for b in facts.branches] == [(7, "v"), (12, "t")]
