"""The device step: build each CUDA twin, time it, and record its counters with ncu into a folder of raw files.

Standard library only (the GPU machine has Python but not kernlint's dependencies). Nothing here parses
what ncu prints: the raw files are read by `ncu_csv` and `compare`, on this machine or another, so a
parsing fix never needs the GPU again. Per claim and variant (`<key>.<variant>.*`):

  .build.txt        nvcc's command and output (ptxas -v: registers, shared memory, spills)
  .sass.txt         nvdisasm -gi -c of the same build: each SASS address with its source line (and,
                    for inlined code, the line of the call)
  .timing.txt       the twin's RESULT lines, one per timing round
  .metrics.csv      ncu --page raw --csv: every counter of the profiled launch
  .source.csv       ncu --page source --print-source sass --csv: per-instruction counters
  .profile.txt      ncu's own output while profiling
and manifest.json: the GPU, driver, toolkit and ncu versions, the commands, and each step's exit code.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gpu_harness.claims import CLAIMS, VARIANTS, Claim

NVCC_FLAGS = ("-arch=sm_90", "-lineinfo", "-O3", "-std=c++17")
#: Counters named on the command line; the sections bring the rest (per-instruction source counters,
#: theoretical and achieved occupancy, duration).
METRICS = (
    "gpu__time_duration.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "sm__cycles_active.avg",
    "sm__cycles_active.max",
)
SECTIONS = ("SourceCounters", "Occupancy", "LaunchStats", "SpeedOfLight", "WarpStateStats")
TIMING_REPS = 50
TIMING_ROUNDS = 2


def missing_tools() -> list[str]:
    """What the device step needs and this machine lacks: nvcc, ncu, nvdisasm, a visible NVIDIA GPU."""
    missing = [tool for tool in ("nvcc", "ncu", "nvdisasm", "nvidia-smi") if shutil.which(tool) is None]
    if "nvidia-smi" not in missing:
        probe = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
        if probe.returncode != 0 or "GPU" not in probe.stdout:
            missing.append("an NVIDIA GPU (nvidia-smi -L lists none)")
    return missing


def _run(command: Sequence[str], log: Path | None = None, timeout: float = 600, cwd: Path | None = None) -> int:
    """Run `command`, its output into `log` (with the command on the first line); the exit code."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    try:
        proc = subprocess.run(
            list(command), capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd, check=False
        )
        out, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        out, code = f"timed out after {timeout} s: {exc}", 124
    if log is not None:
        log.write_text("$ " + " ".join(command) + "\n" + out, encoding="utf-8")
    return code


def _capture(command: Sequence[str]) -> str:
    try:
        proc = subprocess.run(list(command), capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable: {exc}"
    return (proc.stdout + proc.stderr).strip()


def environment() -> dict[str, str]:
    return {
        "gpu": _capture(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]),
        "nvidia_smi": _capture(["nvidia-smi"]),
        "nvcc": _capture(["nvcc", "--version"]),
        "ncu": _capture(["ncu", "--version"]),
        "python": sys.version.split()[0],
    }


def _build(claim: Claim, variant: str, out: Path, bins: Path) -> dict[str, int]:
    """nvcc the twin into an executable and a cubin of the same code (for nvdisasm's line table)."""
    source = claim.source(variant, ".cu")
    stem = f"{claim.key}.{variant}"
    binary, cubin = bins / stem, bins / f"{stem}.cubin"
    codes = {
        "build": _run(
            ["nvcc", *NVCC_FLAGS, "-Xptxas", "-v", "-o", str(binary), str(source)], out / f"{stem}.build.txt"
        ),
        "cubin": _run(["nvcc", *NVCC_FLAGS, "-cubin", "-o", str(cubin), str(source)]),
    }
    codes["sass"] = _run(["nvdisasm", "-gi", "-c", str(cubin)], out / f"{stem}.sass.txt")
    return codes


def _profile(claim: Claim, variant: str, out: Path, bins: Path, metrics: Sequence[str]) -> int:
    """One launch of the kernel under ncu into a report, then its raw counters and source page as CSV."""
    stem = f"{claim.key}.{variant}"
    report = bins / f"{stem}.ncu-rep"
    base = ["ncu", "--force-overwrite", "--export", str(report), "--kernel-name", claim.kernel]
    base += ["--launch-count", "1", "--clock-control", "none", "--import-source", "yes"]
    for section in SECTIONS:
        base += ["--section", section]
    command = base + (["--metrics", ",".join(metrics)] if metrics else []) + [str(bins / stem), "1"]
    code = _run(command, out / f"{stem}.profile.txt", timeout=300)
    if code != 0 or not report.exists():
        return code or 1
    raw = ["ncu", "--import", str(report), "--page", "raw", "--csv", "--print-units", "base"]
    source = ["ncu", "--import", str(report), "--page", "source", "--csv", "--print-source", "sass"]
    (out / f"{stem}.metrics.csv").write_text(_capture(raw) + "\n", encoding="utf-8")
    (out / f"{stem}.source.csv").write_text(_capture(source) + "\n", encoding="utf-8")
    return 0


def _time(claim: Claim, variant: str, bins: Path) -> str:
    stem = f"{claim.key}.{variant}"
    return _capture([str(bins / stem), str(TIMING_REPS)])


def measure(out: Path, claims: Sequence[Claim] = CLAIMS, jobs: int = 8) -> dict:
    """Build, time and profile every claim's twins into `out`; returns (and writes) the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    bins = out.parent / (out.name + ".bin")
    bins.mkdir(parents=True, exist_ok=True)
    started = time.time()
    manifest: dict = {
        "environment": environment(),
        "nvcc_flags": list(NVCC_FLAGS),
        "metrics": list(METRICS),
        "sections": list(SECTIONS),
        "timing": {"reps": TIMING_REPS, "rounds": TIMING_ROUNDS},
        "date_utc": time.strftime("%Y-%m-%d", time.gmtime()),
        "steps": {},
    }
    pairs = [(claim, variant) for claim in claims for variant in VARIANTS]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        builds = dict(zip(pairs, pool.map(lambda p: _build(p[0], p[1], out, bins), pairs)))
    built = [p for p in pairs if builds[p]["build"] == 0]
    timings: dict[tuple[Claim, str], list[str]] = {p: [] for p in built}
    for _ in range(TIMING_ROUNDS):  # bad and good alternate, so a drift in clocks hits both
        for pair in built:
            timings[pair].append(_time(*pair, bins))
    for (claim, variant), lines in timings.items():
        (out / f"{claim.key}.{variant}.timing.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    metrics: list[str] = list(METRICS)
    for claim, variant in built:
        code = _profile(claim, variant, out, bins, metrics)
        log = (out / f"{claim.key}.{variant}.profile.txt").read_text(encoding="utf-8")
        if code != 0 and metrics and "metric" in log.lower():  # a counter this ncu lacks fails the run
            metrics = []
            code = _profile(claim, variant, out, bins, metrics)
        builds[claim, variant]["profile"] = code
    manifest["metrics_used"] = metrics
    manifest["steps"] = {f"{c.key}.{v}": codes for (c, v), codes in builds.items()}
    manifest["seconds"] = round(time.time() - started, 1)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
