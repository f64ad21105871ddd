"""The result cache: one index per project and context, checked by file metadata before any file is read.

A warm run must cost little more than start-up, so, as in ruff, each analysed file is recorded with
its (size, mtime_ns, inode) stamp, the digest of its bytes and those of the headers it included. A
file whose stamp and whose headers' stamps are unchanged keeps its result without being read; one
whose stamp changed is hashed, and keeps its result when its bytes did not (a `touch`, a checkout).
Only what is left is analysed. The index is one file per (kernlint version, configuration, rules,
devices) in the project's folder of the user's cache directory, read once and written once
(atomically) per run, and signed with the user's key: an index this user's kernlint did not write
counts as empty (`kernlint.cache_home` says why and where; `--cache-dir` chooses another directory,
and `kernlint.cache_upkeep` keeps it bounded).

A stamp is trusted only when the file is older than the index by more than a file system's
timestamp resolution could hide: a file written in the same tick as the index is hashed next time
(git's "racily clean" rule).
"""

from __future__ import annotations

import gc
import hashlib
import json
import marshal
import os
import posixpath
import stat
import time
from pathlib import Path
from typing import Any

from kernlint import __version__, interrupts
from kernlint.cache_home import Signer, cache_home, signer
from kernlint.cache_upkeep import project_folder, prune, record_root
from kernlint.diagnostics import Diagnostic, FileCoverage, FileResult, FileStatus
from kernlint.discovery import SourceEntry
from kernlint.reading import ReadProblem, read_regular
from kernlint.records import record

# Coarser than any file system's timestamp resolution (FAT's 2 s included).
RACY_NS = 2_000_000_000
_FORMAT = 4  # 3: results carry their kernel coverage; 4: the body is marshal data, not JSON
# An index file is this prefix, the body's signature (hex) and a newline, then the body: the document
# as `marshal` data, which loads twice as fast as JSON (a warm run reads every result in it). Only a
# body the signature verifies is loaded, so marshal only ever reads what this user's kernlint wrote.
_MAGIC = b"kernlint-index "
_UNSEEN: Any = object()
INDEX_SUFFIX = ".bin"

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


