"""The cost of copies on the host link (`kernlint.transfer_cost`), shared by the data and transfers
families: the slowest link is the headline, integrated GPUs quote none, an unknown link stays unknown."""

from __future__ import annotations

import pytest

from kernlint.occupancy import load_device
from kernlint.transfer_cost import transfer_cost
from rule_helpers import A100_LINK


def test_transfer_headline_is_the_slowest_link_and_integrated_gpus_quote_none() -> None:
    devices = [load_device("xe-hpc"), load_device("xe-lp"), load_device("a100")]
    cost = transfer_cost(devices, 1 << 20, 2, per="per iteration")
    # 2 × 1,048,576 B ÷ 31.504 GB/s (a100, PCIe 4.0 x16) = 66.57 µs; xe-hpc's Gen5 link halves it.
    assert cost.device == "a100" and cost.value == pytest.approx(2 * 1048576 / (A100_LINK * 1e9))
    assert cost.figures["per_device"]["xe-lp"].startswith("integrated")
    only_integrated = transfer_cost([load_device("xe-lp")], 1 << 20, 2, per="per iteration")
    assert only_integrated.value is None and "may not be copied at all" in only_integrated.basis
    unknown = transfer_cost([load_device("arc-a550")], 1 << 20, 1, per="per submission")
    assert unknown.value is None and "host-link bandwidth" in unknown.missing[-1]
