"""The pure parts of benchmarks/gpu (issue 23), without a GPU: reading recorded ncu and nvdisasm output
(tests/data/ncu/, recorded on an H100 by `measure.py --measure-only`), attributing counters to source
lines, judging a prediction against a measurement, and rendering the table. The committed
RESULTS.md/json must be what the committed raw counters and today's kernlint give."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

from conftest import REPO
from corpus_annotations import expected
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.session import make_setup

GPU = REPO / "benchmarks" / "gpu"
sys.path.insert(0, str(GPU))

from gpu_harness import claims, compare, ncu_csv, render  # noqa: E402

DATA = REPO / "tests" / "data" / "ncu"
HEAVY = claims.by_key("kl501_heavy_arms")


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


# -- reading what the tools print ----------------------------------------------------------------------


def test_numbers_with_thousands_separators_and_blanks() -> None:
    assert ncu_csv.number("151,328") == 151328
    assert ncu_csv.number('"1,234,567.5"') == 1234567.5
    assert ncu_csv.number("88.65") == 88.65
    assert ncu_csv.number("n/a") is None
    assert ncu_csv.number("") is None
    assert ncu_csv.number("12,34") is None  # not a thousands grouping: never read as 1234


def test_raw_page_of_a_recorded_launch() -> None:
    launches = ncu_csv.raw_page(_text("kl203_partial_sub_group.bad.metrics.csv"))
    assert len(launches) == 1
    launch = launches[0]
    assert launch.kernel.startswith("relax(")
    # 100-item blocks: three full warps and one of 4 threads, (3 × 32 + 4) ÷ 4 = 25 threads an instruction
    assert launch.value("smsp__thread_inst_executed_per_inst_executed.ratio") == 25.0
    assert launch.metrics["gpu__time_duration.sum"][1] == "ns"
    assert launch.value("sm__maximum_warps_per_active_cycle_pct") == 100.0
    assert 0 < (launch.value("sm__warps_active.avg.pct_of_peak_sustained_active") or 0) <= 100
    assert launch.value("no_such_counter") is None


def test_raw_page_without_a_header_has_no_launch() -> None:
    assert ncu_csv.raw_page('"==PROF==","nothing profiled"\n') == []


def test_source_page_offsets_and_counters() -> None:
    instructions = ncu_csv.source_page(_text("kl501_heavy_arms.bad.source.csv"))
    assert instructions[0].offset == 0 and instructions[0].opcode == "LDC"
    assert [i.offset for i in instructions] == sorted(i.offset for i in instructions)
    assert all(i.offset % 16 == 0 for i in instructions)  # Hopper instructions are 16 bytes
    first = instructions[0].counters
    assert first["inst"] == 2**24 // 32 and first["thread"] == first["pred_on"] == 2**24  # every thread, once


def test_opcode_drops_predicate_and_modifiers() -> None:
    assert ncu_csv.opcode("@!P0 LDS.128 R4, [R0+UR4] ;") == "LDS"
    assert ncu_csv.opcode("BSYNC B0") == "BSYNC"
    assert ncu_csv.opcode("") == ""


def test_nvdisasm_line_table_takes_the_outermost_line_of_the_source() -> None:
    listing = """
.text._Z6kernelPf:
        //## File "/x/bad.cu", line 12
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        //## File "/x/helper.cuh", line 3 inlined at "/x/bad.cu", line 15
        /*0010*/                   FADD R2, R2, R3 ;
        //## File "/opt/cuda/include/math.h", line 40
        /*0020*/                   MUFU.RSQ R4, R5 ;
.text._Z5otherPf:
        /*0000*/                   EXIT ;
