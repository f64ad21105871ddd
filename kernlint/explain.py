"""`kernlint explain PATH:LINE`: one finding's full cost derivation, for when the short phrase in the
message is not enough (which formula, which device figures, what was assumed, what is unknown)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TextIO

from kernlint.diagnostics import Diagnostic


def parse_location(text: str) -> tuple[str, int]:
    """`src/a.cpp:12` as (path, line); ValueError for anything else."""
    path, sep, line = text.rpartition(":")
    if not sep or not path or not line.isdigit() or int(line) < 1:
        raise ValueError(f"expected PATH:LINE (e.g. src/a.cpp:12), got {text!r}")
    return path, int(line)


def _same_path(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def findings_at(diagnostics: Iterable[Diagnostic], path: str, line: int, code: str | None = None) -> list[Diagnostic]:
    """The findings that start on `line` of `path` (of rule `code`, when given)."""
    return [
        d
        for d in diagnostics
        if d.line == line and _same_path(d.path, path) and (code is None or d.code == code.upper())
    ]


def derivation(diagnostic: Diagnostic) -> list[str]:
    """The finding, then its cost derivation line by line."""
    device = f" ({diagnostic.device})" if diagnostic.device else ""
    lines = [
        f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} "
        f"[{diagnostic.severity.value}] {diagnostic.message}{device}"
    ]
    if diagnostic.cost is None:
        lines.append("cost: none estimated (this rule reports on files or comments, not on the code's run)")
    else:
        lines += diagnostic.cost.derivation()
    return lines


def render(diagnostics: list[Diagnostic], stream: TextIO) -> None:
    for index, diagnostic in enumerate(diagnostics):
        if index:
            stream.write("\n")
        stream.write("\n".join(derivation(diagnostic)) + "\n")
