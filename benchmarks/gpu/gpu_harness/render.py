"""RESULTS.md and RESULTS.json from the compared rows and the device step's manifest."""

from __future__ import annotations

import re
from typing import Any

from gpu_harness.claims import EXPLANATIONS, NOT_MEASURED, PENDING, TOLERANCE

COMMAND = "python benchmarks/gpu/measure.py"
#: The unit a measure is read in, when it is not a share.
_UNITS = {"sectors-per-request": "sectors", "shared-wavefronts": "wavefronts"}
DEVICE_COMMAND = "python benchmarks/gpu/measure.py --measure-only --raw DIR"
RENDER_COMMAND = "python benchmarks/gpu/measure.py --render --raw benchmarks/gpu/raw"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.3g}%"


def _figure(value: float | None, unit: str | None) -> str:
    """A figure in its unit: a share as a percentage, a count (sectors, wavefronts) as a number."""
    if unit in (None, "%"):
        return _pct(value)
    return "—" if value is None else f"{value:.3g} {unit}"


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def environment_line(manifest: dict[str, Any]) -> str:
    """ "NVIDIA H100 80GB HBM3, driver 580.159.04; nvcc 13.0.88; ncu 2025.3.1" from the manifest."""
    env = manifest.get("environment", {})
    gpu = [part.strip() for part in _first_line(env.get("gpu", "")).split(",")]
    nvcc = re.search(r"release [\d.]+, V([\d.]+)", env.get("nvcc", ""))
    ncu = re.search(r"Version ([\d.]+)", env.get("ncu", ""))
    parts = [gpu[0] if gpu and gpu[0] else "unknown GPU"]
    if len(gpu) > 1:
        parts[0] += f", driver {gpu[1]}"
    parts.append(f"CUDA toolkit (nvcc) {nvcc.group(1) if nvcc else 'unknown'}")
    parts.append(f"Nsight Compute {ncu.group(1) if ncu else 'unknown'}")
    return "; ".join(parts)


def _speedup(row: dict[str, Any]) -> str:
    if "speedup" not in row:
        return "—"
    bad, good = row["timing"]["bad"]["ms"], row["timing"]["good"]["ms"]
    return f"{row['speedup']:.2f}× ({bad * 1000:.0f} → {good * 1000:.0f} µs)"


def _result(row: dict[str, Any]) -> str:
    if row.get("measured") is None:
        return "not measured"
    if row.get("predicted") is None:
        return "no prediction"
    return "pass" if row["passed"] else "**fail**"


def _ratio(row: dict[str, Any]) -> str:
    return "—" if row.get("ratio") is None else f"{row['ratio']:.2f}"


def markdown(rows: list[dict[str, Any]], manifest: dict[str, Any], predicted_by: str) -> str:
    out = [
        "# kernlint's device-side costs, measured on a GPU",
        "",
        f"Produced by `{COMMAND}` (on a machine with the GPU and kernlint). The same in two steps: "
        f"`{DEVICE_COMMAND}` on the GPU machine (standard library only), then `{RENDER_COMMAND}` where "
        "kernlint is installed. The raw counters are kept in `benchmarks/gpu/raw/`, so a change of the "
        "model is re-rendered without a GPU.",
        "",
        f"- GPU and tools: {environment_line(manifest)}; measured {manifest.get('date_utc', 'on an unknown date')}.",
        f"- Predictions: {predicted_by}.",
        f"- A prediction passes within ±{TOLERANCE:.0%} of the measured figure. Speed-up: the bad twin's median "
        "time over the good one's (CUDA events, "
        f"{manifest.get('timing', {}).get('reps', '?')} launches, median of "
        f"{manifest.get('timing', {}).get('rounds', '?')} rounds), ncu not attached.",
        "",
        "| claim | kernlint says (bad form) | measured (bad twin) | predicted ÷ measured | result "
        "| bad → good speed-up |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        said = f"{_figure(row['predicted'], row.get('unit'))} {row.get('quantity') or ''}".strip()
        if row.get("severity"):
            said += f" ({row['severity']})"
        measured = _figure(row.get("measured"), row.get("unit") or _UNITS.get(row["measure"]))
        cells = [row["label"], said, measured, _ratio(row), _result(row), _speedup(row)]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "## How each figure was measured", ""]
    for row in rows:
        out += _details(row)
    failed = [row for row in rows if row.get("measured") is not None and not row.get("passed")]
    if failed:
        out += ["## Where the model and the hardware disagree", ""]
        for row in failed:
            out.append(f"- **{row['label']}**: {EXPLANATIONS.get(row['key'], 'not yet explained.')}")
        out.append("")
    out += ["## Claims not measured here", "", "| claim | why |", "| --- | --- |"]
    out += [f"| {claim} | {why} |" for claim, why in NOT_MEASURED + PENDING]
    return "\n".join(out) + "\n"


