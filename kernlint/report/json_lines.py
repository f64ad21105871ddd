"""`--format json-lines`: one JSON object per finding, one per line (JSON Lines), for tools that
stream or `grep` a report. Each object is a `diagnostics[]` entry of the JSON report."""

from __future__ import annotations

import json
from typing import TextIO

from kernlint.diagnostics import RunResult


def render(result: RunResult, stream: TextIO) -> None:
    """Write each diagnostic on its own line, in the engine's order; nothing when there is none."""
    for diagnostic in result.diagnostics:
        stream.write(json.dumps(diagnostic.to_json(), separators=(",", ":")) + "\n")
