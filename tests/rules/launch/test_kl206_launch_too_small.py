"""KL206 launch-too-small: the guide's VectorAdd2 on Xe-LP, the threshold and full waves, and the idle
share of the GPU it costs."""

from __future__ import annotations

import pytest

from conftest import CORPUS, run_rule
from kernlint.occupancy import compute, load_device
from kernlint_rules.launch.kl206_launch_too_small import LaunchTooSmall
from rule_helpers import cost_at

VECTOR_ADD2 = """
    template <int groups>
    void add(sycl::queue &q, const int *a, int *s) {
      size_t num_groups = groups;
      size_t wg_size = 512;
      q.submit([&](auto &h) {
        h.parallel_for(sycl::nd_range<1>(num_groups * wg_size, wg_size),
                       [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] { s[0] = a[0]; });
      });
    }
    void run_rule(sycl::queue &q, const int *a, int *s) { add<GROUPS>(q, a, s); }
"""


def test_kl206_vector_add2_of_one_group_is_2_4_percent_of_xe_lp():
    (diagnostic,) = run_rule(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "1"), "xe-lp")
    report = compute(load_device("xe-lp"), wg=(512,), sg=32, global_size=(512,))
    assert diagnostic.evidence["occupancy"] == report.to_json()
    assert report.peak_occupancy_pct == pytest.approx(100 * 16 / 672)
    assert "2.4%" in diagnostic.message and diagnostic.evidence["work_groups_per_full_wave"] == 42


def test_kl206_threshold_and_full_waves():
    assert (
        run_rule(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "1"), "xe-lp", options={"min-gpu-occupancy-pct": 2.0})
        == []
    )
    assert run_rule(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "12"), "xe-lp") == []  # 28.6 %
    assert len(run_rule(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "8"), "xe-lp")) == 1  # 19 %
    assert run_rule(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "44"), "xe-lp") == []  # more than a wave
    two = VECTOR_ADD2.replace("GROUPS", "1") + "void again(sycl::queue &q, const int *a, int *s) { add<2>(q, a, s); }"
    assert run_rule(LaunchTooSmall, two, "xe-lp") == []  # groups no longer a constant


def test_kl206_idle_share_of_the_gpu() -> None:
    # The guide's VectorAdd2<1> on xe-hpc: 1 work-group of 512 at sub-group 32 = 16 threads busy of the
    # GPU's 128 × 64 = 8,192: 16/8192 = 0.195 % busy, 99.80 % idle.
    cost = cost_at(CORPUS / "sycl" / "kl206_launch_too_small.cpp", 15, "KL206")
    assert cost.value == pytest.approx(100 - 100 * 16 / 8192)
