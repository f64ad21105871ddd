"""KL204 unsupported-sub-group-size: support per device, and the cost of a kernel that cannot run."""

from __future__ import annotations

from launch_kernels import launch_1d

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.launch.kl204_unsupported_sub_group_size import UnsupportedSubGroupSize
from rule_helpers import cost_at


def test_kl204_per_device_support():
    code = launch_1d(256, "[[intel::reqd_sub_group_size(8)]]")
    assert run_rule(UnsupportedSubGroupSize, code, "xe-lp") == []
    (diagnostic,) = run_rule(UnsupportedSubGroupSize, code, "xe-hpc")
    assert diagnostic.severity is Severity.ERROR and diagnostic.evidence["supported_sub_group_sizes"] == [32, 16]
    assert diagnostic.evidence["occupancy"]["valid"] is False
    assert diagnostic.evidence["occupancy"]["limiter"] == "sub-group-size"
    assert [
        d.code for d in run_rule(UnsupportedSubGroupSize, launch_1d(256, "[[intel::reqd_sub_group_size(16)]]"), "h100")
    ] == ["KL204"]


def test_kl204_is_a_failure() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl202_low_occupancy.cpp", 13, "KL204")
    assert (cost.value, cost.score) == (100.0, 1.0)
