"""Baselines for adopting kernlint on a large code base: record today's findings, report only new ones.

Findings are matched by fingerprint (rule, root-relative path, device, flagged source text with white
space folded), counted, so moving code around or adding lines above it keeps it baselined, while a
second copy of the same problem in the same file is new.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from kernlint import __version__
from kernlint.config import ConfigError
from kernlint.diagnostics import Diagnostic
from kernlint.output import write_atomically
from kernlint.report._paths import display_path
from kernlint.report._source import SourceLines
from kernlint.report.fingerprint import fingerprint

FORMAT_VERSION = 1


def _fingerprints(diagnostics: list[Diagnostic], root: str) -> list[str]:
    sources = SourceLines()
    return [fingerprint(d, display_path(d.path, root), sources) for d in diagnostics]


def write_baseline(path: Path, diagnostics: list[Diagnostic], root: str) -> int:
    """Record `diagnostics` in `path` (atomically); returns how many were recorded."""
    prints = _fingerprints(diagnostics, root)
    entries = sorted(
        ({"fingerprint": fp, "code": d.code, "path": display_path(d.path, root), "device": d.device}
         for fp, d in zip(prints, diagnostics)), key=lambda e: (e["path"], e["code"], e["fingerprint"]))
    document = {"version": FORMAT_VERSION, "tool": {"name": "kernlint", "version": __version__},
                "findings": entries}
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


def new_findings(diagnostics: list[Diagnostic], baseline: Counter[str], root: str) -> list[Diagnostic]:
    """The diagnostics not accounted for by the baseline (each recorded finding absorbs one)."""
    remaining = Counter(baseline)
    kept = []
    for diagnostic, fp in zip(diagnostics, _fingerprints(diagnostics, root)):
        if remaining[fp] > 0:
            remaining[fp] -= 1
        else:
            kept.append(diagnostic)
    return kept
