"""Reporters: render a finished `RunResult` in one of the output formats of docs/contract.md §4.

Each format lives in its own module; this one only dispatches, so the CLI and the LSP need a single
entry point and a format's imports (e.g. `rich`) are paid only when that format is used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from kernlint.diagnostics import RunResult

FORMATS = ("text", "concise", "json", "json-lines", "junit", "sarif", "github")


def render(
    fmt: str,
    result: RunResult,
    stream: TextIO,
    *,
    color: bool | None = None,
    statistics: bool = False,
    quiet: bool = False,
    show_partial: bool = False,
    root: Path | None = None,
    sources: Mapping[str, bytes] | None = None,
    timings: bool = True,
    show_infos: Callable[[str], bool] | None = None,
) -> None:
    """Write `result` to `stream` as `fmt`.

    `color`, `statistics`, `quiet` and `show_partial` concern the text formats (text, concise) only;
    `root` (default: the working directory) is what SARIF URIs and GitHub annotation paths are made
    relative to; `sources` holds the bytes of sources read from stdin, which code frames and SARIF
    fingerprints quote; without `timings` the JSON report leaves out the run's duration, so two runs
    over the same files write the same bytes; `show_infos` says, per file, whether the text formats list
    its infos (None: every one), the others always hold every finding. Diagnostics are written in the
    order given, which the engine has already made deterministic.
    """
    if fmt in ("text", "concise"):
        from kernlint.report import text

        text.render(
            result,
            stream,
            color=color,
            statistics=statistics,
            quiet=quiet,
            concise=fmt == "concise",
            show_partial=show_partial,
            sources=sources,
            show_infos=show_infos,
        )
    elif fmt == "json":
        from kernlint.report import json_format

        json_format.render(result, stream, timings=timings)
    elif fmt == "json-lines":
        from kernlint.report import json_lines

        json_lines.render(result, stream)
    elif fmt == "junit":
        from kernlint.report import junit

        junit.render(result, stream, timings=timings)
    elif fmt == "sarif":
        from kernlint.report import sarif

        sarif.render(result, stream, root=root, sources=sources)
    elif fmt == "github":
        from kernlint.report import github

        github.render(result, stream, root=root)
    else:
        raise ValueError(f"unknown output format {fmt!r}; expected one of {', '.join(FORMATS)}")
