"""KL203 partial-sub-group: with and without a required sub-group size, and the idle lanes it costs."""

from __future__ import annotations

import pytest
from launch_kernels import launch_1d

from conftest import CORPUS, run_rule
from kernlint.occupancy import compute, load_device
from kernlint_rules.launch.kl203_partial_sub_group import PartialSubGroup
from rule_helpers import cost_at


def test_kl203_without_a_required_size_only_when_no_supported_size_divides():
    assert run_rule(PartialSubGroup, launch_1d(48), "xe-hpc") == []  # SIMD16 divides 48
    (diagnostic,) = run_rule(PartialSubGroup, launch_1d(48), "h100")
    assert diagnostic.evidence["idle_lanes"] == 16 and diagnostic.evidence["lanes"] == 64
    (diagnostic,) = run_rule(PartialSubGroup, launch_1d(100), "xe-lp")
    assert diagnostic.evidence["idle_lanes"] == 4 * 32 - 100 and "assumed" in diagnostic.message
    assert diagnostic.evidence["occupancy"] == compute(load_device("xe-lp"), wg=(100,)).to_json()


def test_kl203_with_a_required_size():
    (diagnostic,) = run_rule(PartialSubGroup, launch_1d(48, "[[intel::reqd_sub_group_size(32)]]"), "xe-hpc")
    assert "required by the kernel" in diagnostic.message and "(32 or 64)" in diagnostic.message
    assert run_rule(PartialSubGroup, launch_1d(64, "[[intel::reqd_sub_group_size(32)]]"), "xe-hpc") == []


def test_kl203_idle_lanes() -> None:
    # 100 work-items at sub-group 32 on xe-hpc: ceil(100/32) = 4 threads × 32 = 128 lanes, 28 idle.
    cost = cost_at(CORPUS / "sycl" / "kl203_partial_sub_group.cpp", 11, "KL203")
    assert cost.value == pytest.approx(100 * 28 / 128) and cost.score == pytest.approx(28 / 128)
