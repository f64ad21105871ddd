"""Check kernlint's device-side cost claims against the hardware counters of an NVIDIA GPU (issue 23).

For each claim of `gpu_harness.claims`: kernlint's figure for the bad SYCL form (`--device h100`, JSON
`cost`), the same figure read with ncu off the CUDA twin, and the bad → good speed-up; written to
RESULTS.md and RESULTS.json beside this file.

    python benchmarks/gpu/measure.py                          # all of it, on a machine with the GPU
    python benchmarks/gpu/measure.py --measure-only --raw DIR # the device step alone (standard library)
    python benchmarks/gpu/measure.py --render [--raw DIR]     # the tables from recorded raw files
    python benchmarks/gpu/measure.py --predict-only [--out F] # kernlint's predictions as JSON

Without nvcc, ncu or a GPU, measuring prints one line saying so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gpu_harness import claims as claim_table  # noqa: E402
from gpu_harness import device  # noqa: E402

RAW = HERE / "raw"


def results(raw: Path, predictions: dict[str, Any] | None = None) -> tuple[str, str, list[dict[str, Any]]]:
    """RESULTS.md and RESULTS.json (as text) and the rows, from the raw files and the predictions
    (kernlint is run for them when none are given)."""
    from gpu_harness import compare, predict, render

    if predictions is None:
        predictions = predict.predictions()
    tool = predictions.get("kernlint") or {}
    predicted_by = f"kernlint {tool.get('version', '?')} `--device {predictions['device']}`, JSON `cost`"
    rows = compare.compare_all(claim_table.CLAIMS, predictions, raw)
    manifest = compare.manifest(raw)
    document = render.results_json(rows, manifest, predicted_by)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return render.markdown(rows, manifest, predicted_by), text, rows


def write_results(raw: Path, predictions_file: Path | None) -> int:
    predictions = json.loads(predictions_file.read_text(encoding="utf-8")) if predictions_file else None
    markdown, document, rows = results(raw, predictions)
    (HERE / "RESULTS.md").write_text(markdown, encoding="utf-8")
    (HERE / "RESULTS.json").write_text(document, encoding="utf-8")
    for row in rows:
        measured = "—" if row.get("measured") is None else f"{row['measured']:.3g}%"
        verdict = row.get("error") or ("pass" if row.get("passed") else "FAIL")
        print(f"{row['label']:<40} predicted {row['predicted']}  measured {measured}  {verdict}")
    return 0


def measure_only(raw: Path) -> int:
    missing = device.missing_tools()
    if missing:
        print(f"no GPU measurement: this machine lacks {', '.join(missing)}")
        return 0
    manifest = device.measure(raw)
    failed = {step: codes for step, codes in manifest["steps"].items() if any(codes.values())}
    print(f"raw files in {raw} ({manifest['seconds']} s); failed steps: {failed or 'none'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--measure-only", action="store_true", help="build, time and profile the twins into --raw")
    mode.add_argument("--render", action="store_true", help="write RESULTS.md/json from --raw and the predictions")
    mode.add_argument("--predict-only", action="store_true", help="write kernlint's predictions to --out")
    parser.add_argument("--raw", type=Path, default=RAW, help=f"folder of raw measurements (default {RAW})")
    parser.add_argument("--predictions", type=Path, help="predictions JSON to render with (default: run kernlint)")
    parser.add_argument("--out", type=Path, default=HERE / "predictions.json", help="where --predict-only writes")
    args = parser.parse_args(argv)
    if args.measure_only:
        return measure_only(args.raw)
    if args.render:
        return write_results(args.raw, args.predictions)
    if args.predict_only:
        from gpu_harness import predict

        args.out.write_text(json.dumps(predict.predictions(), indent=2) + "\n", encoding="utf-8")
        return 0
    missing = device.missing_tools()
    if missing:
        print(f"no GPU measurement: this machine lacks {', '.join(missing)}")
        return 0
    device.measure(args.raw)
    return write_results(args.raw, args.predictions)


if __name__ == "__main__":
    sys.exit(main())
