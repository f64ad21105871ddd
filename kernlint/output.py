"""Writing files the user asked for, atomically: a reader never sees half a report or source file."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path


class WriteError(Exception):
    """A file kernlint was asked to write cannot be written; the message names it and says why."""

    def __init__(self, path: Path, reason: str, what: str = "") -> None:
        super().__init__(f"cannot write {what + ' to ' if what else ''}{path}: {reason}")
        self.reason = reason


def check_writable(path: Path, what: str) -> None:
    """Fail before a long run rather than after it when `path` plainly cannot be written."""
    if path.is_dir():
        raise WriteError(path, "it is a directory", what)
    if not path.parent.is_dir():
        raise WriteError(path, f"directory {path.parent} does not exist", what)


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`; on any failure the
    temporary file is removed, `path` is untouched, and a `WriteError` says why."""
    import tempfile  # on use: every command imports this module, few write a file

    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteError(path, exc.strerror or str(exc)) from None
    try:
        with open(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise WriteError(path, exc.strerror or str(exc)) from None
        raise


@contextlib.contextmanager
def reader_may_leave() -> Iterator[None]:
    """Output to stdout inside the block (flushed at its end) may find that its reader went away
    (`kernlint … | head`). Then the rest goes to the null device, so that neither this block nor
    the exit fails on the broken pipe, and kernlint ends quietly, as git and ruff do. A stdout already
    closed (the language server's, by pygls at `exit`) has nothing left to flush."""
    try:
        yield
        if not sys.stdout.closed:
            sys.stdout.flush()
    except BrokenPipeError:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
