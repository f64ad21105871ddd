"""Location-independent fingerprints of findings, shared by SARIF `partialFingerprints` and baselines.

A fingerprint hashes the rule, the root-relative path, the device and the flagged source text with
white space folded, so it survives code moving up or down the file (and reformatting of spaces).
"""

from __future__ import annotations

import hashlib

from kernlint.diagnostics import Diagnostic
from kernlint.report._source import SourceLines


def fingerprint(diagnostic: Diagnostic, relative_path: str, sources: SourceLines) -> str:
    """The fingerprint of `diagnostic` (for an unreadable file, of its message instead of its text)."""
    lines = sources.lines(diagnostic.path)
    if lines is not None and 1 <= diagnostic.line <= len(lines):
        flagged = lines[diagnostic.line - 1 : max(diagnostic.line, diagnostic.end_line)]
        content = "\n".join(" ".join(text.split()) for text in flagged)
    else:
        content = diagnostic.message
    parts = (diagnostic.code, relative_path, diagnostic.device or "", content)
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]
