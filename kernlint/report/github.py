"""`--format github`: GitHub Actions workflow commands, which the runner turns into annotations."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from kernlint.diagnostics import Diagnostic, RunResult, Severity
from kernlint.report._paths import display_path, root_dir

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message the way the Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value; `:` and `,` would otherwise end the value early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(diagnostic: Diagnostic, root: str) -> str:
    """One `::level file=…,line=…::message` line for `diagnostic`."""
    props = {
        "file": display_path(diagnostic.path, root),
        "line": str(diagnostic.line),
        "col": str(diagnostic.column),
        "endLine": str(diagnostic.end_line),
        "endColumn": str(diagnostic.end_column),
        "title": diagnostic.code,
    }
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props.items())
    # The same finding on several devices would otherwise give identical annotations.
    message = f"{diagnostic.message} ({diagnostic.device})" if diagnostic.device else diagnostic.message
    return f"::{_COMMAND[diagnostic.severity]} {joined}::{escape_data(message)}"


def render(result: RunResult, stream: TextIO, *, root: Path | None = None) -> None:
    """Write one workflow command per diagnostic, in the engine's order."""
    base = root_dir(root)
    for diagnostic in result.diagnostics:
        stream.write(command(diagnostic, base) + "\n")
