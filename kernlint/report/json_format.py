"""`--format json`: the docs/contract.md §4 object, version 1, for scripts and other tools."""

from __future__ import annotations

import json
from typing import Any, TextIO

from kernlint.diagnostics import RunResult

JSON_VERSION = 1


def to_json(result: RunResult, timings: bool = True) -> dict[str, Any]:
    """The output object, keys in the contract's order so the text diff of two runs stays readable;
    without `timings`, no `elapsed_s` (a run's bytes then depend on nothing but its inputs)."""
    summary: dict[str, Any] = {
        "files": len(result.files),
        "diagnostics": len(result.diagnostics),
        "by_code": result.by_code(),
        "coverage": result.coverage(),
    }
    if timings:
        summary["elapsed_s"] = round(result.elapsed_s, 3)
    return {
        "version": JSON_VERSION,
        "tool": {"name": "kernlint", "version": result.tool_version},
        "devices": list(result.devices),
        "files": [f.to_json() for f in result.files],
        "diagnostics": [d.to_json() for d in result.diagnostics],
        "summary": summary,
    }


def render(result: RunResult, stream: TextIO, *, timings: bool = True) -> None:
    """Write the object as indented JSON; ASCII-escaped so no output encoding can break it."""
    json.dump(to_json(result, timings), stream, indent=2)
    stream.write("\n")
