"""KL706 unused-map: a mapped variable the region provably never uses, priced as its bytes × copies ÷
the host link; silent wherever a use could hide."""

from __future__ import annotations

import pytest

from rule_helpers import A100_LINK, XE_HPC_LINK, run_engine

UNUSED = """
    void k(const double *a, const double *b, double *c) {
    #pragma omp target teams distribute parallel for schedule(auto) shared(a, b) \\
        map(to: a[0:1024], b[0:1024]) map(tofrom: c[0:1024])
      for (int i = 0; i < 1024; i++) c[i] += a[i];
    }
"""


def test_kl706_cost_is_bytes_times_copies_over_the_link() -> None:
    (finding,) = run_engine(UNUSED, select="KL706")
    assert finding.line == 4 and "`b[0:1024]` (8,192 bytes) to the device" in finding.message
    # 1,024 doubles = 8,192 B, copied once (`to`) ÷ 63.008 GB/s (xe-hpc, PCIe 5.0 x16) = 130 ns
    assert finding.cost is not None and finding.cost.value == pytest.approx(8192 / (XE_HPC_LINK * 1e9))
    # map(b) is tofrom: two copies; on a100's PCIe 4.0 x16 link, 2 × 8,192 B ÷ 31.504 GB/s = 520 ns
    both = UNUSED.replace("map(to: a[0:1024], b[0:1024])", "map(to: a[0:1024]) map(b[0:1024])")
    (both_ways,) = run_engine(both, device="a100", select="KL706")
    assert both_ways.cost is not None and both_ways.cost.value == pytest.approx(2 * 8192 / (A100_LINK * 1e9))
    assert "to the device and back" in both_ways.message


def test_kl706_fixed_form_has_nothing_to_say() -> None:
    fixed = UNUSED.replace("shared(a, b)", "shared(a)").replace("map(to: a[0:1024], b[0:1024])", "map(to: a[0:1024])")
    assert run_engine(fixed, select="KL706") == []


@pytest.mark.parametrize(
    "region",
    [
        "for (int i = 0; i < 1024; i++) c[i] += a[i] + b[i];",  # used
        "for (int i = 0; i < 1024; i++) c[i] += a[i] + AT(i);",  # a header macro may name b
        '{ asm volatile("" ::: "memory"); for (int i = 0; i < 1024; i++) c[i] += a[i]; }',
        "for (int i = 0; i < 1024; i++) c[i] += a[i] * scale(b, i);",  # passed on
    ],
)
def test_kl706_silent_when_a_use_may_hide(region: str) -> None:
    code = UNUSED.replace("for (int i = 0; i < 1024; i++) c[i] += a[i];", region)
    assert run_engine(code, select="KL706") == []


def test_kl706_nested_clauses_and_enclosing_maps_are_uses() -> None:
    code = """
        void k(float *a, float *b, float *c, int n) {
        #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
          {
        #pragma omp target update to(b[0:n])
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
            for (int i = 0; i < n; ++i) a[i] *= 2.0f;
          }
        #pragma omp target teams distribute parallel for map(to: c[0:n]) map(tofrom: a[0:n]) if (c != 0)
          for (int i = 0; i < n; ++i) a[i] += 1.0f;
        }
    """
    assert run_engine(code, select="KL706") == []


def test_kl706_global_reached_by_an_unseen_call_and_declare_target() -> None:
    code = """
        float table[64], coeffs[64];
        #pragma omp declare target(coeffs)
        float lookup(int i);
        void k(float *out, int n) {
        #pragma omp target teams distribute parallel for map(to: table, coeffs) map(from: out[0:n])
          for (int i = 0; i < n; ++i) out[i] = lookup(i);
        }
    """
    assert run_engine(code, select="KL706") == []


def test_kl706_fortran_unused_scalar_of_a_target_data_region() -> None:
    code = """
        subroutine s(u, w, n)
          integer :: n, i
          real(kind=8) :: u(n), w
          !$omp target data map(tofrom: u) map(to: w)
          !$omp target teams distribute parallel do
          do i = 1, n
            u(i) = 2.0d0 * u(i)
          end do
          !$omp end target data
        end subroutine s
    """
    (finding,) = run_engine(code, "k.f90", select="KL706")
    # w is one real(kind=8): 8 bytes once to the device ÷ 63.008 GB/s
    assert "(8 bytes)" in finding.message and finding.cost is not None
    assert finding.cost.value == pytest.approx(8 / (XE_HPC_LINK * 1e9))


def test_kl706_a_pointer_stored_outside_the_region_may_be_read_by_a_call_inside() -> None:
    code = """
        float *g_field;
        void run(int n);
        void k(float *a, int n) {
          g_field = a;
        #pragma omp target data map(to: a[0:n])
          { run(n); }
        }
    """
    assert run_engine(code, select="KL706") == []
    assert [d.code for d in run_engine(code.replace("g_field = a;", ""), select="KL706")] == ["KL706"]
