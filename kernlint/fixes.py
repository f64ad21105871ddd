"""Applying the fixes rules offer: `--fix` (safe ones), `--unsafe-fixes`, and `--diff` (show only).

A file is rewritten only when it has a fix to apply, only if it still has the contents that were
analysed, and always atomically. Fixes whose edits overlap an earlier fix in the same file are left
for the next run rather than guessed at.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from kernlint.cache import digest
from kernlint.diagnostics import Diagnostic, Fix
from kernlint.output import WriteError, write_atomically


@dataclass
class FileFix:
    """What fixing one file did (or would do)."""

    path: str
    original: str
    fixed: str
    applied: list[Diagnostic] = field(default_factory=list)
    skipped: list[Diagnostic] = field(default_factory=list)

    def diff(self) -> str:
        return "".join(difflib.unified_diff(self.original.splitlines(keepends=True),
                                            self.fixed.splitlines(keepends=True),
                                            fromfile=f"a/{self.path}", tofile=f"b/{self.path}"))


def _offsets(text: str) -> list[int]:
    return [0] + [match.end() for match in re.finditer("\n", text)]


def _offset(starts: list[int], line: int, column: int) -> int:
    return starts[line - 1] + column - 1


def apply_edits(text: str, fixes: list[tuple[Diagnostic, Fix]]) -> tuple[str, list[Diagnostic], list[Diagnostic]]:
    """Apply non-overlapping fixes to `text`; returns (new text, fixed diagnostics, skipped ones)."""
    starts = _offsets(text)
    taken: list[tuple[int, int]] = []
    planned: list[tuple[int, int, str]] = []
    applied: list[Diagnostic] = []
    skipped: list[Diagnostic] = []
    for diagnostic, fix in fixes:
        try:
            ranges = [(_offset(starts, e.line, e.column), _offset(starts, e.end_line, e.end_column), e.text)
                      for e in fix.edits]
        except IndexError:
            skipped.append(diagnostic)
            continue
        if any(lo > hi or hi > len(text) for lo, hi, _ in ranges) or any(
                (lo < t_hi and t_lo < hi) or lo == hi == t_lo for lo, hi, _ in ranges for t_lo, t_hi in taken):
            skipped.append(diagnostic)
            continue
        taken.extend((lo, hi) for lo, hi, _ in ranges)
        planned.extend(ranges)
        applied.append(diagnostic)
    for lo, hi, replacement in sorted(planned, reverse=True):
        text = text[:lo] + replacement + text[hi:]
    return text, applied, skipped


def plan_fixes(diagnostics: list[Diagnostic], unsafe: bool) -> dict[str, list[tuple[Diagnostic, Fix]]]:
    """The fixes to apply, per file, in source order."""
    by_path: dict[str, list[tuple[Diagnostic, Fix]]] = {}
    for diagnostic in diagnostics:
        if diagnostic.fix is not None and (diagnostic.fix.safe or unsafe):
            by_path.setdefault(diagnostic.path, []).append((diagnostic, diagnostic.fix))
    return by_path


def fix_files(diagnostics: list[Diagnostic], analysed: dict[str, str], *, unsafe: bool,
              write: bool) -> tuple[list[FileFix], list[str]]:
    """Compute (and with `write`, apply) the fixes. `analysed` maps path -> digest of the analysed
    bytes; a file that changed since, or is not valid UTF-8, is not touched. Returns the per-file
    results and human-readable problems."""
    results: list[FileFix] = []
    problems: list[str] = []
    for path, fixes in plan_fixes(diagnostics, unsafe).items():
        try:
            data = Path(path).read_bytes()
            original = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: not fixed: {exc}")
            continue
        if analysed.get(path) not in (None, digest(data)):
            problems.append(f"{path}: not fixed: the file changed while it was being analysed")
            continue
        fixed, applied, skipped = apply_edits(original, fixes)
        if fixed == original:
            continue
        if write:
            try:
                write_atomically(Path(path), fixed)
            except WriteError as exc:  # one file that cannot be written must not stop the others
                problems.append(f"{path}: not fixed: {exc.reason}")
                continue
        results.append(FileFix(path, original, fixed, applied, skipped))
    return results, problems