"""
    lines = ncu_csv.kernel_lines(listing, "bad.cu", "kernel")
    assert [(s.offset, s.line) for s in lines] == [(0, 12), (0x10, 15), (0x20, None)]
    assert ncu_csv.kernel_lines(listing, "bad.cu", "missing") == []


# -- measuring a claim ---------------------------------------------------------------------------------


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    """A raw folder holding the recorded heavy-arms pair, as the device step writes it."""
    for path in DATA.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    return tmp_path


def test_heavy_arms_measure_half_the_lanes_on_the_marked_lines(raw: Path) -> None:
    pairs = compare.attributed(raw, HEAVY, "bad")
    figure = compare.busy_lanes(pairs, set(claims.measured_lines(HEAVY)))
    assert figure["value"] == pytest.approx(50.0)
    assert figure["counter"] == "predicated-on thread instructions"
    # the kernel as a whole is busier than its arms: the shared code runs on all 32 lanes
    whole = compare.busy_lanes(pairs, {line for _, line in pairs if line is not None})
    assert 50.0 < whole["value"] < 100.0


def test_reconvergence_bookkeeping_is_left_out() -> None:
    def instruction(offset: int, sass: str, inst: float, pred_on: float) -> ncu_csv.Instruction:
        return ncu_csv.Instruction(offset, sass, {"inst": inst, "thread": pred_on, "pred_on": pred_on})

    arm = [
        (instruction(0, "FFMA R1, R1, R2, R3", 10, 80), 7),
        (instruction(16, "BSYNC B0", 10, 320), 7),  # where the paths meet: every lane, not the arm's
        (instruction(32, "STG.E [R4.64], R1", 10, 320), 9),
    ]
    assert compare.busy_lanes(arm, {7})["value"] == pytest.approx(25.0)
    with pytest.raises(compare.MeasurementError):
        compare.busy_lanes(arm, {8})


def test_a_source_page_of_another_build_is_refused(raw: Path) -> None:
    listing = raw / "kl501_heavy_arms.bad.sass.txt"
    listing.write_text(listing.read_text().replace("LDC R1", "MOV R1", 1))
    with pytest.raises(compare.MeasurementError, match="does not match"):
        compare.attributed(raw, HEAVY, "bad")


def _prediction(value: float | None) -> dict:
    return {"finding": {"line": 13, "cost": {"value": value, "basis": "b", "quantity": "q"}}, "good_findings": []}


@pytest.mark.parametrize(
    "predicted,passed", [(50.0, True), (57.4, True), (42.6, True), (57.6, False), (42.4, False), (19.375, False)]
)
def test_pass_within_fifteen_percent_of_the_measurement(raw: Path, predicted: float, passed: bool) -> None:
    row = compare.compare(HEAVY, _prediction(predicted), raw)
    assert row["measured"] == pytest.approx(50.0)
    assert row["ratio"] == pytest.approx(predicted / 50.0)
    assert row["passed"] is passed
    assert row["speedup"] == pytest.approx(row["timing"]["bad"]["ms"] / row["timing"]["good"]["ms"])
    assert row["good_marked"]["value"] == pytest.approx(100.0)


def test_missing_prediction_or_measurement_never_passes(raw: Path) -> None:
    assert compare.compare(HEAVY, _prediction(None), raw)["passed"] is False
    (raw / "kl501_heavy_arms.bad.source.csv").unlink()
    row = compare.compare(HEAVY, _prediction(50.0), raw)
    assert row["measured"] is None and "missing" in row["error"]


def test_rendered_table(raw: Path) -> None:
    rows = [
        compare.compare(HEAVY, _prediction(50.0), raw),
        compare.compare(HEAVY, _prediction(19.375), raw) | {"key": "kl501_tree_steps", "label": "tree"},
    ]
    text = render.markdown(rows, compare.manifest(raw), "kernlint test")
    assert "| KL501 heavy arms | 50% q | 50% | 1.00 | pass |" in text
    assert "| tree | 19.4% q | 50% | 0.39 | **fail** |" in text
    assert claims.EXPLANATIONS["kl501_tree_steps"] in text  # a failing claim is explained
    assert "NVIDIA H100 80GB HBM3, driver 580.159.04" in text
    assert "pending" not in text  # every rule's claims are in the table now
    assert "KL301" in text and "Intel only" in text


def _metrics(tmp_path: Path, claim: claims.Claim, counters: Mapping[str, float]) -> Path:
    """A raw page of one launch of the claim's kernel, as `ncu --page raw --csv` writes it."""
    header = ["ID", "Process ID", "Kernel Name", "CC", *counters]
    units = ["", "", "", "", *("" for _ in counters)]
    row = ["0", "1", f"{claim.kernel}(float const*, float*)", "9.0", *(f"{v:,.0f}" for v in counters.values())]
    text = "\n".join(",".join(f'"{cell}"' for cell in line) for line in (header, units, row)) + "\n"
    (tmp_path / f"{claim.key}.bad.metrics.csv").write_text(text, encoding="utf-8")
    return tmp_path


def test_sectors_per_request_are_read_off_the_global_load_counters(tmp_path: Path) -> None:
    claim = claims.by_key("kl601_row_walk")
    # 262,144 rows × 64 steps = 16,777,216 lanes' loads in 524,288 warp-wide requests, 32 sectors each
    raw = _metrics(tmp_path, claim, {compare.SECTORS: 16_777_216, compare.REQUESTS: 524_288})
    figure = compare.measured_figure(raw, claim)
    assert figure["value"] == 32 and figure["how"] == "global-load sectors ÷ requests"
    with pytest.raises(compare.MeasurementError, match="missing or zero"):
        compare.measured_figure(_metrics(tmp_path, claim, {compare.SECTORS: 10}), claim)


