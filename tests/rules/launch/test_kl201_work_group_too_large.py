"""KL201 work-group-too-large: the device-limit check, SYCL launches (a lower bound when a dimension is
unknown, functors), OpenMP `thread_limit` clamps, and the cost of a failing launch."""

from __future__ import annotations

import pytest
from launch_kernels import barrier_kernel

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint.occupancy import compute, load_device
from kernlint_rules.launch.kl201_work_group_too_large import WorkGroupTooLarge
from kernlint_rules.launch.limits import work_group_too_large
from rule_helpers import cost_at, run_engine


def test_shared_work_group_limit_check_is_exclusive_at_the_maximum():
    xe_lp = load_device("xe-lp")
    assert work_group_too_large(xe_lp, 512) is None
    finding = work_group_too_large(xe_lp, 513)
    assert finding is not None and finding.maximum == 512 and finding.device == "xe-lp"
    assert "thread_limit(513)" in finding.message("thread_limit(513)") and "fails" in finding.message("x")
    assert work_group_too_large(load_device("h100"), 1024) is None


def test_kl201_guide_r5_fails_on_xe_lp_and_gen9_only():
    code = barrier_kernel("{1, 5, 128}", global_="{64, 80, 128}")
    assert [d.code for d in run_rule(WorkGroupTooLarge, code, "xe-lp")] == ["KL201"]
    assert [d.code for d in run_rule(WorkGroupTooLarge, code, "gen9")] == ["KL201"]
    assert run_rule(WorkGroupTooLarge, code, "xe-hpc") == []
    diagnostic = run_rule(WorkGroupTooLarge, code, "xe-lp")[0]
    assert diagnostic.severity is Severity.ERROR and diagnostic.line == 5
    assert "640 work-items" in diagnostic.message and "512" in diagnostic.message
    assert diagnostic.evidence["occupancy"] == compute(load_device("xe-lp"), wg=(1, 5, 128)).to_json()


def test_kl201_reports_a_lower_bound_when_one_dimension_is_unknown():
    code = """
        void k(sycl::queue &q, float *x, size_t rows, size_t n) {
          q.parallel_for(sycl::nd_range<2>(sycl::range<2>(n, n), sycl::range<2>(rows, 1024)),
                         [=](sycl::nd_item<2> it) { x[0] = 0.0f; });
        }
    """
    (diagnostic,) = run_rule(WorkGroupTooLarge, code, "xe-lp")
    assert "at least 1024" in diagnostic.message and diagnostic.evidence["exact"] is False
    assert run_rule(WorkGroupTooLarge, code.replace("1024", "512"), "xe-lp") == []


def test_kl201_reads_reqd_work_group_size_of_a_functor():
    code = """
        struct K { [[sycl::reqd_work_group_size(8, 8, 8)]] void operator()(sycl::nd_item<3> it) const {} };
        void k(sycl::queue &q) { q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<3>(64, 64, 64), K{}); }); }
    """
    (diagnostic,) = run_rule(WorkGroupTooLarge, code, "gen9")
    assert "reqd_work_group_size(8, 8, 8)" in diagnostic.message
    assert run_rule(WorkGroupTooLarge, code, "xe-lp") == []


@pytest.mark.parametrize(
    "limit, step, simd, device, expected",
    [
        ("2048", "1", "", "xe-hpc", 1024),  # SPMD: clamped to the device maximum
        ("1024", "1", "", "xe-hpc", None),
        ("1024", "1", "", "xe-lp", 512),
        ("1024", "16", "simdlen(16)", "xe-hpc", 64),  # SIMD model: counts threads of 16 lanes
        ("64", "16", "simdlen(16)", "xe-hpc", None),
        ("1024", "1", "simdlen(16)", "xe-hpc", None),  # unit-stride parallel loop: not the SIMD model
    ],
)
def test_kl201_thread_limit(limit: str, step: str, simd: str, device: str, expected: int | None) -> None:
    code = f"""
        void k(float *a, int n) {{
        #pragma omp target teams distribute parallel for thread_limit({limit}) map(tofrom: a[0:n])
          for (int i = 0; i < n; i += {step}) {{
        #pragma omp simd {simd}
            for (int v = 0; v < 16; ++v) a[i] += v;
          }}
        }}
    """
    found = run_engine(code, device=device, select="KL201")
    if expected is None:
        assert found == []
    else:
        (finding,) = found
        assert finding.severity.value == "warning" and finding.evidence["clamped_to"] == expected
        assert "clamps" in finding.message and finding.device == device


def test_kl201_failures_and_the_openmp_clamp() -> None:
    # (1, 5, 128) = 640 work-items on xe-lp, whose maximum is 512: the launch fails.
    cost = cost_at(CORPUS / "sycl" / "kl201_work_group_too_large.cpp", 12, "KL201", "xe-lp")
    assert (cost.value, cost.score) == (100.0, 1.0) and "640 > 512" in cost.basis
    # thread_limit(2048) on xe-hpc is clamped to 1024, not failed: what that costs is not in the model.
    cost = cost_at(CORPUS / "openmp" / "kl201_thread_limit.c", 9, "KL201")
    assert cost.value is None and cost.figures == {"requested": 2048, "clamped_to": 1024}
