"""OpenMP device code behind calls (issue 20): a `declare target` function, or one a target region
calls, is device code; a device parallel region is followed one call level into the file's functions."""

from __future__ import annotations

import textwrap

from kernlint.config import Config
from kernlint.frontends.cpp.frontend import extract
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.source import SourceFile


def facts_of(code: str, path: str = "t.c"):
    return extract(path, textwrap.dedent(code).encode())


def test_loops_of_declare_target_functions_and_of_functions_a_target_region_calls_run_on_the_device() -> None:
    facts = facts_of("""
        #pragma omp declare target
        void smooth(float *a, int n) { for (int j = 1; j < n; ++j) a[j] += a[j - 1]; }
        #pragma omp end declare target
        float total(const float *a, int n) { float s = 0; for (int k = 0; k < n; ++k) s += a[k]; return s; }
        void host(float *a, int n) { for (int j = 0; j < n; ++j) a[j] = 0; }
        void run(float *a, float *out, int n) {
        #pragma omp target map(tofrom: a[0:n]) map(from: out[0:1])
          out[0] = total(a, n);
        }
    """)
    sides = {loop.span.line: loop.side for loop in facts.loops}
    assert sides == {3: "device", 5: "device", 6: "host"}


def test_a_region_is_followed_one_call_level_and_no_further() -> None:
    facts = facts_of("""
        static int deeper(int i) { if (i % 2) return 1; return 0; }
        static int level_one(int i, const int *len) {
          int s = 0;
          for (int k = 0; k < len[i]; ++k) s += deeper(k);
          if (i & 1) s = -s;
          return s;
        }
        void run(int *out, const int *len, int n) {
        #pragma omp target teams distribute parallel for map(to: len[0:n]) map(from: out[0:n])
          for (int i = 0; i < n; ++i) out[i] = level_one(i, len);
        }
    """)
    assert sorted((b.span.line, b.function) for b in facts.branches) == [(5, "level_one"), (6, "level_one")]


def test_a_function_called_with_uniform_arguments_does_not_diverge() -> None:
    facts = facts_of("""
        static float scaled(float x, int mode) { if (mode == 2) return 2 * x; return x; }
        void run(float *a, int n, int mode) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; ++i) a[i] = scaled(a[i], mode);
        }
    """)
    assert not facts.branches


def fortran_facts_of(code: str):
    return extract_fortran(SourceFile("t.f90", textwrap.dedent(code).encode()), fixed_form=False, config=Config())


def test_fortran_procedures_a_region_calls_are_followed_one_level() -> None:
    facts = fortran_facts_of("""
        module m
        contains
          real function limiter(x, lo, hi)
            real, intent(in) :: x, lo, hi
            limiter = x
            if (x < lo) then
              limiter = lo
            else if (x > hi) then
              limiter = hi
            end if
          end function limiter
          subroutine bump(y, k)
            real :: y
            integer :: k
            if (k > 2) y = y + weight(k)
          end subroutine bump
          real function weight(k)
            integer :: k
            weight = 1.0
            if (k > 3) weight = 2.0
          end function weight
          real function scaled(mode)
            integer :: mode
            scaled = 1.0
            if (mode == 2) scaled = 2.0
          end function scaled
          subroutine run(a, lim, n, lo, hi, mode)
            integer :: n, mode, i
            real :: a(n), lim(n), lo, hi
            !$omp target teams distribute parallel do map(tofrom: a) map(to: lim)
            do i = 1, n
              a(i) = limiter(a(i), lo, hi) * scaled(mode) + lim(i)
              call bump(a(i), i)
            end do
          end subroutine run
        end module m
    """)
    # limiter's chain and bump's test follow the lane; scaled is called with a shared value, `lim(i)`
    # is an array element, not a call, and weight is two levels down: not followed
    found = sorted((b.span.line, b.function) for b in facts.branches if b.dependence != "uniform")
    assert found == [(7, "limiter"), (9, "limiter"), (16, "bump")]