def _details(row: dict[str, Any]) -> list[str]:
    lines = [f"### {row['label']} (`pairs/{row['key']}/`)", ""]
    if row.get("line") is not None:
        lines.append(f"- Prediction: bad.cpp line {row['line']}: {row.get('predicted_basis')}.")
    else:
        lines.append("- Prediction: kernlint reports no finding of this claim on bad.cpp.")
    if row.get("good_findings"):
        lines.append(f"- good.cpp still draws {len(row['good_findings'])} finding(s) of {row['rule']}.")
    if row.get("measured") is None:
        lines += [f"- Not measured: {row.get('error', 'no data')}.", ""]
        return lines
    detail = row["measured_detail"]
    text = f"- Measured: {detail['how']} = {_figure(detail['value'], _UNITS.get(row['measure']))}"
    if row["measure"] == "occupancy":
        text += (
            f" (achieved {detail['achieved_occupancy_pct']:.4g}%, theoretical "
            f"{_pct(detail.get('theoretical_occupancy_pct'))})"
        )
    if row["measure"] in ("sectors-per-request", "shared-wavefronts"):
        text += f" ({detail['total']:,.0f} over {detail['requests']:,.0f} requests)"
    if detail.get("conflicts_per_request") is not None:
        text += f"; bank conflicts per request {detail['conflicts_per_request']:.3g}"
    if row["measure"] == "busy-lanes":
        text += (
            f": {detail['thread_instructions']:,.0f} {detail['counter']} over {detail['warp_instructions']:,.0f} warp "
            f"instructions of {detail['instructions']} SASS instructions on bad.cu lines "
            f"{', '.join(map(str, detail['lines']))}"
        )
    lines.append(text + ".")
    if row.get("good_marked"):
        good = row["good_marked"]
        lines.append(
            f"- The same on good.cu's marked lines ({', '.join(map(str, good['lines']))}), the code that does "
            f"that work after the fix: {_pct(good['value'])} of the lanes busy."
        )
    for variant in ("bad", "good"):
        counters = row["context"][variant]
        timing = row["timing"][variant]
        lanes = counters.get("smsp__thread_inst_executed_per_inst_executed.ratio")
        lines.append(
            f"- {variant}: {timing['ms'] * 1000:.1f} µs (rounds: "
            f"{', '.join(f'{ms * 1000:.1f}' for ms in timing['rounds_ms'])}); whole kernel: "
            f"{_num(lanes)} threads per warp instruction, achieved occupancy "
            f"{_pct(counters.get('sm__warps_active.avg.pct_of_peak_sustained_active'))}, "
            f"{_num(counters.get('smsp__sass_branch_targets_threads_divergent.sum'))} divergent branch targets; "
            f"checksum {timing['checksum']:.6g}{'' if timing['all_written'] else ', NOT every output written'}."
        )
    lines.append("")
    return lines


def _num(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def results_json(rows: list[dict[str, Any]], manifest: dict[str, Any], predicted_by: str) -> dict[str, Any]:
    return {
        "command": COMMAND,
        "environment": environment_line(manifest),
        "date_utc": manifest.get("date_utc"),
        "predicted_by": predicted_by,
        "tolerance": TOLERANCE,
        "claims": rows,
        "not_measured": [{"claim": c, "why": w} for c, w in NOT_MEASURED + PENDING],
    }
