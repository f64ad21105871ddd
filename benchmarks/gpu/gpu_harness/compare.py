"""Each claim's measured figure, read off the raw files of the device step, set against its prediction.

The figure measured is the one the claim states, over the same instructions (see `claims` for the three
kinds). The per-instruction counters come from the source page and are attributed to source lines with
nvdisasm's line table of the same build (matched by offset from the function's start; the SASS text of
each matched instruction must agree, or the match is refused).
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gpu_harness.claims import TOLERANCE, VARIANTS, Claim, measured_lines
from gpu_harness.ncu_csv import Instruction, Launch, SassLine, kernel_lines, opcode, raw_page, source_page

WARP = 32
#: Reconvergence bookkeeping: executed where the paths meet, not under the branch.
BOOKKEEPING = frozenset({"BSSY", "BSYNC"})
ACHIEVED = "sm__warps_active.avg.pct_of_peak_sustained_active"
THEORETICAL = "sm__maximum_warps_per_active_cycle_pct"
LANES_PER_INSTRUCTION = "smsp__thread_inst_executed_per_inst_executed.ratio"
PRED_ON_PER_INSTRUCTION = "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio"
DIVERGENT_TARGETS = "smsp__sass_branch_targets_threads_divergent.sum"
DURATION = "gpu__time_duration.sum"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
SM_ACTIVE_AVG = "sm__cycles_active.avg"
SM_ACTIVE_MAX = "sm__cycles_active.max"
SHARED_LOADS = "smsp__inst_executed_op_shared_ld.sum"
CONTEXT = (DURATION, ACHIEVED, THEORETICAL, LANES_PER_INSTRUCTION, PRED_ON_PER_INSTRUCTION, DIVERGENT_TARGETS)


class MeasurementError(ValueError):
    """The raw files do not hold what a figure needs (a missing counter, an unmatched instruction)."""


def _read(raw: Path, name: str) -> str:
    path = raw / name
    if not path.exists():
        raise MeasurementError(f"{name} is missing from the raw files (the device step has not measured it)")
    return path.read_text(encoding="utf-8")


def launch(raw: Path, claim: Claim, variant: str) -> Launch:
    """The profiled launch of the claim's kernel in the raw page."""
    launches = [x for x in raw_page(_read(raw, f"{claim.key}.{variant}.metrics.csv")) if claim.kernel in x.kernel]
    if len(launches) != 1:
        raise MeasurementError(f"{claim.key}.{variant}: {len(launches)} launches of {claim.kernel} in the raw page")
    return launches[0]


def attributed(raw: Path, claim: Claim, variant: str) -> list[tuple[Instruction, int | None]]:
    """The source page's instructions, each with its line in the twin (from nvdisasm's line table)."""
    instructions = source_page(_read(raw, f"{claim.key}.{variant}.source.csv"))
    table: dict[int, SassLine] = {
        s.offset: s for s in kernel_lines(_read(raw, f"{claim.key}.{variant}.sass.txt"), f"{variant}.cu", claim.kernel)
    }
    if not instructions or not table:
        raise MeasurementError(f"{claim.key}.{variant}: no instructions in the source page or the line table")
    result = []
    for instruction in instructions:
        listed = table.get(instruction.offset)
        if listed is None or opcode(listed.sass) != instruction.opcode:
            raise MeasurementError(
                f"{claim.key}.{variant}: instruction at offset {instruction.offset:#x} ({instruction.sass!r}) "
                f"does not match the build's listing ({listed.sass if listed else 'nothing'!r})"
            )
        result.append((instruction, listed.line))
    return result


def busy_lanes(pairs: Sequence[tuple[Instruction, int | None]], lines: set[int]) -> dict[str, Any]:
    """The busy share of the lanes over the instructions of `lines`: predicated-on thread instructions
    ÷ (32 × warp instructions), leaving out the reconvergence bookkeeping."""
    chosen = [i for i, line in pairs if line in lines and i.opcode not in BOOKKEEPING]
    warp = sum(i.counters["inst"] or 0 for i in chosen)
    if not chosen or not warp:
        raise MeasurementError(f"no executed instruction on lines {sorted(lines)}")
    counter = "pred_on" if all(i.counters["pred_on"] is not None for i in chosen) else "thread"
    threads = sum(i.counters[counter] or 0 for i in chosen)
    return {
        "value": 100 * threads / (WARP * warp),
        "instructions": len(chosen),
        "warp_instructions": warp,
        "thread_instructions": threads,
        "counter": "predicated-on thread instructions" if counter == "pred_on" else "thread instructions",
        "lines": sorted(lines),
    }


def good_lanes(raw: Path, claim: Claim) -> dict[str, Any] | None:
    """For comparison: the busy share of the lanes on the good twin's marked lines, if it marks any."""
    lines = measured_lines(claim, "good")
    return busy_lanes(attributed(raw, claim, "good"), set(lines)) if lines else None


