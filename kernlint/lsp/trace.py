"""Timestamps of each analysis on its way through the server and its worker, for
`benchmarks/bench_lsp.py --trace`: with `KERNLINT_LSP_TRACE` naming a file, both processes append
`<monotonic ns> <event> <label>` lines to it (the system-wide monotonic clock, so the two processes'
times compare); without it, nothing is written."""

from __future__ import annotations

import os
import time

TRACE = "KERNLINT_LSP_TRACE"


def mark(event: str, label: str, when: int | None = None) -> None:
    """Record that `event` happened now (or at monotonic ns `when`) to the analysis named `label`
    (`<file name>-<version>`)."""
    path = os.environ.get(TRACE)
    if path:
        with open(path, "a", encoding="utf-8") as trace:
            trace.write(f"{time.monotonic_ns() if when is None else when} {event} {label}\n")
