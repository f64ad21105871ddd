"""Baselines for adopting kernlint on a large code base: record today's findings, report only new ones.

Findings are matched by fingerprint (rule, path, device, flagged source text with white space
folded), counted, so moving code around or adding lines above it keeps it baselined, while a second
copy of the same problem in the same file is new. Paths are relative to the baseline file's
directory, so a baseline works from any working directory.

Baselines written before that recorded paths relative to the working directory of the run. They
keep working: a finding whose fingerprint is not recorded relative to the baseline file is looked up
relative to the working directory too. Run from the directory they were recorded in, as they had to
be, they match as before; a fingerprint is a hash of the path with the rest, so the second look-up
cannot absorb a finding of another file. `--update-baseline` rewrites them in the new form.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath

from kernlint import __version__
from kernlint.config import ConfigError
from kernlint.diagnostics import Diagnostic
from kernlint.output import write_atomically
from kernlint.report._paths import display_path
from kernlint.report._source import SourceLines
from kernlint.report.fingerprint import fingerprint

FORMAT_VERSION = 1


def _fingerprints(diagnostics: list[Diagnostic], relative: Callable[[str], str], sources: SourceLines) -> list[str]:
    return [fingerprint(d, relative(d.path), sources) for d in diagnostics]


def _directory_of(baseline: Path) -> str:
    return os.path.dirname(os.path.abspath(baseline))


def _relative_to(directory: str) -> Callable[[str], str]:
    """Paths relative to `directory`, climbing out of it with `..` where needed."""

    def relative(path: str) -> str:
        try:
            return PurePath(os.path.relpath(os.path.abspath(path), directory)).as_posix()
        except ValueError:  # another drive (Windows): no relative form
            return PurePath(os.path.abspath(path)).as_posix()

    return relative


def write_baseline(path: Path, diagnostics: list[Diagnostic], sources: Mapping[str, bytes] | None = None) -> int:
    """Record `diagnostics` in `path` (atomically), paths relative to it; returns how many were recorded.
    `sources` holds the bytes of sources read from stdin."""
    relative = _relative_to(_directory_of(path))
    prints = _fingerprints(diagnostics, relative, SourceLines(sources))
    entries = sorted(
        (
            {"fingerprint": fp, "code": d.code, "path": relative(d.path), "device": d.device}
            for fp, d in zip(prints, diagnostics)
        ),
        key=lambda e: (e["path"], e["code"], e["fingerprint"]),
    )
    document = {"version": FORMAT_VERSION, "tool": {"name": "kernlint", "version": __version__}, "findings": entries}
    write_atomically(path, json.dumps(document, indent=1) + "\n")
    return len(entries)


def read_baseline(path: Path) -> Counter[str]:
    """The fingerprints `path` records, counted; anything but a baseline this version wrote is a
    `ConfigError` that says what is wrong with it."""
    try:
        document = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: baseline not found; create it with --baseline {path} --update-baseline") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: not a kernlint baseline: it is a directory") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read baseline: {getattr(exc, 'strerror', None) or exc}") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: not a kernlint baseline: invalid JSON ({exc})") from None
    return Counter(_recorded_fingerprints(document, path))


def _recorded_fingerprints(document: object, path: Path) -> list[str]:
    def broken(what: str) -> ConfigError:
        return ConfigError(f"{path}: not a kernlint baseline: {what}; re-create it with --update-baseline")

    if not isinstance(document, dict):
        raise broken(f"expected a JSON object, found {type(document).__name__}")
    if document.get("version") != FORMAT_VERSION:
        raise broken(f"unsupported baseline version {document.get('version')!r}")
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise broken("'findings' must be a list")
    prints: list[str] = []
    for entry in findings:
        recorded = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(recorded, str):
            raise broken("every entry of 'findings' must be an object with a string 'fingerprint'")
        prints.append(recorded)
    return prints


def new_findings(
    diagnostics: list[Diagnostic],
    baseline: Counter[str],
    baseline_path: Path,
    sources: Mapping[str, bytes] | None = None,
) -> list[Diagnostic]:
    """The diagnostics not accounted for by the baseline (each recorded finding absorbs one); paths
    are taken relative to the baseline file, then, for baselines of older versions, to the working
    directory."""
    remaining = Counter(baseline)
    kept = []
    lines = SourceLines(sources)
    current = _fingerprints(diagnostics, _relative_to(_directory_of(baseline_path)), lines)
    cwd = os.getcwd()
    legacy = _fingerprints(diagnostics, lambda path: display_path(path, cwd), lines)
    for diagnostic, fp, old_fp in zip(diagnostics, current, legacy):
        if remaining[fp] > 0:
            remaining[fp] -= 1
        elif remaining[old_fp] > 0:
            remaining[old_fp] -= 1
        else:
            kept.append(diagnostic)
    return kept