def measured_figure(raw: Path, claim: Claim) -> dict[str, Any]:
    """The bad twin's figure for the claim, in the unit of the prediction (%)."""
    bad = launch(raw, claim, "bad")
    if claim.measure == "occupancy":
        achieved, theoretical = bad.value(ACHIEVED), bad.value(THEORETICAL)
        if achieved is None:
            raise MeasurementError(f"{claim.key}: {ACHIEVED} missing")
        return {
            "value": 100 - achieved,
            "how": "100 − achieved occupancy",
            "achieved_occupancy_pct": achieved,
            "theoretical_occupancy_pct": theoretical,
        }
    if claim.measure == "idle-lanes":
        ratio = bad.value(LANES_PER_INSTRUCTION)
        if ratio is None:
            raise MeasurementError(f"{claim.key}: {LANES_PER_INSTRUCTION} missing")
        return {"value": 100 * (1 - ratio / WARP), "how": "100 × (1 − threads per warp instruction ÷ 32)"}
    if claim.measure == "sectors-per-request":
        return per_request(bad, SECTORS, REQUESTS, "global-load sectors ÷ requests")
    if claim.measure == "shared-wavefronts":
        figure = per_request(bad, WAVEFRONTS, SHARED_LOADS, "shared-load wavefronts ÷ shared-load instructions")
        conflicts = bad.value(CONFLICTS)
        figure["conflicts_per_request"] = None if conflicts is None else conflicts / figure["requests"]
        return figure
    if claim.measure == "sm-idle":
        average, busiest = bad.value(SM_ACTIVE_AVG), bad.value(SM_ACTIVE_MAX)
        if average is None or not busiest:
            raise MeasurementError(f"{claim.key}: {SM_ACTIVE_AVG} or {SM_ACTIVE_MAX} missing")
        return {
            "value": 100 * (1 - average / busiest),
            "how": "100 × (1 − SM active cycles, average ÷ busiest SM)",
            "sm_cycles_active_avg": average,
            "sm_cycles_active_max": busiest,
        }
    figure = busy_lanes(attributed(raw, claim, "bad"), set(measured_lines(claim)))
    figure["how"] = "busy lanes ÷ 32 over the marked lines' instructions"
    return figure


def per_request(launch: Launch, counted: str, requests: str, how: str) -> dict[str, Any]:
    """A counter per request of the launch (sectors or wavefronts per warp-wide access)."""
    total, count = launch.value(counted), launch.value(requests)
    if total is None or not count:
        raise MeasurementError(f"{counted if total is None else requests} missing or zero")
    return {"value": total / count, "how": how, "total": total, "requests": count}


def timing(raw: Path, claim: Claim, variant: str) -> dict[str, Any]:
    """The twin's median times (ms) over the timing rounds, and whether every output was written."""
    text = _read(raw, f"{claim.key}.{variant}.timing.txt")
    rounds = [float(m) for m in re.findall(r"median_ms=([\d.eE+-]+)", text)]
    sums = re.findall(r"checksum=([\d.eE+-]+)", text)
    written = re.findall(r"written=(\d)", text)
    if not rounds:
        raise MeasurementError(f"{claim.key}.{variant}: no timing in {text.strip()!r}")
    return {
        "rounds_ms": rounds,
        "ms": statistics.median(rounds),
        "checksum": float(sums[0]) if sums else None,
        "all_written": bool(written) and all(w == "1" for w in written),
    }


def context(raw: Path, claim: Claim, variant: str) -> dict[str, float | None]:
    """Kernel-wide counters of one launch, for the reader."""
    found = launch(raw, claim, variant)
    return {name: found.value(name) for name in CONTEXT}


def compare(claim: Claim, prediction: dict[str, Any], raw: Path) -> dict[str, Any]:
    """One row of the results: predicted, measured, their ratio, pass or fail, and the speed-up."""
    finding = prediction.get("finding")
    cost = (finding or {}).get("cost") or {}
    row: dict[str, Any] = {
        "key": claim.key,
        "label": claim.label,
        "rule": claim.rule,
        "measure": claim.measure,
        "predicted": cost.get("value"),
        "unit": cost.get("unit"),
        "predicted_basis": cost.get("basis"),
        "quantity": cost.get("quantity"),
        "line": (finding or {}).get("line"),
        "severity": (finding or {}).get("severity"),
        "good_findings": prediction.get("good_findings", []),
    }
    try:
        row["measured_detail"] = measured_figure(raw, claim)
        row["measured"] = row["measured_detail"]["value"]
        row["timing"] = {variant: timing(raw, claim, variant) for variant in VARIANTS}
        row["context"] = {variant: context(raw, claim, variant) for variant in VARIANTS}
        if claim.measure == "busy-lanes":
            row["good_marked"] = good_lanes(raw, claim)
    except MeasurementError as exc:
        row.update(measured=None, error=str(exc))
        return row
    row["speedup"] = row["timing"]["bad"]["ms"] / row["timing"]["good"]["ms"]
    predicted, measured = row["predicted"], row["measured"]
    if predicted is None or not measured:
        row.update(ratio=None, passed=False)
    else:
        row["ratio"] = predicted / measured
        row["passed"] = abs(predicted - measured) <= TOLERANCE * measured
    return row


def compare_all(claims: tuple[Claim, ...], predictions: dict[str, Any], raw: Path) -> list[dict[str, Any]]:
    return [compare(claim, predictions["claims"].get(claim.key, {}), raw) for claim in claims]


def manifest(raw: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_read(raw, "manifest.json"))
    return data
