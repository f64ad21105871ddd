"""Whether a C compiler reads a file: a `.c` file, or a header that a `.c` file includes.

kernlint analyses a header on its own, but what may be written into it depends on who includes it: a
header a `.c` file includes (directly, or through other headers) must stay C, so `std::max` and
`#include <algorithm>` are not for it. Who includes a header is not in the header; it is read from
the `.c` files of the header's folder and of the folder above it (where C sources that include a
project's headers sit), following their quoted `#include "…"` lines. A `.c` file elsewhere is not
seen: the report says what kernlint read (`dependencies`), so a cached result is renewed when one of
those files changes.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

_HEADERS = frozenset({".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inc", ".inl", ".ipp", ".tpp"})
_QUOTED = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
_MAX_FILES = 400  # headers followed from one folder's C files (a bound on the reading, never reached in practice)


def compiled_as_c(path: str) -> tuple[bool, tuple[str, ...]]:
    """(whether a C compiler reads `path`, the `.c` files looked at to tell)."""
    suffix = Path(path).suffix.lower()
    if Path(path).suffix == ".c":
        return True, ()
    if suffix not in _HEADERS or not os.path.isfile(path):
        return False, ()
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    sources = _c_sources(folder) + _c_sources(os.path.dirname(folder))
    stamps = tuple((source, *_stamp(source)) for source in sources)
    return target in _reached(stamps), sources


def _c_sources(folder: str) -> tuple[str, ...]:
    """The `.c` files of `folder`, listed once per state of the folder: every header of a folder asks,
    and the folder above is often a large one (HeCBench's `src`, thousands of entries). Adding,
    removing or renaming an entry changes the folder's modification and change times."""
    try:
        status = os.stat(folder)
    except OSError:
        return ()
    return _listed_c_sources(folder, status.st_ino, status.st_mtime_ns, status.st_ctime_ns)


@lru_cache(maxsize=256)
def _listed_c_sources(folder: str, _inode: int, _mtime: int, _ctime: int) -> tuple[str, ...]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return ()
    return tuple(os.path.join(folder, name) for name in names if name.endswith(".c"))


def _stamp(path: str) -> tuple[int, int]:
    try:
        status = os.stat(path)
    except OSError:
        return (0, 0)
    return status.st_mtime_ns, status.st_size


@lru_cache(maxsize=64)
def _reached(sources: tuple[tuple[str, int, int], ...]) -> frozenset[str]:
    """The real paths of the headers the C files `sources` include, directly or through each other
    (keyed by the files' modification times, so an edit is seen by a long-running process)."""
    found: set[str] = set()
    pending = [os.path.realpath(source) for source, _mtime, _size in sources]
    seen = set(pending)
    while pending and len(seen) <= _MAX_FILES:
        current = pending.pop()
        try:
            text = Path(current).read_bytes()
        except OSError:
            continue
        for match in _QUOTED.finditer(text):
            included = os.path.realpath(os.path.join(os.path.dirname(current), os.fsdecode(match.group(1))))
            if included in seen or not os.path.isfile(included):
                continue
            seen.add(included)
            found.add(included)
            pending.append(included)
    return frozenset(found)
