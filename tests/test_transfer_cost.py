"""The cost of copies on the host link and of waits (`kernlint.transfer_cost`), shared by the data and
transfers families: the slowest link is the headline, integrated GPUs quote none, an unknown link stays
unknown; a wait costs the measured launch/sync latency per iteration, and nothing where none was measured."""

from __future__ import annotations

import pytest

from kernlint.occupancy import load_device
from kernlint.occupancy.host import parse_host
from kernlint.transfer_cost import sync_cost, transfer_cost
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


def test_sync_cost_is_the_measured_latency_times_the_iterations() -> None:
    h100 = load_device("h100")
    assert h100.host.sync_latency_us == 7.5
    per_loop = sync_cost([h100], repeats=40)
    # 40 iterations × 7.5 µs = 300 µs per loop; 39 of the 40 waits are needless.
    assert per_loop.value == pytest.approx(40 * 7.5e-6) and per_loop.score == pytest.approx(39 / 40)
    assert per_loop.basis == "7.5 µs per wait × 40 iterations = 300 µs"
    per_iteration = sync_cost([h100], repeats=None, bound="reps")
    assert per_iteration.value == pytest.approx(7.5e-6)
    assert per_iteration.missing == ("the loop's trip count (`reps`) (for the per-loop total)",)
    unmeasured = sync_cost([load_device("xe-hpc")], repeats=40)
    assert unmeasured.value is None and unmeasured.phrase().startswith("not in the device model:")


def test_a_profile_states_its_latency_as_a_positive_number(tmp_path) -> None:
    good = parse_host(
        {"attachment": "pcie", "pcie_generation": 4, "pcie_lanes": 16, "sync_latency_us": 9, "source": "x"}
    )
    assert good.sync_latency_us == 9.0 and good.to_json()["sync_latency_us"] == 9.0
    with pytest.raises(ValueError, match="sync_latency_us"):
        parse_host({"attachment": "pcie", "sync_latency_us": -1, "source": "x"})
    assert parse_host({"attachment": "integrated", "sync_latency_us": 4, "source": "x"}).sync_latency_us == 4.0
