"""The result cache: one index per project and context, checked by file metadata before any file is read.

A warm run must cost little more than start-up, so, as in ruff, each analysed file is recorded with
its (size, mtime_ns, inode) stamp, the digest of its bytes and those of the headers it included. A
file whose stamp and whose headers' stamps are unchanged keeps its result without being read; one
whose stamp changed is hashed, and keeps its result when its bytes did not (a `touch`, a checkout).
Only what is left is analysed. The index is one JSON file per (kernlint version, configuration,
rules, devices) under `<root>/.kernlint_cache/`, read once and written once (atomically) per run.

A stamp is trusted only when the file is older than the index by more than a file system's
timestamp resolution could hide: a file written in the same tick as the index is hashed next time
(git's "racily clean" rule).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernlint import __version__
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus
from kernlint.discovery import SourceEntry
from kernlint.reading import ReadProblem, read_regular

CACHE_DIR = ".kernlint_cache"
# Coarser than any file system's timestamp resolution (FAT's 2 s included).
RACY_NS = 2_000_000_000
_FORMAT = 1

Stamp = tuple[int, int, int]  # size, mtime_ns, inode


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def stamp_of(status: os.stat_result) -> Stamp:
    return status.st_size, status.st_mtime_ns, status.st_ino


def _current_stamp(path: str) -> Stamp | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return stamp_of(status) if stat.S_ISREG(status.st_mode) else None


def _file_digest(path: str) -> str | None:
    try:
        return digest(read_regular(path))
    except ReadProblem:
        return None


@dataclass(frozen=True)
class Record:
    """How to tell later that an analysed file and its headers are unchanged: the file's stamp when it
    was read, and each header's path, stamp and digest (None: it could not be read)."""

    stamp: Stamp
    dependencies: tuple[tuple[str, Stamp | None, str | None], ...]


_HEADER_DIGESTS: dict[tuple[str, Stamp], str | None] = {}


def record_for(status: os.stat_result, result: FileResult) -> Record:
    """The record of a file just analysed; a header's digest is computed once per process however
    many files include it."""
    dependencies: list[tuple[str, Stamp | None, str | None]] = []
    for path in result.dependencies:
        current = _current_stamp(path)
        if current is not None and (path, current) not in _HEADER_DIGESTS:
            _HEADER_DIGESTS[(path, current)] = _file_digest(path)
        dependencies.append((path, current, None if current is None else _HEADER_DIGESTS[(path, current)]))
    return Record(stamp_of(status), tuple(dependencies))


def cacheable(result: FileResult) -> bool:
    """Errors (an unreadable file, a crash, a timeout) are not kept: the next run tries again."""
    return result.status is not FileStatus.ERROR and not any(d.evidence.get("internal") for d in result.diagnostics)


class CacheIndex:
    """The cached results of one project for one context, keyed by each file's absolute path."""

    def __init__(self, root: str, context: str) -> None:
        name = hashlib.sha256(f"{__version__}\0{context}".encode()).hexdigest()[:20]
        self.path = Path(root) / CACHE_DIR / __version__ / f"index-{name}.json"
        self.context = context
        self._entries: dict[str, dict[str, Any]] = {}
        self._written_ns = 0
        self._dirty = False
        self._stamps: dict[str, Stamp | None] = {}  # by absolute path, taken once per run
        self._digests: dict[str, str | None] = {}
        self._load()

    def _load(self) -> None:
        try:
            document = json.loads(self.path.read_bytes())
            if document["format"] == _FORMAT and document["context"] == self.context:
                self._entries = document["files"]
                self._written_ns = int(document["written_ns"])
        except (OSError, ValueError, KeyError, TypeError):
            self._entries = {}  # a missing, foreign or damaged index is an empty one

    def _trusted(self, stamp: list[int] | tuple[int, ...] | None, current: Stamp | None) -> bool:
        """The stamps agree, and the file was older than the index when the index was written."""
        return (
            stamp is not None
            and current is not None
            and tuple(stamp) == current
            and current[1] < self._written_ns - RACY_NS
        )

    def lookup(self, entry: SourceEntry) -> FileResult | None:
        """The cached result of `entry` if neither it nor any header it included changed; None otherwise."""
        absolute = os.path.abspath(entry.path)
        cached = self._entries.get(absolute)
        if cached is None or cached["path"] != entry.path or cached["family"] != [entry.family, entry.fixed_form]:
            return None
        try:
            current = self._stamp(absolute)
            if not self._trusted(cached["stamp"], current):
                if current is None or self._digest(absolute) != cached["digest"]:
                    return None
                cached["stamp"] = list(current)  # same bytes: trust the new stamp next time
                self._dirty = True
            if not all(self._unchanged(dependency) for dependency in cached["dependencies"]):
                return None
            return _decode(cached)
        except (KeyError, TypeError, ValueError):
            return None

    def _stamp(self, path: str) -> Stamp | None:
        if path not in self._stamps:
            self._stamps[path] = _current_stamp(path)
        return self._stamps[path]

    def _digest(self, path: str) -> str | None:
        if path not in self._digests:
            self._digests[path] = _file_digest(path)
        return self._digests[path]

    def _unchanged(self, dependency: list[Any]) -> bool:
        """A header is unchanged when its stamp is trusted, or else when its bytes hash the same (the
        new stamp is then kept). A header that could not be hashed when recorded is never unchanged."""
        path, stamp, expected = dependency
        current = self._stamp(path)
        if expected is None or current is None:
            return False
        if self._trusted(stamp, current):
            return True
        if self._digest(path) != expected:
            return False
        dependency[1] = list(current)
        self._dirty = True
        return True

    def store(self, entry: SourceEntry, result: FileResult, record: Record) -> None:
        self._entries[os.path.abspath(entry.path)] = {
            "path": entry.path,
            "family": [entry.family, entry.fixed_form],
            "stamp": list(record.stamp),
            "digest": result.content_digest,
            "dependencies": [
                [path, list(stamp) if stamp else None, expected] for path, stamp, expected in record.dependencies
            ],
            "result": {**result.to_json(), "diagnostics": [d.to_json() for d in result.diagnostics]},
        }
        self._dirty = True

    def save(self) -> None:
        """Write the index atomically when it changed, without the files that no longer exist; a cache
        that cannot be written is silently skipped."""
        if not self._dirty:
            return
        import tempfile  # only a run that analysed something writes

        started = time.time_ns()
        files = {path: cached for path, cached in self._entries.items() if os.path.exists(path)}
        document = {"format": _FORMAT, "context": self.context, "written_ns": started, "files": files}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _ensure_gitignore(self.path.parent.parent)
            with tempfile.NamedTemporaryFile(
                "w", dir=self.path.parent, delete=False, suffix=".tmp", encoding="utf-8"
            ) as handle:
                json.dump(document, handle, separators=(",", ":"))
            os.replace(handle.name, self.path)
        except OSError:
            return
        self._dirty = False


def _decode(cached: dict[str, Any]) -> FileResult:
    data = cached["result"]
    return FileResult(
        path=data["path"],
        language=data["language"],
        status=FileStatus(data["status"]),
        error=data["error"],
        diagnostics=tuple(Diagnostic.from_json(d) for d in data["diagnostics"]),
        dependencies=tuple(path for path, _stamp, _digest in cached["dependencies"]),
        content_digest=cached["digest"],
    )


def _ensure_gitignore(directory: Path) -> None:
    marker = directory / ".gitignore"
    if not marker.exists():
        marker.write_text("# Created by kernlint\n*\n", "utf-8")