@record
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
    """The cached results of one project for one context, keyed by each file's absolute path.

    `directory` holds the indexes (one sub-folder per kernlint version); by default the project's
    folder in `cache_dir` (`--cache-dir`), else in the user's cache directory. Wherever it is, only
    indexes signed with this user's key are read."""

    def __init__(self, root: str, context: str, directory: Path | None = None, cache_dir: str | None = None) -> None:
        name = hashlib.sha256(f"{__version__}\0{context}".encode()).hexdigest()[:20]
        home = cache_home()
        if directory is None and home is not None:
            directory = project_folder(root, cache_dir)
        # None (no home, hence no key, or no folder): nothing is read or written
        self.path = None if directory is None else directory / __version__ / f"index-{name}{INDEX_SUFFIX}"
        self.root = os.path.realpath(root)
        self.context = context
        self._signer = signer(home) if home is not None else None
        self._entries: dict[str, dict[str, Any]] = {}
        self._written_ns = 0
        self._dirty = False
        self._stamps: dict[str, Stamp | None] = {}  # by absolute path, taken once per run
        self._trusted: dict[str, list[int] | None] = {}  # by absolute path: see `_trustworthy`
        self._digests: dict[str, str | None] = {}
        self._fresh: set[str] = set()  # the entries `store` made this run, by absolute path
        self._load()

    def _load(self) -> None:
        """Read the index if this user's key signed it; a missing, foreign, forged or damaged index is
        an empty one."""
        if self._signer is None or self.path is None:
            return
        try:
            document = _verified(self.path.read_bytes(), self._signer)
            if (
                document is not None
                and document["format"] == _FORMAT
                and document["context"] == self.context
                and document["root"] == self.root
            ):
                self._entries = document["files"]
                self._written_ns = int(document["written_ns"])
                os.utime(self.path)  # used now: the last index pruning would remove
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            self._entries = {}

    def lookup(self, entry: SourceEntry) -> FileResult | None:
        """The cached result of `entry` if neither it nor any header it included changed; None otherwise."""
        return self._lookup(entry, os.path.abspath(entry.path))

    def lookup_all(self, entries: list[SourceEntry]) -> list[FileResult | None]:
        """`lookup` of each entry."""
        return [self._lookup(e, absolute) for e, absolute in zip(entries, absolute_paths([e.path for e in entries]))]

    def _lookup(self, entry: SourceEntry, absolute: str) -> FileResult | None:
        cached = self._entries.get(absolute)
        if cached is None or cached["path"] != entry.path or cached["family"] != [entry.family, entry.fixed_form]:
            return None
        try:
            if cached["stamp"] != self._trustworthy(absolute):
                current = self._stamp(absolute)
                if current is None or self._digest(absolute) != cached["digest"]:
                    return None
                cached["stamp"] = list(current)  # same bytes: trust the new stamp next time
                self._dirty = True
            for dependency in cached["dependencies"]:
                path, stamp, expected = dependency
                if expected is None:  # a header that could not be hashed when recorded is never unchanged
                    return None
                if stamp != self._trustworthy(path) and not self._same_bytes(dependency):
                    return None
            return _decode(cached)
        except (KeyError, TypeError, ValueError):
            return None

    def _trustworthy(self, path: str) -> list[int] | None:
        """The file's stamp now, in the index's form (a list), if a recorded stamp equal to it is to be
        trusted: the file exists, and was older than the index when the index was written (see the
        module's docstring); None otherwise (a recorded stamp is then never equal to it). Once per path
        and run: a header is asked about once per file that includes it."""
        found = self._trusted.get(path, _UNSEEN)
        if found is _UNSEEN:
            current = self._stamp(path)
            found = list(current) if current is not None and current[1] < self._written_ns - RACY_NS else None
            self._trusted[path] = found
        return found

    def _stamp(self, path: str) -> Stamp | None:
        if path not in self._stamps:
            self._stamps[path] = _current_stamp(path)
        return self._stamps[path]

    def _digest(self, path: str) -> str | None:
        if path not in self._digests:
            self._digests[path] = _file_digest(path)
        return self._digests[path]

    def _same_bytes(self, dependency: list[Any]) -> bool:
        """A header whose stamp is not trusted is unchanged when its bytes hash as recorded (its new
        stamp is then kept)."""
        path, _stamp, expected = dependency
        current = self._stamp(path)
        if current is None or self._digest(path) != expected:
            return False
        dependency[1] = list(current)
        self._dirty = True
        return True

    def store(self, entry: SourceEntry, result: FileResult, record: Record) -> None:
        absolute = os.path.abspath(entry.path)
        self._fresh.add(absolute)
        self._entries[absolute] = {
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
        """Write the index, signed, atomically when it changed, without the files that no longer exist;
        a cache that cannot be written is silently skipped."""
        if not self._dirty or self._signer is None or self.path is None:
            return
        import tempfile  # only a run that analysed something writes

        self._as_json_gives_back()
        started = time.time_ns()
        files = {path: cached for path, cached in self._entries.items() if os.path.exists(path)}
        document = {
            "format": _FORMAT,
            "root": self.root,
            "context": self.context,
            "written_ns": started,
            "files": files,
        }
        body = marshal.dumps(document)
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with (
                interrupts.deferred(),
                tempfile.NamedTemporaryFile("wb", dir=self.path.parent, delete=False, suffix=".tmp") as handle,
            ):
                handle.write(_MAGIC + self._signer.sign(body) + b"\n" + body)
                handle.close()
                os.replace(handle.name, self.path)
            record_root(self.path.parent.parent, self.root)
            prune(self.path.parent.parent, self.path)
        except OSError:
            return
        self._dirty = False

    def _as_json_gives_back(self) -> None:
        """The entries stored this run, as JSON gives them back (tuples as lists, keys as strings): a cached
        result is decoded from that form, as when the index was JSON. Their repeated strings are then
        made one object (`_shared`), which marshal writes once and refers back to: the index is 30 %
        smaller and loads in 20 % less time (a finding's path, code, severity, cost texts repeat)."""
        fresh = {path: self._entries[path] for path in self._fresh}
        strings: dict[str, str] = {}
        collecting = gc.isenabled()
        gc.disable()  # what this makes lives on: collections would only walk it (a third of the time)
        try:
            for path, cached in json.loads(json.dumps(fresh)).items():
                self._entries[path] = _shared(cached, strings)
        finally:
            if collecting:
                gc.enable()
        self._fresh.clear()


def _shared(cached: dict[str, Any], strings: dict[str, str]) -> dict[str, Any]:
    """A stored entry (as JSON gives it back) with the strings that repeat across entries made the first
    equal one `strings` has seen: paths, and the texts of each finding and of the tables in it (its
    code, severity, evidence's and cost's words); deeper strings are rarely repeated, and walking them
    all would cost a filling run ten times as much for a sixth of the gain."""
    share = strings.setdefault
    cached["path"] = share(cached["path"], cached["path"])
    for dependency in cached["dependencies"]:
        dependency[0] = share(dependency[0], dependency[0])
    result = cached["result"]
    result["path"] = share(result["path"], result["path"])
    for diagnostic in result["diagnostics"]:
        for key, value in diagnostic.items():
            if isinstance(value, str):
                diagnostic[key] = share(value, value)
            elif isinstance(value, dict):
                for inner, item in value.items():
                    if isinstance(item, str):
                        value[inner] = share(item, item)
    return cached


def _verified(data: bytes, signer: Signer) -> Any:
    """The index document in `data` if its signature verifies with the user's key, else None."""
    end = data.find(b"\n")
    if end < 0 or not data.startswith(_MAGIC):
        return None
    body = memoryview(data)[end + 1 :]  # not a copy of the body
    if not signer.verifies(body, data[len(_MAGIC) : end]):
        return None
    return marshal.loads(body)


def absolute_paths(paths: list[str]) -> list[str]:
    """`os.path.abspath` of each path, asking the working directory once (not once per path: a warm run
    over HeCBench looks up 5,000 files); what `posixpath.abspath` does, elsewhere that function itself."""
    if os.path is not posixpath:
        return [os.path.abspath(path) for path in paths]
    here = os.getcwd()
    return [posixpath.normpath(posixpath.join(here, path)) for path in paths]


_STATUSES = {status.value: status for status in FileStatus}  # `FileStatus(value)`, as a lookup


def _decode(cached: dict[str, Any]) -> FileResult:
    data = cached["result"]
    diagnostics = data["diagnostics"]
    return FileResult(
        path=data["path"],
        language=data["language"],
        status=_STATUSES[data["status"]],
        error=data["error"],
        diagnostics=tuple(map(Diagnostic.from_json, diagnostics)) if diagnostics else (),
        dependencies=tuple([path for path, _stamp, _digest in cached["dependencies"]]),
        content_digest=cached["digest"],
        coverage=FileCoverage.from_json(data.get("coverage")),
    )