def test_shared_wavefronts_per_load_with_the_bank_conflicts_beside_them(tmp_path: Path) -> None:
    claim = claims.by_key("kl602_tile_column")
    # 32 passes for each of 131,072 warp-wide column reads: 31 of them conflicts
    counters = {compare.WAVEFRONTS: 4_194_304, compare.SHARED_LOADS: 131_072, compare.CONFLICTS: 4_063_232}
    figure = compare.measured_figure(_metrics(tmp_path, claim, counters), claim)
    assert figure["value"] == 32 and figure["conflicts_per_request"] == 31


def test_idle_sms_are_read_off_the_average_and_busiest_sm(tmp_path: Path) -> None:
    claim = claims.by_key("kl209_one_team")
    # one block: the busy SM is active 1,320,000 cycles, the average over 132 SMs is 10,000: 131 of 132 idle
    counters = {compare.SM_ACTIVE_AVG: 10_000, compare.SM_ACTIVE_MAX: 1_320_000}
    figure = compare.measured_figure(_metrics(tmp_path, claim, counters), claim)
    assert figure["value"] == pytest.approx(100 * (1 - 1 / 132))
    with pytest.raises(compare.MeasurementError, match="missing"):
        compare.measured_figure(_metrics(tmp_path, claim, {compare.SM_ACTIVE_AVG: 10}), claim)


def test_counts_are_rendered_in_their_unit() -> None:
    row = {
        "key": "kl603_member",
        "label": "KL603 one member",
        "rule": "KL603",
        "measure": "sectors-per-request",
        "predicted": 16.0,
        "unit": "sectors",
        "quantity": "per sub-group access for 4 useful (h100)",
        "measured": 16.5,
        "measured_detail": {"value": 16.5, "how": "global-load sectors ÷ requests", "total": 33.0, "requests": 2.0},
        "ratio": 16 / 16.5,
        "passed": True,
        "line": 14,
        "predicted_basis": "b",
        "good_findings": [],
        "timing": {v: {"ms": 0.1, "rounds_ms": [0.1], "checksum": 1.0, "all_written": True} for v in ("bad", "good")},
        "context": {v: {} for v in ("bad", "good")},
        "speedup": 1.0,
    }
    text = render.markdown([row], {}, "kernlint test")
    assert (
        "| KL603 one member | 16 sectors per sub-group access for 4 useful (h100) | 16.5 sectors | 0.97 | pass |"
        in text
    )
    assert "global-load sectors ÷ requests = 16.5 sectors (33 over 2 requests)" in text


# -- the pairs and the committed results -----------------------------------------------------------------


def test_every_pair_folder_is_a_claim_with_its_four_files() -> None:
    folders = {p.name for p in claims.PAIRS.iterdir() if p.is_dir()}
    assert folders == {c.key for c in claims.CLAIMS}
    for claim in claims.CLAIMS:
        for variant in claims.VARIANTS:
            for suffix in (".cpp", ".cu"):
                assert claim.source(variant, suffix).is_file(), (claim.key, variant, suffix)
            text = claim.source(variant, ".cu").read_text()
            assert f"__global__ void {claim.kernel}(" in text
        assert claim.measure in claims.MEASURES
        if claim.measure == "busy-lanes":
            assert claims.measured_lines(claim), claim.key


@pytest.mark.parametrize("claim", claims.CLAIMS, ids=lambda c: c.key)
def test_sycl_forms_match_their_annotations_on_h100(claim: claims.Claim) -> None:
    setup = make_setup(Config(root=str(REPO), devices=("h100",)), use_cache=False)
    for variant in claims.VARIANTS:
        path = claim.source(variant, ".cpp")
        entries, problems = discover([str(path)], setup.config)
        assert not problems
        result = analyse_file(entries[0], setup)
        actual = Counter((d.line, d.code) for d in result.diagnostics)
        assert actual == expected(path.read_text(), "h100"), (path, result.diagnostics)
        if variant == "bad":
            finding = next(d for d in result.diagnostics if d.code == claim.rule)
            assert finding.cost is not None and finding.cost.value is not None  # a figure to check


def test_committed_results_are_what_the_raw_counters_and_kernlint_give() -> None:
    import measure

    markdown, document, _rows = measure.results(GPU / "raw")
    hint = "regenerate with `python benchmarks/gpu/measure.py --render` (no GPU needed)"
    assert markdown == (GPU / "RESULTS.md").read_text(encoding="utf-8"), hint
    assert json.loads(document) == json.loads((GPU / "RESULTS.json").read_text(encoding="utf-8")), hint


def test_without_a_gpu_measuring_says_so_in_one_line_and_exits_0(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(GPU / "measure.py"), "--measure-only", "--raw", str(tmp_path / "raw")],
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path)},  # no nvcc, ncu or nvidia-smi on it
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1 and proc.stdout.startswith("no GPU measurement: this machine lacks nvcc")
    assert not (tmp_path / "raw").exists()
