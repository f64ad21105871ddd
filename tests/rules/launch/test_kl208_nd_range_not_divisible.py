"""KL208 nd-range-not-divisible: the dimension named, and the cost of a launch that throws."""

from __future__ import annotations

from conftest import CORPUS, run_rule
from kernlint_rules.launch.kl208_nd_range_not_divisible import NdRangeNotDivisible
from rule_helpers import cost_at


def test_kl208_names_the_dimension():
    code = """
        void k(sycl::queue &q, float *x) {
          q.parallel_for(sycl::nd_range<2>({1024, 1000}, {16, 16}), [=](sycl::nd_item<2> it) { x[0] = 0; });
        }
    """
    (diagnostic,) = run_rule(NdRangeNotDivisible, code, None)
    assert diagnostic.evidence["dimension"] == 1 and "1008" in diagnostic.message
    assert run_rule(NdRangeNotDivisible, code.replace("1000", "1008"), None) == []


def test_kl208_is_a_failure() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl208_nd_range_not_divisible.cpp", 11, "KL208")
    assert cost.score == 1.0 and "64 is not a multiple of 3" in cost.basis
