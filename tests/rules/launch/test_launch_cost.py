"""The launch family's shared cost builder (`launch_cost`, KL202 and KL206): idle share, waves and tail."""

from __future__ import annotations

import pytest

from kernlint.occupancy import compute, load_device
from kernlint_rules.launch.costs import launch_cost


def test_launch_cost_idle_share_waves_and_tail() -> None:
    # xe-lp: 512 work-items at sub-group 32 = 16 threads; 7 work-groups fill an Xe-core's 112 threads
    # (100 %); 16,384 items = 32 work-groups over 6 Xe-cores × 7 = 42 per wave: 32/42 = 0.762 waves,
    # so the average occupancy over the one wave slot is 76.19 % and 23.81 % of the GPU idles.
    report = compute(load_device("xe-lp"), wg=512, sg=32, global_size=16384)
    cost = launch_cost(report)
    assert cost.value == pytest.approx(100 - 100 * 32 / 42)
    assert cost.figures["waves"] == pytest.approx(32 / 42) and cost.figures["full_waves"] == 0
    assert cost.figures["tail_fill_pct"] == pytest.approx(100 * 32 / 42)
    assert launch_cost(compute(load_device("xe-lp"), wg=1024)).score == 1.0  # cannot launch
