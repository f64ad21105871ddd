"""Writing files the user asked for, atomically: a reader never sees half a report or source file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`."""
    directory = path.parent if str(path.parent) else Path(".")
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=directory, delete=False,
                                     prefix=f".{path.name}.", suffix=".tmp", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    try:
        if path.exists():
            os.chmod(handle.name, path.stat().st_mode & 0o7777)
        os.replace(handle.name, path)
    except OSError:
        os.unlink(handle.name)
        raise
