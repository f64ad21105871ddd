"""The map facts (`OmpConstruct.maps`, `OmpVariableUse.touched`): what each `map` list item names and
how many bytes it moves, in C, C++ and Fortran, and the range of indices a region's accesses reach."""

from __future__ import annotations

import textwrap

import pytest

from kernlint.config import Config
from kernlint.facts import FileFacts
from kernlint.facts.openmp import (
    IndexBound,
    Linear,
    OmpConstruct,
    OmpMapped,
    OmpRange,
    OmpVariableUse,
    map_item_bytes,
)
from kernlint.frontends.cpp.frontend import extract as extract_cpp
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.frontends.openmp.expr import Scope
from kernlint.frontends.openmp.maps import index_bound
from kernlint.source import SourceFile


def c_facts(code: str, path: str = "t.c") -> FileFacts:
    return extract_cpp(path, textwrap.dedent(code).encode())


def f_facts(code: str) -> FileFacts:
    return extract_fortran(SourceFile("t.f90", textwrap.dedent(code).encode()), fixed_form=False, config=Config())


def target(facts: FileFacts, index: int = 0) -> OmpConstruct:
    found = [c for c in facts.omp if c.maps]
    return found[index]


def text(bound: IndexBound | None) -> str | None:
    return str(bound) if bound is not None else None


def use(construct: OmpConstruct, name: str) -> OmpVariableUse:
    found = construct.variable(name)
    assert found is not None, name
    return found


def span(mapped: OmpMapped) -> OmpRange:
    assert mapped.range is not None, mapped.text
    return mapped.range


def test_c_items_storage_and_bytes() -> None:
    facts = c_facts(
        """
        #define N 256
        typedef struct { int n; float *v; } Vec;
        void f(double *x, int **rows, float c[], Vec s, int n) {
          double grid[N][8];
          float *buf = (float *) malloc(N * sizeof(float));
          float *q = (float *) omp_target_alloc(n * sizeof(float), 0);
          int k = 3;
        #pragma omp target map(to: x[0:n], x[2:N], grid, grid[1:2], rows[0:n], rows, c, s, buf, q, k, n)
          x[0] = grid[0][0] + rows[0][0] + c[0] + s.v[0] + buf[0] + q[0] + k + n;
        }
        """
    )
    maps = {m.text: m for m in target(facts).maps}
    assert maps["x[0:n]"].storage == "array" and maps["x[0:n]"].element_bytes == 8 and maps["x[0:n]"].bytes is None
    assert maps["x[2:N]"].bytes == 256 * 8  # N = 256 doubles
    assert maps["grid"].storage == "array" and maps["grid"].bytes == 256 * 8 * 8
    assert maps["grid[1:2]"].bytes == 2 * 8 * 8  # two rows of 8 doubles
    assert maps["rows[0:n]"].storage == "pointer-to-pointer" and maps["rows[0:n]"].element_bytes == 8
    assert maps["rows"].storage == "pointer-to-pointer"
    assert maps["c"].storage == "pointer"  # a parameter `float c[]` is a pointer
    assert maps["s"].storage == "struct-pointers" and maps["s"].pointer_members == ("v",)
    assert maps["buf"].storage == "pointer" and maps["buf"].pointee_elements == 256 and maps["buf"].bytes == 8
    assert maps["q"].device_pointer and not maps["buf"].device_pointer
    assert maps["k"].storage == "scalar" and maps["k"].bytes == 4
    assert all(m.local for m in maps.values())
    assert map_item_bytes(target(facts), "x[2:N]") == 2048 and map_item_bytes(target(facts), "nope") is None


def test_c_sections_ranges_and_locals_with_one_definition() -> None:
    facts = c_facts(
        """
        void f(float *a) {
          const int n = 1000;
        #pragma omp target map(tofrom: a[10:n - 20])
          a[10] = 0;
        }
        """
    )
    (mapped,) = target(facts).maps
    assert mapped.bytes == 980 * 4
    assert mapped.range == OmpRange(IndexBound(Linear.const(10)), IndexBound(Linear.const(989)))


def test_fortran_items_bounds_parameters_and_assumed_size() -> None:
    facts = f_facts(
        """
        subroutine s(a, b, c, d, m, n)
          integer, parameter :: np = 100
          integer :: n, m
          real(kind=8) :: a(np), b(0:np-1, 4), c(*), d(:)
          real, allocatable :: e(:)
          !$omp target map(to: a, b, c, c(1:n), c(2:), d, e, a(3:np))
          a(1) = b(0, 1) + c(1) + d(1) + e(1)
          !$omp end target
        end subroutine s
        """
    )
    maps = {m.text: m for m in target(facts).maps}
    assert maps["a"].bytes == 100 * 8 and maps["b"].bytes == 100 * 4 * 8
    assert maps["a(3:np)"].bytes == 98 * 8
    assert maps["c"].storage == "assumed-size" and maps["c(2:)"].storage == "assumed-size"
    assert maps["c(1:n)"].storage == "array"
    assert maps["d"].storage == "array" and maps["d"].bytes is None
    assert text(span(maps["d"]).last) == "size(d,1)"  # an assumed shape spans 1..size(d, 1)
    assert maps["e"].range is None  # allocatable: bounds set by `allocate`
    assert text(span(maps["a"]).first) == "1" and text(span(maps["a"]).last) == "100"


