"""OpenMP device code behind calls (issue 20): a `declare target` function, or one a target region
calls, is device code; a device parallel region is followed one call level into the file's functions."""

from __future__ import annotations

import textwrap

from kernlint.frontends.cpp.frontend import extract


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
