"""kernlint's predictions for every claim: its JSON `cost` on the bad SYCL form, on `--device h100`.

Runs kernlint as a user would (`python -m kernlint … --format json`), so this step needs kernlint
installed; the device step does not. The result is a plain JSON document (`predictions.json`) that
travels to the GPU machine and back with the measurements.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gpu_harness.claims import CLAIMS, VARIANTS, Claim

DEVICE = "h100"


def run_kernlint(paths: Sequence[Path], device: str = DEVICE) -> dict[str, Any]:
    command = [sys.executable, "-m", "kernlint", *map(str, paths), "--device", device]
    command += ["--format", "json", "--no-cache", "--exit-zero"]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0 or not proc.stdout:
        raise RuntimeError(f"kernlint failed ({proc.returncode}): {proc.stderr.strip()}")
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def _finding(claim: Claim, diagnostics: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The diagnostic of the claim's rule (and KL501 class) on the bad form."""
    for diagnostic in diagnostics:
        if diagnostic["code"] != claim.rule:
            continue
        if claim.klass is not None and (diagnostic.get("evidence") or {}).get("class") != claim.klass:
            continue
        return diagnostic
    return None


def predictions(claims: Sequence[Claim] = CLAIMS, device: str = DEVICE) -> dict[str, Any]:
    """Per claim: the bad form's finding and cost, and the findings of the rule on the good form."""
    paths = [claim.source(variant, ".cpp") for claim in claims for variant in VARIANTS]
    report = run_kernlint(paths, device)
    by_path: dict[str, list[dict[str, Any]]] = {}
    for diagnostic in report["diagnostics"]:
        by_path.setdefault(Path(diagnostic["path"]).resolve().as_posix(), []).append(diagnostic)
    result: dict[str, Any] = {"device": device, "kernlint": report.get("tool", {}), "claims": {}}
    for claim in claims:
        bad = by_path.get(claim.source("bad", ".cpp").resolve().as_posix(), [])
        good = by_path.get(claim.source("good", ".cpp").resolve().as_posix(), [])
        finding = _finding(claim, bad)
        entry: dict[str, Any] = {
            "finding": None,
            "good_findings": [d["message"] for d in good if d["code"] == claim.rule],
        }
        if finding is not None:
            entry["finding"] = {
                "line": finding["line"],
                "severity": finding["severity"],
                "message": finding["message"],
                "class": (finding.get("evidence") or {}).get("class"),
                "cost": finding.get("cost"),
            }
        result["claims"][claim.key] = entry
    return result
