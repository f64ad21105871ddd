"""Counts of kernlint's findings on real code, for before/after comparisons.

Run kernlint over the trees given on the command line (JSON output, one subprocess) and print the
counts by rule, by severity, by rule and class with each class's severities (the class is the
finding's `evidence.class` where a rule gives one: KL501's cost class, KL206's; KL502: how the barrier
is reached), and, for KL501 and KL502, by detailed class (KL501: the cost class of
`kernlint_rules.divergence.classes` with the dependence reason and construct; KL502: how the barrier
is reached, the reason and the branch). Read the findings by hand too: counts only say what moved.

    python benchmarks/real_code.py HeCBench/src/*-sycl HeCBench/src/*-omp --save /tmp/after.json
    python benchmarks/real_code.py --compare /tmp/before.json /tmp/after.json
    python benchmarks/real_code.py --list KL502 --load /tmp/after.json     # the findings, one a line

`--device` may be repeated (default: kernlint's own default). A saved file is kernlint's JSON output.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path


def run(paths: list[str], devices: list[str], jobs: int) -> dict:
    """kernlint's JSON report over `paths` (no cache, exit code ignored)."""
    command = [
        sys.executable,
        "-m",
        "kernlint",
        *paths,
        "--format",
        "json",
        "--no-cache",
        "--exit-zero",
        "--jobs",
        str(jobs),
    ]
    for device in devices:
        command += ["--device", device]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if not done.stdout.strip():
        sys.exit(f"kernlint printed nothing:\n{done.stderr}")
    return json.loads(done.stdout)


def klass(diagnostic: dict) -> str | None:
    """The class of a KL501/KL502 finding: dependence/reason (and how a barrier is reached)."""
    evidence = diagnostic.get("evidence") or {}
    if diagnostic["code"] == "KL501":
        return f"{evidence.get('class')}/{evidence.get('reason')}/{evidence.get('kind')}"
    if diagnostic["code"] == "KL502":
        return f"{evidence.get('via')}/{evidence.get('reason')}/{evidence.get('branch_kind')}"
    return None


def rule_class(diagnostic: dict) -> str:
    """`KL501 inherent`, `KL502 exit`, `KL206 grid-stride`: the rule and the class a finding is in
    (the rule alone when it has no classes)."""
    evidence = diagnostic.get("evidence") or {}
    name = evidence.get("class") or (evidence.get("via") if diagnostic["code"] == "KL502" else None)
    return f"{diagnostic['code']} {name}" if name else diagnostic["code"]


SECTIONS = ("rule", "severity", "rule/severity", "rule/class/severity", "class")


def counts(report: dict) -> dict[str, Counter]:
    """Counters by rule, by severity, by rule and severity, by rule, class and severity, and by
    detailed class (KL501 and KL502)."""
    found: dict[str, Counter] = {section: Counter() for section in SECTIONS}
    for diagnostic in report.get("diagnostics", []):
        found["rule"][diagnostic["code"]] += 1
        found["severity"][diagnostic["severity"]] += 1
        found["rule/severity"][f"{diagnostic['code']} {diagnostic['severity']}"] += 1
        found["rule/class/severity"][f"{rule_class(diagnostic)} {diagnostic['severity']}"] += 1
        name = klass(diagnostic)
        if name is not None:
            found["class"][f"{diagnostic['code']} {name} {diagnostic['severity']}"] += 1
    return found


def show(reports: list[tuple[str, dict]]) -> None:
    """One table per counter, a column per report (and the difference for two)."""
    tables = [(name, counts(report)) for name, report in reports]
    for section in SECTIONS:
        keys = sorted(set().union(*(c[section] for _n, c in tables)))
        header = f"{'by ' + section:<52}" + "".join(f"{n[-14:]:>15}" for n, _c in tables)
        if len(tables) == 2:
            header += f"{'change':>9}"
        print(header)
        for key in keys:
            values = [c[section].get(key, 0) for _n, c in tables]
            line = f"  {key:<50}" + "".join(f"{v:>15}" for v in values)
            if len(values) == 2:
                line += f"{values[1] - values[0]:>+9}"
            print(line)
        totals = [sum(c[section].values()) for _n, c in tables]
        print(f"  {'total':<50}" + "".join(f"{v:>15}" for v in totals) + "\n")


def listing(report: dict, code: str) -> None:
    """The findings of one rule, one a line: place, class, first part of the message."""
    for d in report.get("diagnostics", []):
        if d["code"] == code:
            print(f"{d['path']}:{d['line']}: {d['severity']} {klass(d)}  {d['message'][:150]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="files or directories to analyse")
    parser.add_argument("--device", action="append", default=[], help="device profile (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="write kernlint's JSON report here")
    parser.add_argument("--load", help="read a saved report instead of running kernlint")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="two saved reports side by side")
    parser.add_argument("--list", metavar="CODE", help="list the findings of one rule")
    args = parser.parse_args(argv)
    if args.compare:
        show([(Path(p).stem, json.loads(Path(p).read_text())) for p in args.compare])
        return 0
    if args.load:
        report = json.loads(Path(args.load).read_text())
    elif args.paths:
        report = run(args.paths, args.device, args.jobs)
    else:
        parser.error("give paths, --load or --compare")
    if args.save:
        Path(args.save).write_text(json.dumps(report))
    if args.list:
        listing(report, args.list)
    else:
        show([("findings", report)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
