"""KL209 target-without-teams: a target region that work-shares its loop with no teams runs one team,
on one Xe-core/SM; its cost is the rest of the GPU, from the device profile."""

from __future__ import annotations

import pytest

from kernlint.occupancy import load_device
from kernlint_rules.launch.kl209_target_without_teams import one_team_cost
from rule_helpers import run_engine

STACKED = """
    void k(const float *x, float *y, int n) {
    #pragma omp target map(to: x[0:n]) map(from: y[0:n])
    #pragma omp parallel for
      for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i];
    }
"""


@pytest.mark.parametrize("device, units", [("xe-hpc", 128), ("h100", 132), ("a100", 108), ("xe-lp", 6)])
def test_kl209_costs_all_but_one_xe_core_or_sm(device: str, units: int) -> None:
    (finding,) = run_engine(STACKED, device=device, select="KL209")
    cost = finding.cost
    assert cost is not None and cost.unit == "%"
    # one team = one work-group on one of the device's Xe-cores/SMs: 100 % × (1 − 1/units) idle
    assert cost.value == pytest.approx(100 * (1 - 1 / units))
    assert cost.score == pytest.approx(1 - 1 / units)
    assert cost.figures == {"units": units, "busy_units": 1}
    assert f"on 1 of {device}'s {units}" in finding.message
    assert "target teams distribute parallel for" in finding.message


def test_kl209_xe_hpc_figure_is_99_2_percent() -> None:
    # 100 % × (1 − 1/128) = 99.21875 %
    assert one_team_cost(load_device("xe-hpc")).value == pytest.approx(99.21875)
    assert "99.22%" in one_team_cost(load_device("xe-hpc")).basis


@pytest.mark.parametrize(
    "code",
    [
        # a `parallel` region with an orphan-looking `for` inside the target, as separate directives
        """
        void k(double (*a)[64], double (*c)[64]) {
        #pragma omp target map(to: a[0:64][0:64]) map(tofrom: c[0:64][0:64])
          {
        #pragma omp parallel shared(a, c)
            {
        #pragma omp for schedule(auto)
              for (int i = 0; i < 64; i++)
                for (int j = 0; j < 64; j++) c[i][j] += a[i][j];
            }
          }
        }
        """,
        "void k(float *y, int n) {\n#pragma omp target parallel for map(tofrom: y[0:n])\n"
        "  for (int i = 0; i < n; ++i) y[i] += 1.0f;\n}\n",
    ],
)
def test_kl209_reports_parallel_worksharing_without_teams(code: str) -> None:
    assert [d.code for d in run_engine(code, select="KL209")] == ["KL209"]


@pytest.mark.parametrize(
    "code",
    [
        STACKED.replace("parallel for", "teams distribute parallel for"),
        STACKED.replace("#pragma omp target map", "#pragma omp target teams distribute parallel for map").replace(
            "#pragma omp parallel for\n", ""
        ),
        # teams written as a block inside the region, the parallel loop inside it
        """
        void k(float *y, int n, int m) {
        #pragma omp target map(tofrom: y[0:n * m])
        #pragma omp teams num_teams(n)
          {
        #pragma omp distribute
            for (int b = 0; b < n; ++b) {
        #pragma omp parallel for
              for (int i = 0; i < m; ++i) y[b * m + i] += 1.0f;
            }
          }
        }
        """,
        # no worksharing loop: a single thread's scalar work, or a simd loop
        "void k(double *s) {\n#pragma omp target map(from: s[0:1])\n  s[0] = 0.0;\n}\n",
        "void k(float *y, int n) {\n#pragma omp target simd map(tofrom: y[0:n])\n"
        "  for (int i = 0; i < n; ++i) y[i] += 1.0f;\n}\n",
    ],
)
def test_kl209_silent_with_teams_or_without_worksharing(code: str) -> None:
    assert run_engine(code, select="KL209") == []


def test_kl209_fortran_target_parallel_do_pair() -> None:
    code = """
        subroutine s(a, c, n)
          integer :: n, i
          real :: a(n), c(n)
          !$omp target map(to: a) map(tofrom: c)
          !$omp parallel private(i)
          !$omp do
          do i = 1, n
            c(i) = c(i) + a(i)
          end do
          !$omp end do
          !$omp end parallel
          !$omp end target
        end subroutine s
    """
    (finding,) = run_engine(code, "k.f90", select="KL209")
    assert finding.line == 5 and "target teams distribute parallel do" in finding.message
    with_teams = code.replace("!$omp target map(to: a)", "!$omp target teams map(to: a)")
    assert run_engine(with_teams, "k.f90", select="KL209") == []