def test_touched_ranges_substitute_loop_ranges() -> None:
    facts = c_facts(
        """
        #define W 64
        void f(float *a, float *b, float *c, float *d, int n) {
        #pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n], c[0:n * W]) map(tofrom: d[0:n])
          for (int i = 1; i < n / 2; ++i) {
            for (int j = 0; j <= i; ++j)
              c[i * W + j] = a[i - 1] + a[i + 1] + b[n - 1 - i];
            d[2 * i] = 0;
          }
        }
        """
    )
    construct = target(facts)
    a, b, c, d = (use(construct, name) for name in "abcd")
    # a[i - 1] and a[i + 1] for i in [1, n / 2 - 1]: from a[0] to a[n / 2]
    assert a.touched == OmpRange(IndexBound(Linear.const(0)), IndexBound(Linear.name("n"), 2, 0))
    assert b.touched is None  # n - 1 - i over i ≤ n / 2 - 1 mixes n and n / 2: not one bound
    # i ≤ n/2 - 1 and j ≤ i: c reaches i·64 + j up to (n/2 - 1)·64 + i, not one bound of n / 2
    assert c.touched is None
    assert d.touched is None  # 2 · (n / 2 - 1) is no bound kernlint keeps
    assert a.dereferences == 1


def test_touched_needs_every_access_known() -> None:
    facts = c_facts(
        """
        void g(float *p);
        void f(float *a, float *b, float *c, int *idx, int n) {
        #pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n], c[0:n], idx[0:n])
          for (int i = 0; i < n; ++i) {
            int k = idx[i];
            a[k] = 0;
            g(b);
            int i2 = i;
            c[i2] = 1;
          }
        }
        """
    )
    construct = target(facts)
    assert use(construct, "a").touched is None  # k is loaded inside the region
    assert use(construct, "b").touched is None  # passed on
    last = IndexBound(Linear.name("n") - Linear.const(1))
    assert use(construct, "idx").touched == OmpRange(IndexBound(Linear.const(0)), last)
    assert use(construct, "c").touched is not None  # i2 is defined once as i


def test_touched_rejects_a_shadowed_loop_index() -> None:
    facts = c_facts(
        """
        void f(float *a, int n, int repeat) {
        #pragma omp target data map(to: a[0:n])
          {
            for (int i = 0; i < repeat; i++) {
        #pragma omp target teams
              {
                int i = omp_get_team_num();
                a[i] = 0;
              }
            }
          }
        }
        """
    )
    assert use(target(facts), "a").touched is None


def test_fortran_touched_against_size() -> None:
    facts = f_facts(
        """
        subroutine s(x, y)
          integer :: x(:), y(:)
          integer :: i
          !$omp target teams distribute parallel do map(to: x) map(tofrom: y)
          do i = 1, size(y, 1) / 2
            y(i) = y(i) + x(i)
          end do
        end subroutine s
        """
    )
    construct = target(facts)
    y = use(construct, "y")
    assert y.touched == OmpRange(IndexBound(Linear.const(1)), IndexBound(Linear.name("size(y,1)"), 2, 0))
    (_x, mapped_y) = construct.maps
    assert mapped_y.range == OmpRange(IndexBound(Linear.const(1)), IndexBound(Linear.name("size(y,1)")))


@pytest.mark.parametrize(
    "written, fortran, expected",
    [
        ("n / 2", False, "n / 2"),
        ("n / 2 - 1", False, "n / 2 - 1"),
        ("1 + (n - 1) / 4", False, "(n - 1) / 4 + 1"),
        ("size(a, 1) / 2", True, "size(a,1) / 2"),
        ("size(a) / 3", True, "size(a,1) / 3"),
        ("n * n", False, None),
        ("n / m", False, None),
    ],
)
def test_index_bounds(written: str, fortran: bool, expected: str | None) -> None:
    scope = Scope(lambda _name: None)
    assert text(index_bound(written, fortran=fortran, scope=scope, rank_one=frozenset({"a"}))) == expected


def test_index_bound_arithmetic() -> None:
    half = IndexBound(Linear.name("n"), 2)
    assert half.shifted(-1).constant_difference(half) == -1
    assert IndexBound(Linear.name("n") + Linear.const(3)).constant_difference(IndexBound(Linear.name("n"))) == 3
    assert half.constant_difference(IndexBound(Linear.name("n"))) is None
    assert IndexBound(Linear.const(7), 2, 1).value_of() == 4
    assert IndexBound.of(Linear.name("n"), 1, -1) == IndexBound(Linear.name("n") - Linear.const(1))
