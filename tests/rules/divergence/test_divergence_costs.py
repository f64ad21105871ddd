"""The divergence family's cost builders: lane utilisation per lane estimate, what is missing, and
corpus branches by hand."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from kernlint.facts.device import LaneEstimate
from kernlint.frontends.cpp.frontend import extract
from kernlint_rules.divergence.costs import divergence_cost, divergent_barrier_cost


@pytest.mark.parametrize(
    ("lanes", "n", "busy"),
    [
        (LaneEstimate("split", 0.5), 16, 50.0),  # both paths in turn: 1/2
        (LaneEstimate("fraction", 0.25), 16, 25.0),  # `i % 4 == 0`
        (LaneEstimate("single"), 16, 100 / 16),  # `lid == 0`: 1 of 16 lanes
        (LaneEstimate("all-but-one"), 32, 100 * 31 / 32),
        (LaneEstimate("shrinking"), 16, 100 * 15 / (16 * 4)),  # (16 − 1) ÷ (16 × log2 16) = 23.4 %
        (LaneEstimate("growing"), 16, 100 * 15 / (16 * 4)),  # the same steps, run first instead of last
    ],
)
def test_divergence_cost_lane_utilisation(lanes: LaneEstimate, n: int, busy: float) -> None:
    cost = divergence_cost(lanes, n)
    assert cost.value == pytest.approx(busy) and cost.figures["idle_share"] == pytest.approx(1 - busy / 100)
    assert cost.score is None  # the branch's share of the kernel is unknown: ranked after scored findings


@pytest.mark.parametrize(
    ("kwargs", "busy", "basis"),
    [
        # a predicated tree step is issued by all 8 sub-groups of 256: (32 − 1) ÷ (256 × 5) = 2.42 %
        (
            {"lanes": LaneEstimate("shrinking"), "group_size": 256, "predicated": True},
            100 * 31 / 1280,
            "(32 − 1) ÷ (256 × 5)",
        ),
        # a branched (heavy) tree step: the sub-group formula, whatever the work-group
        ({"lanes": LaneEstimate("shrinking"), "group_size": 256}, 100 * 31 / 160, "(32 − 1) ÷ (32 × 5)"),
        # a scan's down-sweep: its first 5 steps run within one sub-group
        ({"lanes": LaneEstimate("growing"), "group_size": 256}, 100 * 31 / 160, "in the first 5 steps"),
        ({"lanes": LaneEstimate("shrinking"), "group_size": 256}, 100 * 31 / 160, "in the last 5 steps"),
        # `k <= lid` over 8 sub-groups: Σ (lid + 1) ÷ (32 × Σ 32·(w + 1)) = 257 ÷ 288 = 89.2 %
        ({"lanes": LaneEstimate("staggered"), "group_size": 256, "scope": "local"}, 100 * 257 / 288, "(32 × 8 + 1)"),
        # one sub-group (or the work-group size unknown): (32 + 1) ÷ (2 × 32) = 51.6 %
        ({"lanes": LaneEstimate("staggered"), "scope": "local"}, 100 * 33 / 64, "(32 × 1 + 1)"),
        ({"lanes": LaneEstimate("staggered"), "scope": "lane"}, 100 * 33 / 64, "over a sub-group"),
    ],
)
def test_tree_and_staggered_lane_utilisation(kwargs: dict, busy: float, basis: str) -> None:
    lanes = kwargs.pop("lanes")
    cost = divergence_cost(lanes, 32, **kwargs)
    assert cost.value == pytest.approx(busy) and basis in cost.basis


def test_a_staggered_loop_over_the_global_id_has_no_lane_figure() -> None:
    cost = divergence_cost(LaneEstimate("staggered"), 32, scope="global")
    assert cost.value is None and "imbalance between sub-groups" in cost.basis


def test_divergence_cost_names_what_is_missing() -> None:
    assert divergence_cost(LaneEstimate("single"), None).missing == ("the sub-group size",)
    assert divergence_cost(None, 16).missing == ("the lane estimate",)
    edge = divergence_cost(LaneEstimate("edge"), 16)
    assert edge.value is None and "straddles" in edge.basis


def test_kl501_kl502_costs_from_corpus_branches() -> None:
    path = CORPUS / "sycl" / "kl501_branches.cpp"
    facts = extract(str(path), path.read_bytes())
    quarter = next(b for b in facts.branches if b.span.line == 61)  # a condition one lane in four takes
    assert divergence_cost(quarter.lanes, 32).value == pytest.approx(25.0)
    barrier = divergent_barrier_cost(LaneEstimate("single"), 16, "xe-hpc")
    assert barrier.score == 1.0 and barrier.figures["lanes_busy_pct"] == pytest.approx(6.25)
