"""Reading a file kernlint was pointed at, bounded: only regular files, and only up to a size limit.

A path can name a FIFO (opening it waits for a writer forever), a device (`/dev/zero` never ends) or a
socket, directly or through a symbolic link. Every check applies to what the path resolves to, and
to the file actually opened, so a path swapped between the checks cannot slip through.
"""

from __future__ import annotations

import os
import stat

# Larger files are reported, not parsed: generated sources of this size hold no hand-written kernels
# and would dominate a run's time.
MAX_FILE_BYTES = 16 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class ReadProblem(Exception):
    """Why a file was not read; `skipped` when it is no source file at all (a note, not an error)."""

    def __init__(self, message: str, skipped: bool = False) -> None:
        super().__init__(message)
        self.skipped = skipped


def _check(mode: int, size: int, limit: int) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "a special file")
        raise ReadProblem(f"{kind}, not a regular file; skipped", skipped=True)
    if size > limit:
        raise ReadProblem(f"file is {size / 2**20:.1f} MiB, over kernlint's {limit // 2**20} MiB limit; not analysed")


def read_regular(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of `path` when it resolves to a regular file of at most `limit` bytes."""
    return read_stamped(path, limit)[0]


def read_stamped(path: str, limit: int = MAX_FILE_BYTES) -> tuple[bytes, os.stat_result]:
    """`read_regular`, with the status of the file actually read (the cache records its stamp)."""
    try:
        status = os.stat(path)
        _check(status.st_mode, status.st_size, limit)
        # Non-blocking, so that a path replaced by a FIFO since the check cannot block the open.
        descriptor = os.open(
            path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        )
    except OSError as exc:
        raise ReadProblem(f"cannot read file: {exc.strerror or exc}") from None
    try:
        opened = os.fstat(descriptor)
        _check(opened.st_mode, opened.st_size, limit)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)  # a file that grows while read stops at the limit
    except OSError as exc:
        raise ReadProblem(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    _check(opened.st_mode, len(data), limit)
    return data, opened
