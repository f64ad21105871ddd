"""KL707 oversized-map-section: a section provably larger than the range the region reaches, by how
much (elements, bytes, share) and what the unused part costs on the link."""

from __future__ import annotations

import pytest

from rule_helpers import XE_HPC_LINK, run_engine

HALF = """
    void k() {
      int A[100], B[100], s[100];
    #pragma omp target map(to: A[0:100], B[0:100]) map(from: s[0:100])
    #pragma omp parallel for
      for (int i = 0; i < 50; i++) s[i] = A[i] + B[i];
    }
"""


def test_kl707_counts_the_unused_elements_and_prices_them() -> None:
    found = run_engine(HALF, select="KL707")
    assert len(found) == 3
    first = found[0]
    assert "50 elements (200 bytes, 50% of the section) cross the link for nothing; map `A[0:50]`" in first.message
    # 50 ints = 200 B copied once (`to`) ÷ 63.008 GB/s = 3.17 ns per region
    assert first.cost is not None and first.cost.value == pytest.approx(200 / (XE_HPC_LINK * 1e9))
    assert first.evidence["unused_elements"] == 50 and first.evidence["unused_share"] == 0.5


def test_kl707_fixed_section_matches_the_loop() -> None:
    fixed = HALF.replace("[0:100]", "[0:50]")
    assert run_engine(fixed, select="KL707") == []


def test_kl707_symbolic_half_and_twice() -> None:
    code = """
        void k(const float *x, float *y, const float *z, float *w, int n) {
        #pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: y[0:n / 2])
          for (int i = 0; i < n / 2; ++i) y[i] = x[i];
        #pragma omp target teams distribute parallel for map(to: z[0:2 * n]) map(from: w[0:n])
          for (int i = 0; i < n; ++i) w[i] = z[i];
        }
    """
    found = {d.evidence["variable"]: d for d in run_engine(code, select="KL707")}
    assert set(found) == {"x", "z"}
    # x[0:n] against x[0] … x[n/2 - 1]: n − n/2 elements, about half, whatever n is
    assert found["x"].evidence["unused_share"] == 0.5 and "map `x[0:n / 2]`" in found["x"].message
    # z[0:2n] against z[0] … z[n - 1]: n of 2n elements
    assert found["z"].evidence["unused_share"] == 0.5 and "map `z[0:n]`" in found["z"].message
    assert found["x"].cost is not None and found["x"].cost.value is None  # n unknown: so are the bytes
    assert "about 50% of the section" in found["x"].cost.missing[0]


def test_kl707_threshold_and_slack() -> None:
    code = """
        void k(const float *x, float *y) {
        #pragma omp target teams distribute parallel for map(to: x[0:100]) map(from: y[0:100])
          for (int i = 0; i < 95; ++i) y[i] = x[i];
        }
    """
    assert run_engine(code, select="KL707") == []  # 5 % unused, below the 10 % default


@pytest.mark.parametrize(
    "loop",
    [
        "for (int i = 1; i < n - 1; ++i) y[i] = x[i - 1] + x[i + 1];",  # a stencil reaches both ends
        "for (int i = 0; i < n; ++i) y[i] = x[idx[i]];",  # an index loaded from memory
        "for (int i = 0; i < n / 2; ++i) { y[i] = x[i]; touch(x); }",  # passed on
        "for (int i = 0; i < n; i += 2) y[i] = x[i];",  # strided: spans the section
    ],
)
def test_kl707_silent_when_the_range_is_reached_or_unknown(loop: str) -> None:
    code = f"""
        void k(const float *x, float *y, const int *idx, int n) {{
        #pragma omp target teams distribute parallel for map(to: x[0:n], idx[0:n]) map(tofrom: y[0:n])
          {loop}
        }}
    """
    assert [d for d in run_engine(code, select="KL707") if d.evidence["variable"] == "x"] == []


def test_kl707_fortran_assumed_shape_against_size() -> None:
    code = """
        subroutine s(a, b, r)
          integer :: a(:), b(:), r(:)
          integer :: i
          !$omp target parallel do map(to: a, b) map(from: r)
          do i = 1, size(r, 1) / 2
            r(i) = a(i) + b(i)
          end do
          !$omp end target parallel do
        end subroutine s
    """
    found = run_engine(code, "k.f90", select="KL707")
    assert [d.evidence["variable"] for d in found] == ["r"]  # a and b may be shorter than r
    assert "map `r(1:size(r,1) / 2)`" in found[0].message
