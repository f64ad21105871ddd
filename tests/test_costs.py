"""Cost estimates: the host side of the device profiles, the cost type, ranking and totals, `explain`,
and costs in every report. Each rule's cost builders are tested with the rule, in tests/rules/<family>/."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from conftest import CORPUS
from kernlint.cost import Cost, by_cost, format_bytes, format_seconds, most_expensive, totals
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.explain import derivation, findings_at, parse_location
from kernlint.occupancy import DeviceError, load_device
from kernlint.occupancy.host import PCIE_GB_PER_S_PER_LANE
from rule_helpers import A100_LINK, GEN4_LANE, GEN5_LANE, XE_HPC_LINK, findings

# -- device profiles: the host side ----------------------------------------------------------------------


def test_pcie_link_is_the_guides_per_lane_figure_times_the_lanes() -> None:
    assert PCIE_GB_PER_S_PER_LANE[5] == GEN5_LANE and PCIE_GB_PER_S_PER_LANE[4] == GEN4_LANE
    assert load_device("xe-hpc").host.link_gb_per_s == pytest.approx(XE_HPC_LINK)  # ≈ 63 GB/s
    assert load_device("a100").host.link_gb_per_s == pytest.approx(A100_LINK)
    assert load_device("xe2-hpg").host.link_gb_per_s == pytest.approx(8 * GEN4_LANE)  # B580: PCIe 4.0 x8
    assert load_device("h100").host.link_name() == "PCIe 5.0 x16"
    assert load_device("xe-hpc").host.memory_gb_per_s == 3276.8


@pytest.mark.parametrize("device", ["gen9", "gen11", "xe-lp", "xe-lpg", "xe2-lpg"])
def test_integrated_gpus_share_host_memory_and_have_no_link(device: str) -> None:
    host = load_device(device).host
    assert host.integrated and host.link_gb_per_s is None and host.pcie_lanes is None
    assert host.source


def test_unknown_host_side_stays_unknown() -> None:
    host = load_device("arc-a550").host  # the calculator's entry; no host figures known with confidence
    assert host.attachment is None and host.link_gb_per_s is None and host.source is None
    assert load_device("arc-a380").host.memory_gb_per_s is None


def test_host_table_is_checked_and_not_inherited(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text('id = "plain"\nbase = "xe-hpc"\nname = "variant"\nsource = "test"\n')
    assert load_device(str(plain)).host.attachment is None  # a variant may have fewer lanes
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'id = "bad"\nbase = "xe-hpc"\nname = "b"\nsource = "t"\n'
        '[host]\nattachment = "integrated"\npcie_lanes = 16\nsource = "s"\n'
    )
    with pytest.raises(DeviceError, match="table 'host' an integrated GPU shares host memory"):
        load_device(str(bad))
    bad.write_text('id = "bad"\nbase = "xe-hpc"\nname = "b"\nsource = "t"\n[host]\nattachment = "pcie"\n')
    with pytest.raises(DeviceError, match="needs 'source'"):
        load_device(str(bad))
    good = tmp_path / "good.toml"
    good.write_text(
        'id = "good"\nbase = "xe-hpc"\nname = "g"\nsource = "t"\n'
        '[host]\nattachment = "pcie"\npcie_generation = 3\npcie_lanes = 8\nsource = "mine"\n'
    )
    assert load_device(str(good)).host.link_gb_per_s == pytest.approx(8 * 0.985)


# -- the cost type, ranking and totals ------------------------------------------------------------------


def _diagnostic(code: str, severity: Severity, cost: Cost | None, line: int = 1) -> Diagnostic:
    return Diagnostic("a.cpp", line, 1, line, 2, code, "n", severity, "m", cost=cost)


def test_cost_survives_json_and_the_cache() -> None:
    cost = Cost(1.5e-6, "s", "q", "f", "b", ("a",), ("m",), 1.0, 1.5e-6, "xe-hpc", {"bytes": 4})
    d = _diagnostic("KL102", Severity.WARNING, cost)
    assert Diagnostic.from_json(d.to_json()) == d
    assert d.to_json()["cost"]["unit"] == "s"
    assert _diagnostic("KL000", Severity.ERROR, None).to_json()["cost"] is None


def test_ranking_is_severity_then_score_then_seconds_unknown_last() -> None:
    idle = Cost(40.0, "%", "idle", "f", "b", score=0.4)
    small = Cost(1e-6, "s", "copy", "f", "b", score=1.0, seconds=1e-6)
    big = Cost(1e-3, "s", "copy", "f", "b", score=1.0, seconds=1e-3)
    unknown = Cost(None, "s", "copy", "f", "b", missing=("size",))
    fails = Cost(100.0, "%", "fails", "f", "b", score=1.0)
    ds = [
        _diagnostic("KL202", Severity.WARNING, idle, 1),
        _diagnostic("KL102", Severity.WARNING, small, 2),
        _diagnostic("KL102", Severity.WARNING, unknown, 3),
        _diagnostic("KL103", Severity.WARNING, big, 4),
        _diagnostic("KL201", Severity.ERROR, fails, 5),
        _diagnostic("KL001", Severity.INFO, None, 6),
    ]
    assert [d.line for d in by_cost(ds)] == [5, 4, 2, 1, 3, 6]
    assert [d.line for d in most_expensive(ds)] == [5, 4, 2]
    total = totals(ds)
    assert set(total) == {"KL102", "KL103"}  # seconds add up; shares do not
    assert total["KL102"].total == pytest.approx(1e-6) and total["KL102"].unknown == 1


def test_numbers_in_prose() -> None:
    assert format_seconds(8.3211e-6) == "8.32 µs" and format_seconds(2.5e-9) == "2.5 ns"
    assert format_bytes(4096) == "4,096 bytes" and format_bytes(16_777_216) == "16.8 MB"


# -- explain -----------------------------------------------------------------------------------------------


def test_explain_prints_the_derivation() -> None:
    assert parse_location("src/a.cpp:12") == ("src/a.cpp", 12)
    with pytest.raises(ValueError):
        parse_location("src/a.cpp")
    path = CORPUS / "sycl" / "kl203_partial_sub_group.cpp"
    [finding] = findings_at(findings(path), str(path), 11, "KL203")
    text = "\n".join(derivation(finding))
    assert "formula: idle lanes ÷ lanes per work-group" in text and "basis: 28 ÷ 128 = 21.9%" in text
    assert finding.cost is not None and finding.cost.score is not None
    assert math.isclose(finding.cost.score, 0.21875)


# -- on the command line and in the reports ------------------------------------------------------------


def test_sort_and_explain_on_the_command_line(kernlint) -> None:
    path = "corpus/sycl/kl101_cost_per_loop.cpp"
    proc = kernlint("explain", f"{path}:11", "--device", "xe-hpc", "--no-cache")
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert "basis: 16.4 kB × 2 ÷ 63.008 GB/s = 520 ns per iteration; × 100 = 52 µs per loop" in out
    assert kernlint("explain", f"{path}:3", "--no-cache").returncode == 2
    proc = kernlint(
        "check",
        "corpus/sycl/kl202_low_occupancy.cpp",
        "--sort",
        "cost",
        "--format",
        "json",
        "--no-cache",
        "--exit-zero",
    )
    found = json.loads(proc.stdout)["diagnostics"]
    codes = [d["code"] for d in found]
    scored = [d["code"] for d in found if d["cost"] and d["cost"]["score"] is not None]
    assert codes[0] in ("KL201", "KL204", "KL205") and scored[-1] == "KL202"  # failures first
    assert codes[-1] == "KL602"  # a bank conflict's share of the kernel is not known: unscored, ranked last


def test_reports_carry_the_cost(kernlint) -> None:
    many = kernlint("check", "corpus/sycl", "--device", "xe-lp", "--no-cache", "--exit-zero").stdout.decode()
    closing = many.split("Most expensive findings")[1].splitlines()[1:4]
    assert len(closing) == 3 and all("100% of the kernel's work lost" in line for line in closing)
    stats = kernlint(
        "check", "corpus/sycl/kl103_missing_no_init.cpp", "--statistics", "--no-cache", "--exit-zero"
    ).stdout.decode()
    assert "estimated cost (sum)" in stats and "µs over" in stats
    sarif = json.loads(
        kernlint(
            "check", "corpus/sycl/kl203_partial_sub_group.cpp", "--format", "sarif", "--no-cache", "--exit-zero"
        ).stdout
    )
    cost = sarif["runs"][0]["results"][0]["properties"]["cost"]
    assert cost["unit"] == "%" and cost["basis"] == "28 ÷ 128 = 21.9%"
