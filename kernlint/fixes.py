"""Applying the fixes rules offer: `--fix` (safe ones), `--unsafe-fixes`, and `--diff` (show only).

A file is rewritten only when it has a fix to apply and only if it still has the contents that were
analysed. The file written is the one a path resolves to: a symbolic link stays a link and its
target is fixed, but only where the user chose it (`FixScope`): a link that walking a folder found
is fixed only when its target lies inside one of the folders given, since a repository can carry a
link to any file of the developer's (`link.cpp -> ../../.bashrc`). A file with one name is replaced
atomically (a reader sees the old or the new text, never half); a file with several hard links is
rewritten in place, since replacing it would give the name being fixed a new file and leave the
other names with the old text. Fixes whose edits overlap an earlier fix in the same file are left
for the next run rather than guessed at.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from kernlint import interrupts
from kernlint.cache import digest
from kernlint.diagnostics import Diagnostic, Fix
from kernlint.output import WriteError, write_atomically
from kernlint.records import record
from kernlint.report._paths import relative_to_root


@dataclass
class FileFix:
    """What fixing one file did (or would do)."""

    path: str
    original: str
    fixed: str
    applied: list[Diagnostic] = field(default_factory=list)
    skipped: list[Diagnostic] = field(default_factory=list)

    def diff(self) -> str:
        """A unified diff `patch -p1` applies: run from the working directory when the file is in it,
        from the file system root when it is not."""
        name = diff_path(self.path)
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.fixed.splitlines(keepends=True),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )
        )


@record
class FixScope:
    """Where fixes may be written: any file named on the command line, wherever it resolves to (the
    user chose it), and a file found by walking a folder when it resolves inside one of the folders
    given (their real paths)."""

    named: frozenset[str]
    folders: tuple[str, ...]

    @classmethod
    def of(cls, paths: Iterable[str]) -> FixScope:
        """The scope of a run over `paths` (files and folders as the user gave them)."""
        named, folders = set(), []
        for path in paths:
            if os.path.isdir(path):
                folders.append(os.path.realpath(path))
            else:
                named.add(path)
        return cls(frozenset(named), tuple(folders))

    def refusal(self, path: str) -> str | None:
        """Why the file `path` names may not be written, or None when it may."""
        if path in self.named:
            return None
        target = os.path.realpath(path)
        if any(os.path.commonpath((target, folder)) == folder for folder in self.folders):
            return None
        what = "is a link to" if os.path.islink(path) else "resolves to"
        return (
            f"not fixed: it {what} {target}, outside the folders given; its findings are reported "
            "(name it on the command line to fix it)"
        )


@dataclass
class FixOutcome:
    """The files fixed (or that would be), the files that could not be (`problems`: errors), and the
    files left alone on purpose (`notes`)."""

    files: list[FileFix] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def diff_path(path: str) -> str:
    """`path` relative to the working directory, or, outside it, absolute without its leading `/`
    (`a//abs/path` is a header `patch` refuses)."""
    relative = relative_to_root(path, os.getcwd())
    return relative if relative is not None else PurePath(os.path.abspath(path)).as_posix().lstrip("/")


def _offsets(text: str) -> list[int]:
    """Where each line starts; lines end at `\n`, `\r\n` or a lone `\r`, as the analysis counts them."""
    return [0] + [match.end() for match in re.finditer("\r\n|\r|\n", text)]


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
            ranges = [
                (_offset(starts, e.line, e.column), _offset(starts, e.end_line, e.end_column), e.text)
                for e in fix.edits
            ]
        except IndexError:
            skipped.append(diagnostic)
            continue
        if any(lo > hi or hi > len(text) for lo, hi, _ in ranges) or any(
            (lo < t_hi and t_lo < hi) or lo == hi == t_lo for lo, hi, _ in ranges for t_lo, t_hi in taken
        ):
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


def fix_files(
    diagnostics: list[Diagnostic],
    analysed: dict[str, str],
    scope: FixScope,
    *,
    unsafe: bool,
    write: bool,
    on_fixed: Callable[[FileFix], None] | None = None,
) -> FixOutcome:
    """Compute (and with `write`, apply) the fixes in the files `scope` allows. `analysed` maps path ->
    digest of the analysed bytes; a file that changed since, or is not valid UTF-8, is not touched.

    `on_fixed` hears of each file as soon as it is written: an interruption (held until the file
    being written is complete and reported) then leaves no file half-written or unaccounted for."""
    outcome = FixOutcome()
    for path, fixes in plan_fixes(diagnostics, unsafe).items():
        refusal = scope.refusal(path)
        if refusal is not None:
            outcome.notes.append(f"{path}: {refusal}")
            continue
        try:
            data = Path(path).read_bytes()
            original = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            outcome.problems.append(f"{path}: not fixed: {exc}")
            continue
        if analysed.get(path) not in (None, digest(data)):
            outcome.problems.append(f"{path}: not fixed: the file changed while it was being analysed")
            continue
        fixed, applied, skipped = apply_edits(original, fixes)
        if fixed == original:
            continue
        with interrupts.deferred():
            if write:
                try:
                    write_source(path, fixed, digest(data))
                except WriteError as exc:  # one file that cannot be written must not stop the others
                    outcome.problems.append(f"{path}: not fixed: {exc.reason}")
                    continue
            outcome.files.append(FileFix(path, original, fixed, applied, skipped))
            if on_fixed is not None:
                on_fixed(outcome.files[-1])
    return outcome


def write_source(path: str, text: str, expected_digest: str) -> None:
    """Write the fixed `text` to the file `path` resolves to, if it still holds the bytes whose digest
    is `expected_digest`; a `WriteError` says why not."""
    target = Path(os.path.realpath(path))
    try:
        if target.stat().st_nlink <= 1:
            write_atomically(target, text)
            return
        with open(target, "r+b") as handle:  # hard links: every name must see the fix
            if digest(handle.read()) != expected_digest:
                raise WriteError(target, "the file changed while it was being fixed")
            handle.seek(0)
            handle.write(text.encode("utf-8"))
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise WriteError(target, exc.strerror or str(exc)) from None
