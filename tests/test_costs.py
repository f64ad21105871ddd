"""Cost estimates: the host side of the device profiles, the cost builders, ranking, and for each rule
a corpus finding whose cost is checked against a hand computation from the profile's numbers."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import CORPUS
from kernlint.config import Config
from kernlint.cost import Cost, by_cost, format_bytes, format_seconds, most_expensive, totals
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.explain import derivation, findings_at, parse_location
from kernlint.facts.device import LaneEstimate
from kernlint.frontends.cpp.frontend import extract
from kernlint.occupancy import DeviceError, compute, load_device
from kernlint.occupancy.host import PCIE_GB_PER_S_PER_LANE
from kernlint.session import make_setup
from kernlint_rules.data.costs import transfer_cost
from kernlint_rules.data.kl101_buffer_in_loop import buffer_in_loop_cost
from kernlint_rules.divergence.costs import divergence_cost, divergent_barrier_cost
from kernlint_rules.launch.costs import launch_cost

# Guide chapter 05's per-lane table (GB/s, one direction) and the profiles' vendor figures.
GEN4_LANE, GEN5_LANE = 1.969, 3.938
XE_HPC_LINK = 16 * GEN5_LANE  # 63.008 GB/s: the guide's "x16 PCIe ... 63 GB/s"
A100_LINK = 16 * GEN4_LANE  # 31.504 GB/s


def findings(path: Path, *devices: str) -> list[Diagnostic]:
    """Every finding on one corpus file for `devices`, as the engine produces them (no cache)."""
    setup = make_setup(replace(Config(), devices=devices or ("xe-hpc",)), use_cache=False)
    entries, _ = discover([str(path)], setup.config)
    return list(analyse_file(entries[0], setup).diagnostics)


def cost_at(path: Path, line: int, code: str, device: str = "xe-hpc", *devices: str) -> Cost:
    found = [
        d for d in findings(path, device, *devices) if d.line == line and d.code == code and d.device in (None, device)
    ]
    assert found, f"no {code} at {path.name}:{line}"
    assert found[0].cost is not None, f"{code} at line {line} carries no cost"
    return found[0].cost


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


# -- transfer costs (KL101, KL102, KL103) ---------------------------------------------------------------


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


def test_kl101_cost_from_the_corpus_buffer() -> None:
    # corpus: `sycl::buffer<float, 1> rod(..., sycl::range<1>(kCells))` with kCells = 65536, in a loop.
    path = CORPUS / "sycl" / "kl101_time_stepping.cpp"
    facts = extract(str(path), path.read_bytes())
    rod = next(b for b in facts.buffers if b.name == "rod" and b.span.line == 9)
    cost = buffer_in_loop_cost(facts, [rod], [load_device("xe-hpc")])
    # 65,536 × 4 B = 262,144 B; × 2 transfers (copy in, write back) ÷ 63.008 GB/s = 8.32 µs per iteration
    assert cost.figures["bytes"] == 65536 * 4 and cost.figures["transfers"] == 2
    assert cost.value == pytest.approx(262144 * 2 / (XE_HPC_LINK * 1e9))
    assert "the loop's trip count (for the per-loop total)" in cost.missing
    per_loop = buffer_in_loop_cost(facts, [rod], [load_device("xe-hpc")], trip_count=100)
    assert per_loop.value == pytest.approx(100 * 262144 * 2 / (XE_HPC_LINK * 1e9))  # 832 µs per loop
    assert per_loop.score == pytest.approx(0.99)  # all but one iteration's copies are needless
    shapes = CORPUS / "sycl" / "kl101_loop_shapes.cpp"
    facts = extract(str(shapes), shapes.read_bytes())
    data = next(b for b in facts.buffers if b.name == "data")  # built over a vector of unknown size
    unknown = buffer_in_loop_cost(facts, [data], [load_device("xe-hpc")])
    assert unknown.value is None and "the extent of buffer `data`" in unknown.missing
    assert unknown.basis == "? bytes × 2 ÷ 63.008 GB/s (PCIe 5.0 x16, xe-hpc) per iteration"


# -- occupancy and lanes (KL2xx, KL301, KL501, KL502) ---------------------------------------------------


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


@pytest.mark.parametrize(
    ("lanes", "n", "busy"),
    [
        (LaneEstimate("split", 0.5), 16, 50.0),  # both paths in turn: 1/2
        (LaneEstimate("fraction", 0.25), 16, 25.0),  # `i % 4 == 0`
        (LaneEstimate("single"), 16, 100 / 16),  # `lid == 0`: 1 of 16 lanes
        (LaneEstimate("all-but-one"), 32, 100 * 31 / 32),
        (LaneEstimate("shrinking"), 16, 100 * 15 / (16 * 4)),  # (16 − 1) ÷ (16 × log2 16) = 23.4 %
    ],
)
def test_divergence_cost_lane_utilisation(lanes: LaneEstimate, n: int, busy: float) -> None:
    cost = divergence_cost(lanes, n)
    assert cost.value == pytest.approx(busy) and cost.figures["idle_share"] == pytest.approx(1 - busy / 100)
    assert cost.score is None  # the branch's share of the kernel is unknown: ranked after scored findings


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


# -- every rule wired here: the corpus finding's cost by hand --------------------------------------------


def test_kl203_idle_lanes() -> None:
    # 100 work-items at sub-group 32 on xe-hpc: ceil(100/32) = 4 threads × 32 = 128 lanes, 28 idle.
    cost = cost_at(CORPUS / "sycl" / "kl203_partial_sub_group.cpp", 11, "KL203")
    assert cost.value == pytest.approx(100 * 28 / 128) and cost.score == pytest.approx(28 / 128)


def test_kl204_and_kl205_are_failures() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl202_low_occupancy.cpp", 13, "KL204")
    assert (cost.value, cost.score) == (100.0, 1.0)
    # 80 KB of local memory on xe-lp, whose work-groups get at most 64 KB: the launch fails.
    cost = cost_at(CORPUS / "sycl" / "kl205_local_memory_too_large.cpp", 13, "KL205", "xe-lp")
    assert (cost.value, cost.score) == (100.0, 1.0) and "81920 > 65536" in cost.basis


def test_kl301_occupancy_at_sub_group_16() -> None:
    # work-group 256 on xe-hpc: at sub-group 16, 256/16 = 16 threads; 64 threads per Xe-core hold 4
    # work-groups: 64/64 = 100 %. (At 32: 8 threads, 8 work-groups, also 100 %.)
    cost = cost_at(CORPUS / "sycl" / "kl301_block_loads.cpp", 14, "KL301")
    assert cost.value == pytest.approx(100.0) and cost.score == 1.0
    assert cost.figures["sg16"]["threads_per_work_group"] == 256 // 16


def test_kl401_overshoot() -> None:
    # `src[i + AHEAD]`, AHEAD = 8, i < n: the last index reached is n + 7, 8 elements past n - 1;
    # with step 1 that is 8 prefetches outside the array per pass.
    cost = cost_at(CORPUS / "openmp" / "kl401_prefetch_bounds.c", 11, "KL401")
    assert cost.value == 8 and cost.figures["step"] == 1 and cost.score == 1.0


def test_kl402_kl403_kl404_kl405_prefetch_waste() -> None:
    path = CORPUS / "openmp" / "kl402_405_prefetch.c"
    assert cost_at(path, 13, "KL402").value == 100.0
    assert cost_at(path, 16, "KL403").score == 1.0
    # simdlen(SIMD_W) with SIMD_W = 16: 16 prefetches per simd step where 1 suffices: 15/16.
    assert cost_at(path, 60, "KL404").value == pytest.approx(100 * 15 / 16)
    # 4-byte floats one apart in a 64-byte line: 64/4 = 16 prefetches per line, 15 of 16 wasted.
    kl405 = cost_at(path, 33, "KL405")
    assert kl405.value == pytest.approx(100 * 15 / 16) and kl405.figures["prefetches"] == 16


def test_kl104_costs_nothing_at_run_time() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl104_legacy_modes.cpp", 10, "KL104")
    assert (cost.value, cost.score) == (0.0, 0.0) and "no cost at run time" in cost.phrase()


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


# -- rules wired through rules/costs.py (data movement and launches) --------------------------------------


def test_kl101_per_iteration_and_per_loop_through_the_engine() -> None:
    # kl101_cost_per_loop.cpp: buffer<float> of kPoints = 4096 over host memory, read_write, in a loop of
    # kSteps = 100: 4096 × 4 B = 16,384 B; × 2 copies = 32,768 B ÷ 63.008 GB/s = 520 ns per iteration;
    # × 100 = 52.0 µs per loop on xe-hpc. On xe-lp (integrated) no link cost is quoted.
    path = CORPUS / "sycl" / "kl101_cost_per_loop.cpp"
    cost = cost_at(path, 11, "KL101", "xe-hpc", "xe-lp")
    assert cost.value == pytest.approx(100 * 2 * 4096 * 4 / (XE_HPC_LINK * 1e9))
    assert cost.figures["repeats"] == 100 and cost.device == "xe-hpc"
    assert cost.figures["per_device"]["xe-lp"].startswith("integrated")
    assert cost.value is not None
    assert cost.seconds == pytest.approx(cost.value * 0.99)  # 99 of the 100 iterations' copies are needless
    lp_only = cost_at(path, 11, "KL101", "xe-lp")
    assert lp_only.value is None and "may not be copied at all" in lp_only.basis


def test_kl102_kl103_needless_copy_per_submission() -> None:
    # kl102_write_only_outputs.cpp:18: `out` over kN = 1 << 22 floats = 16,777,216 B, overwritten:
    # one needless host-to-device copy ÷ 63.008 GB/s = 266 µs per submission on xe-hpc.
    cost = cost_at(CORPUS / "sycl" / "kl102_write_only_outputs.cpp", 18, "KL102")
    assert cost.value == pytest.approx(16_777_216 / (XE_HPC_LINK * 1e9)) and cost.score == 1.0
    # kl103_missing_no_init.cpp:27: kN = 1 << 20 floats = 4,194,304 B ÷ 63.008 GB/s = 66.6 µs.
    cost = cost_at(CORPUS / "sycl" / "kl103_missing_no_init.cpp", 27, "KL103")
    assert cost.value == pytest.approx(4_194_304 / (XE_HPC_LINK * 1e9))
    # OpenMP map(tofrom:) of a section whose size is not known: the formula with xe-hpc's link, no number.
    cost = cost_at(CORPUS / "openmp" / "kl102_maps.c", 7, "KL102")
    assert cost.value is None and cost.missing == ("the mapped section's size in bytes",)


def test_kl201_kl208_failures_and_the_openmp_clamp() -> None:
    # (1, 5, 128) = 640 work-items on xe-lp, whose maximum is 512: the launch fails.
    cost = cost_at(CORPUS / "sycl" / "kl201_work_group_too_large.cpp", 12, "KL201", "xe-lp")
    assert (cost.value, cost.score) == (100.0, 1.0) and "640 > 512" in cost.basis
    cost = cost_at(CORPUS / "sycl" / "kl208_nd_range_not_divisible.cpp", 11, "KL208")
    assert cost.score == 1.0 and "64 is not a multiple of 3" in cost.basis
    # thread_limit(2048) on xe-hpc is clamped to 1024, not failed: what that costs is not in the model.
    cost = cost_at(CORPUS / "openmp" / "kl201_thread_limit.c", 9, "KL201")
    assert cost.value is None and cost.figures == {"requested": 2048, "clamped_to": 1024}


def test_kl202_idle_share_of_each_xe_core_with_waves() -> None:
    # The guide's R = 4 case on xe-lp: (1, 4, 128) = 512 work-items at sub-group 8 = 64 threads; one
    # work-group fits an Xe-core's 112 threads: 64/112 = 57.14 %, so 42.86 % idle. 64 × 64 × 128 =
    # 524,288 work-items = 1,024 work-groups over 6 Xe-cores: 170.67 waves, the last 4/6 = 66.7 % full.
    cost = cost_at(CORPUS / "sycl" / "kl202_low_occupancy.cpp", 12, "KL202", "xe-lp")
    assert cost.value == pytest.approx(100 * 48 / 112)
    assert cost.figures["waves"] == pytest.approx(1024 / 6) and cost.figures["tail_fill_pct"] == pytest.approx(400 / 6)


def test_kl206_idle_share_of_the_gpu() -> None:
    # The guide's VectorAdd2<1> on xe-hpc: 1 work-group of 512 at sub-group 32 = 16 threads busy of the
    # GPU's 128 × 64 = 8,192: 16/8192 = 0.195 % busy, 99.80 % idle.
    cost = cost_at(CORPUS / "sycl" / "kl206_launch_too_small.cpp", 15, "KL206")
    assert cost.value == pytest.approx(100 - 100 * 16 / 8192)


def test_kl207_kl406_name_what_the_model_lacks() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl207_queue_in_loop.cpp", 11, "KL207")
    assert cost.value is None and "queue creation time" in cost.missing[0]
    cost = cost_at(CORPUS / "openmp" / "kl406_malformed.c", 3, "KL406")
    assert cost.value is None and cost.phrase().startswith("not in the device model")


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
    codes = [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]
    assert codes[0] in ("KL201", "KL204", "KL205") and codes[-1] == "KL202"  # failures first


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


# -- KL501 / KL502 through the engine ----------------------------------------------------------------------


def test_kl501_lane_utilisation_through_the_engine() -> None:
    # kl501_branches.cpp:36: `if (lane & 1u)` in a kernel that requires sub-groups of 16: odd and even lanes
    # take different paths, which run one after the other: (8 + 8) busy lanes ÷ (2 × 16) = 50% busy.
    path = CORPUS / "sycl" / "kl501_branches.cpp"
    cost = cost_at(path, 36, "KL501")
    assert cost.value == pytest.approx(50.0) and cost.unit == "%"
    assert cost.score is None  # the branch's share of the kernel's time is not known


def test_kl502_error_loses_the_kernel_and_its_warning_says_what_is_missing() -> None:
    # kl502_barriers.cpp:17: a barrier under `lid < s`: work-items that skip it deadlock the group, so all the
    # kernel's work is at stake (100%, score 1). Line 63: a barrier after a tail-guard `return`, harmless while
    # the global size divides: a warning whose lane figure needs the global size, which the code does not give.
    path = CORPUS / "sycl" / "kl502_barriers.cpp"
    error = cost_at(path, 17, "KL502")
    assert error.value == pytest.approx(100.0) and error.score == 1.0
    warning = cost_at(path, 63, "KL502")
    assert warning.value is None and warning.missing and warning.score is None
