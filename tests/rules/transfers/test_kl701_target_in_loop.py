"""KL701 target-in-loop: which arrays a target region in a host loop copies for nothing (none kept on
the device, none the host needs in the loop), one call level, and the bytes per iteration × trips."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from rule_helpers import XE_HPC_LINK, cost_at, run_engine


def kl701(code: str, path: str = "k.c") -> list:
    return run_engine(code, path, select="KL701")


def test_implicitly_mapped_arrays_cost_their_copies_per_iteration() -> None:
    # corpus jacobi(): float grid[N], next_grid[N] with N = 4096, mapped tofrom without a clause, in a
    # loop of STEPS = 200. Each array: 4096 × 4 B = 16,384 B, in and back: 4 × 16,384 = 65,536 B per
    # iteration ÷ 63.008 GB/s = 1.04 µs; × 200 = 208 µs per loop on xe-hpc.
    cost = cost_at(CORPUS / "openmp" / "kl701_target_in_loop.c", 19, "KL701")
    assert cost.figures["bytes"] == 65536 and cost.figures["repeats"] == 200
    assert cost.value == pytest.approx(200 * 65536 / (XE_HPC_LINK * 1e9))
    assert cost.score == pytest.approx(1 - 1 / 200)


def test_only_the_needless_direction_of_each_array_is_counted() -> None:
    (found,) = kl701(
        """
        #define N 1024
        void run(float *a, float *b, int steps) {
          for (int s = 0; s < 10; ++s) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:N]) map(to: b[0:N])
            for (int i = 0; i < N; ++i) a[i] += b[i];
            b[0] = a[0];
          }
        }
        """
    )
    # The host reads a (its copy back is needed) and writes b (its copy in is needed): what is left is
    # a's copy in, 1024 × 4 = 4,096 B per iteration; b has no needless copy.
    assert found.evidence["mapped"] == [
        {"item": "a[0:N]", "map_type": "tofrom", "copy_in": True, "copy_out": False, "bytes": 4096}
    ]
    assert found.cost.value == pytest.approx(10 * 4096 / (XE_HPC_LINK * 1e9))
    assert "`a[0:N]` to the device each time" in found.message


def test_kept_data_is_not_reported() -> None:
    base = """
        #define N 1024
        void run(float *a, int steps) {{
          {before}
          for (int s = 0; s < steps; ++s) {{
        #pragma omp target teams distribute parallel for {clause}
            for (int i = 0; i < N; ++i) a[i] += 1.0f;
          }}
        }}
        """
    assert kl701(base.format(before="", clause="map(tofrom: a[0:N])"))  # the problem itself
    for before, clause in [
        ("#pragma omp target enter data map(to: a[0:N])", "map(tofrom: a[0:N])"),
        ("", "map(present, tofrom: a[0:N])"),
        ("", "map(always, tofrom: a[0:N])"),
        ("", "map(alloc: a[0:N])"),
        ("", "is_device_ptr(a)"),
        ("#pragma omp declare target(a)", "map(tofrom: a[0:N])"),
    ]:
        assert kl701(base.format(before=before, clause=clause)) == [], (before, clause)


def test_one_call_level_names_the_caller_s_arrays_and_honours_its_data_region() -> None:
    code = """
        static void scale(float *x, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
          for (int i = 0; i < n; ++i) x[i] *= 0.5f;
        }
        void loose(float *field, int n, int steps) {
          for (int s = 0; s < steps; ++s) scale(field, n);
        }
        void kept(float *field, int n, int steps) {
        #pragma omp target data map(tofrom: field[0:n])
          for (int s = 0; s < steps; ++s) scale(field, n);
        }
        """
    (found,) = kl701(code)
    assert found.line == 3 and found.evidence["callee"] == "scale" and found.evidence["loop_line"] == 7
    assert "through the call of `scale` at line 7" in found.message and "`field` (tofrom)" in found.message


def test_fortran_arrays_are_mapped_tofrom_without_a_clause() -> None:
    found = run_engine((CORPUS / "openmp" / "kl701_target_in_loop.f90").read_text(), "k.f90", select="KL701")
    assert [(d.line, [m["item"] for m in d.evidence["mapped"]]) for d in found] == [
        (10, ["t", "tn"]),
        (15, ["tn", "t"]),
    ]
    assert found[0].message.startswith(
        "`!$omp target teams distribute parallel do` runs on every iteration of the `do` loop"
    )
    assert "!$omp target data map(tofrom: t) map(tofrom: tn)" in found[0].message


def test_fortran_names_match_whatever_their_case() -> None:
    # `A` mapped by the clause and `a` in the host code are one variable: a `target data` mapping `a`
    # keeps `A` resident (no finding in the second loop); the first loop copies A (4096 × 4 = 16,384 B)
    # in and back and B in: 3 × 16,384 = 49,152 B per iteration, × 100 = 4,915,200 B ÷ 63.008 GB/s.
    code = """
program up
  integer, parameter :: N = 4096
  real :: A(N), B(N)
  integer :: it, i
  do it = 1, 100
    !$omp target teams distribute parallel do map(tofrom: A) map(to: B)
    do i = 1, N
      a(i) = a(i) + b(i)
    end do
  end do
  !$omp target data map(tofrom: a) map(to: b)
  do it = 1, 100
    !$omp target teams distribute parallel do map(tofrom: A) map(to: B)
    do i = 1, N
      A(i) = A(i) + B(i)
    end do
  end do
  !$omp end target data
end program up
"""
    (found,) = kl701(code, "up.f90")
    assert found.line == 7
    assert found.cost is not None and found.cost.figures["bytes"] == 49152
    assert found.cost.value == pytest.approx(100 * 49152 / (XE_HPC_LINK * 1e9))
