"""KL501 divergent-branch: grading and lane estimates, boundary conditions on request (also from
configuration), else-if chains, ternaries, OpenMP in C and Fortran, and the lanes busy it costs."""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import CORPUS, REPO, run_rule
from kernlint.config import load_config
from kernlint.diagnostics import Severity
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.session import make_setup
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch
from rule_helpers import cost_at, run_engine


def lines(diagnostics) -> list[int]:
    return sorted(d.line for d in diagnostics)


BRANCHY = """
    void f(sycl::queue &q, float *d, int n) {
      q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] {
        size_t i = it.get_global_id(0);
        if (i % 2 == 0) d[i] = 1;
        if (i < n) d[i] += 1;
        d[i] = i % 2 ? d[i] : 0;
        if (it.get_group(0) == 0) d[0] = 0;
      });
    }
"""


def test_kl501_grades_a_cheap_parity_arm_info_with_a_lane_estimate() -> None:
    (diagnostic,) = run_rule(DivergentBranch, BRANCHY)
    assert diagnostic.line == 5 and diagnostic.severity is Severity.INFO
    assert "8 of 16 lanes" in diagnostic.message and diagnostic.evidence["class"] == "cheap-arms"
    assert diagnostic.evidence["reason"] == "parity" and diagnostic.evidence["sub_group_size"] == 16


def test_kl501_reports_boundary_conditions_as_info_only_when_asked() -> None:
    found = run_rule(DivergentBranch, BRANCHY, options={"report-boundary": True})
    assert [(d.line, d.severity) for d in found] == [(5, Severity.INFO), (6, Severity.INFO)]


def test_kl501_boundary_option_comes_from_configuration(tmp_path) -> None:
    (tmp_path / "kernlint.toml").write_text('select = ["KL501"]\n[rules.KL501]\n"report-boundary" = true\n')
    source = tmp_path / "k.cpp"
    source.write_text(textwrap.dedent(BRANCHY))
    setup = make_setup(load_config(tmp_path / "kernlint.toml"), use_cache=False)
    entries, _ = discover([str(source)], setup.config)
    found = analyse_file(entries[0], setup).diagnostics
    assert [(d.line, d.severity) for d in found] == [(5, Severity.INFO), (6, Severity.INFO)]


def test_kl501_reports_an_else_if_chain_once_unless_its_head_is_uniform() -> None:
    found = run_rule(
        DivergentBranch,
        """
        void f(sycl::queue &q, float *d, int n, int mode) {
          q.parallel_for(n, [=](size_t i) {
            if (d[i] < 0) d[i] = 0;
            else if (d[i] > 1) d[i] = 1;
            else if (i % 3 == 0) d[i] = 2;
            if (mode == 1) d[i] = 3;
            else if (i % 2) d[i] = 4;
          });
        }
    """,
    )
    assert lines(found) == [4, 8]


def test_kl501_flags_a_ternary_that_calls_device_code() -> None:
    found = run_rule(
        DivergentBranch,
        """
        float heavy(float v) { return sycl::exp(v) * sycl::log(v); }
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(n, [=](size_t i) {
            d[i] = d[i] > 0 ? heavy(d[i]) : d[i];
            d[i] = d[i] > 0 ? d[i] : -d[i];
          });
        }
    """,
    )
    assert lines(found) == [5]


def test_kl501_reports_openmp_branches_in_both_languages() -> None:
    c_code = """
        void k(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; ++i)
            if (i % 2) a[i] = 0;
        }
    """
    f_code = """
        subroutine k(a, n)
          integer :: n, i
          real :: a(n)
          !$omp target teams distribute parallel do map(tofrom: a)
          do i = 1, n
            if (mod(i, 2) == 1) a(i) = 0
          end do
        end subroutine
    """
    (c_finding,) = run_engine(c_code, select="KL501")
    (f_finding,) = run_engine(f_code, "k.f90", select="KL501")
    assert (c_finding.line, f_finding.line) == (5, 7)
    assert c_finding.evidence["reason"] == f_finding.evidence["reason"] == "parity"


def test_divergence_advice_is_worded_for_each_language() -> None:
    """OpenMP findings never recommend SYCL APIs: C gets `?:`, Fortran gets `merge`."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "kernlint", "corpus/openmp", "--select", "KL501", "--format", "json", "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(proc.stdout)["diagnostics"]
    assert findings and not any("sycl::" in d["message"] for d in findings)
    fortran = [d for d in findings if d["language"] == "openmp-fortran"]
    c_like = [d for d in findings if d["language"] == "openmp-c"]
    assert fortran and c_like
    assert not any("`?:`" in d["message"] for d in fortran)
    assert not any("`merge`" in d["message"] for d in c_like)


def test_kl501_lane_utilisation_through_the_engine() -> None:
    # kl501_branches.cpp:36: `if (lane & 1u)` in a kernel that requires sub-groups of 16: odd and even lanes
    # take different paths, which run one after the other: (8 + 8) busy lanes ÷ (2 × 16) = 50% busy.
    path = CORPUS / "sycl" / "kl501_branches.cpp"
    cost = cost_at(path, 36, "KL501")
    assert cost.value == pytest.approx(50.0) and cost.unit == "%"
    assert cost.score is None  # the branch's share of the kernel's time is not known


def test_an_outer_collapsed_index_is_said_to_straddle_rows_only_where_it_may() -> None:
    """A loop bound that depends only on the outer index of `collapse(2)` splits a sub-group only where
    one straddles two rows: a boundary, shown with report-boundary, and its message says why."""
    source = """
        void rows(const int *start, const float *v, float *out, int rows, int cols) {
        #pragma omp target teams distribute parallel for collapse(2) map(to: start[0:rows + 1], v[0:start[rows]]) \\
                map(from: out[0:rows * cols])
          for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
              float acc = 0.0f;
              for (int k = start[r]; k < start[r + 1]; k++) acc += v[k];
              out[r * cols + c] = acc;
            }
        }
    """
    assert run_rule(DivergentBranch, source, device=None, path="t.c") == []
    (d,) = run_rule(DivergentBranch, source, device=None, path="t.c", options={"report-boundary": True})
    assert d.severity is Severity.INFO and d.evidence["class"] == "boundary" and d.evidence["reason"] == "rows"
    assert "only a sub-group that straddles two rows diverges" in d.message


def test_the_prefix_loop_s_cost_follows_the_staggered_lanes() -> None:
    """`for (k = 0; k <= lid; ++k)` in work-groups of 256 (m = 8 sub-groups of 32): the lanes leave one
    iteration apart, (32 × 8 + 1) ÷ (32 × 9) = 89.2% busy, and the running sum names the group scan."""
    path = CORPUS / "sycl" / "kl501_worth_acting_on.cpp"
    cost = cost_at(path, 109, "KL501")
    assert cost.value == pytest.approx(100 * 257 / 288)
    tree = cost_at(path, 74, "KL501")  # one predicated statement a step: (32 − 1) ÷ (256 × 5)
    assert tree.value == pytest.approx(100 * 31 / (256 * 5))
