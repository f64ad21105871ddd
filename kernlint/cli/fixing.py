"""`--fix`, `--diff` and `--show-fixes`: what the rules' fixes change, said as it happens."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from typing import TextIO

from kernlint.cli.exits import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from kernlint.diagnostics import Diagnostic, RunResult
from kernlint.engine import EngineSetup
from kernlint.fixes import FileFix, FixOutcome, FixScope, fix_files
from kernlint.interrupts import Interrupted
from kernlint.output import reader_may_leave

Report = Callable[[RunResult, dict[str, bytes], TextIO], None]


def _analysed_digests(result: RunResult) -> dict[str, str]:
    return {f.path: f.content_digest for f in result.files if f.content_digest}


def show_diff(result: RunResult, unsafe: bool, scope: FixScope) -> int:
    """`--diff`: print what `--fix` would change; exit 1 when there is something to change, 2 when a
    file with fixes could not be read."""
    outcome = fix_files(list(result.diagnostics), _analysed_digests(result), scope, unsafe=unsafe, write=False)
    with reader_may_leave():
        for file_fix in outcome.files:
            sys.stdout.write(file_fix.diff())
    _say_why_not_fixed(outcome)
    count = sum(len(f.applied) for f in outcome.files)
    print(f"kernlint: {count} fix(es) would be applied in {len(outcome.files)} file(s)", file=sys.stderr)
    if outcome.problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.files else EXIT_OK


def apply_fixes(
    result: RunResult, unsafe: bool, scope: FixScope, rerun: Callable[[], RunResult]
) -> tuple[RunResult, list[FileFix], bool]:
    """`--fix`: apply the fixes atomically in the files `scope` allows, naming each file as it is
    rewritten, and re-analyse so the report shows the remaining findings at their new positions. A file
    that cannot be fixed (unreadable, changed, not writable) is named and skipped; the others are fixed,
    and the third value says it happened. Interrupted, it says which files were already rewritten
    (every other file is untouched)."""
    written: list[FileFix] = []

    def said(file_fix: FileFix) -> None:
        written.append(file_fix)
        codes = ", ".join(sorted({d.code for d in file_fix.applied}))
        print(f"kernlint: fixed {len(file_fix.applied)} finding(s) in {file_fix.path} ({codes})", file=sys.stderr)

    try:
        outcome = fix_files(
            list(result.diagnostics), _analysed_digests(result), scope, unsafe=unsafe, write=True, on_fixed=said
        )
    except KeyboardInterrupt:
        raise Interrupted(_written(written) + "; no other file was changed") from None
    _say_why_not_fixed(outcome)
    if not outcome.files:
        unsafe_left = sum(1 for d in result.diagnostics if d.fix is not None and not d.fix.safe)
        if unsafe_left and not unsafe:
            print(f"kernlint: {unsafe_left} unsafe fix(es) available with --unsafe-fixes", file=sys.stderr)
        return result, outcome.files, bool(outcome.problems)
    try:
        return rerun(), outcome.files, bool(outcome.problems)
    except KeyboardInterrupt:
        raise Interrupted(_written(written) + " before the remaining findings were reported") from None


def _say_why_not_fixed(outcome: FixOutcome) -> None:
    for problem in outcome.problems:
        print(f"kernlint: error: {problem}", file=sys.stderr)
    for note in outcome.notes:
        print(f"kernlint: note: {note}", file=sys.stderr)


def _written(files: list[FileFix]) -> str:
    if not files:
        return "no file was fixed"
    return f"{len(files)} file(s) were fixed ({', '.join(f.path for f in files)})"


def show_fixes(result: RunResult, fixed: list[FileFix], applied: bool, stream: TextIO) -> None:
    """`--show-fixes`: per file, how many findings of each rule `--fix` fixed (with `applied`), or
    else the fixes the findings offer, the unsafe ones marked."""
    if applied:
        fixed_count = sum(len(f.applied) for f in fixed)
        stream.write(f"Fixed {fixed_count} finding(s):\n" if fixed_count else "No fixes applied.\n")
        for file_fix in fixed:
            _file_lines(stream, file_fix.path, [(d, "") for d in file_fix.applied])
        return
    offered = [(d, "" if d.fix.safe else " (unsafe)") for d in result.diagnostics if d.fix is not None]
    if not offered:
        stream.write("No fixes available.\n")
        return
    stream.write(f"{len(offered)} fix(es) available (--fix applies the safe ones, --unsafe-fixes the others):\n")
    by_path: dict[str, list[tuple[Diagnostic, str]]] = {}
    for diagnostic, mark in offered:
        by_path.setdefault(diagnostic.path, []).append((diagnostic, mark))
    for path, found in by_path.items():
        _file_lines(stream, path, found)


def _file_lines(stream: TextIO, path: str, found: list[tuple[Diagnostic, str]]) -> None:
    stream.write(f"- {path}:\n")
    counts = Counter((d.code, d.name, mark) for d, mark in found)
    for (code, name, mark), count in sorted(counts.items()):
        stream.write(f"    {count} × {code} ({name}){mark}\n")


def fix_stdin(
    args: argparse.Namespace,
    result: RunResult,
    data: bytes,
    setup: EngineSetup,
    recheck: Callable[[bytes], RunResult],
    report: Report,
) -> int:
    """`--diff` / `--fix` on stdin: the diff, or the fixed source, goes to stdout (as ruff does); with
    `--fix` the findings that remain (`recheck` of the fixed bytes) are reported on stderr (or `-o FILE`),
    and set the exit code."""
    from kernlint.fixes import apply_edits, plan_fixes

    (analysed,) = result.files
    name = analysed.path
    try:
        original = data.decode("utf-8")
    except UnicodeDecodeError:
        print(f"kernlint: error: {name}: not fixed: not valid UTF-8", file=sys.stderr)
        if args.fix:
            sys.stdout.buffer.write(data)  # a filter must still pass its input on
        return EXIT_ERROR
    fixed, applied, _skipped = apply_edits(
        original, plan_fixes(list(result.diagnostics), args.unsafe_fixes).get(name, [])
    )
    if args.diff:
        with reader_may_leave():
            sys.stdout.write(FileFix(name, original, fixed, applied).diff())
        print(f"kernlint: {len(applied)} fix(es) would be applied in {int(fixed != original)} file(s)", file=sys.stderr)
        return EXIT_FINDINGS if fixed != original else EXIT_OK
    with reader_may_leave():
        sys.stdout.buffer.write(fixed.encode("utf-8"))
    remaining = recheck(fixed.encode("utf-8"))
    report(remaining, {name: fixed.encode("utf-8")}, sys.stderr)
    failing = setup.config.fail_on.rank
    if any(d.evidence.get("internal") for d in remaining.diagnostics):
        return EXIT_ERROR
    return (
        EXIT_FINDINGS
        if not args.exit_zero and any(d.severity.rank >= failing for d in remaining.diagnostics)
        else EXIT_OK
    )
