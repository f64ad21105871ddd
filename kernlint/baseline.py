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
from kernlint.fingerprint import fingerprint
from kernlint.output import write_atomically
from kernlint.report._paths import display_path
from kernlint.report._source import SourceLines

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
    try:
        document = json.loads(path.read_text("utf-8"))
        if document.get("version") != FORMAT_VERSION:
            raise ValueError(f"unsupported baseline version {document.get('version')!r}")
        return Counter(entry["fingerprint"] for entry in document["findings"])
    except FileNotFoundError:
        raise ConfigError(f"{path}: baseline not found; create it with --baseline {path} --update-baseline") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: not a kernlint baseline: {exc}") from None


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
