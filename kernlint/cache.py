"""The result cache: a file's diagnostics keyed by its content, the configuration, the rules and
kernlint's version, and validated against the contents of the headers it included."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from kernlint import __version__
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus
from kernlint.reading import ReadProblem, read_regular

CACHE_DIR = ".kernlint_cache"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: str) -> str | None:
    try:
        return digest(read_regular(path))
    except ReadProblem:
        return None


class ResultCache:
    """One JSON file per (content, context) key under `<root>/.kernlint_cache/`."""

    def __init__(self, root: str, context: str) -> None:
        self.directory = Path(root) / CACHE_DIR / __version__
        self.context = context

    def key(self, path: str, family: str, data_digest: str) -> str:
        return digest(f"{__version__}\0{self.context}\0{path}\0{family}\0{data_digest}".encode())

    def get(self, key: str) -> FileResult | None:
        try:
            entry = json.loads((self.directory / key[:2] / f"{key}.json").read_text("utf-8"))
            for dependency, expected in entry["dependencies"]:
                if _file_digest(dependency) != expected:
                    return None
            data = entry["result"]
            return FileResult(
                path=data["path"], language=data["language"], status=FileStatus(data["status"]),
                error=data["error"], diagnostics=tuple(Diagnostic.from_json(d) for d in data["diagnostics"]),
                dependencies=tuple(d for d, _ in entry["dependencies"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, result: FileResult) -> None:
        """Write atomically; a cache that cannot be written is silently skipped."""
        entry = {
            "dependencies": [[d, _file_digest(d)] for d in result.dependencies],
            "result": {**result.to_json(), "diagnostics": [d.to_json() for d in result.diagnostics]},
        }
        target = self.directory / key[:2] / f"{key}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            _ensure_gitignore(self.directory.parent)
            with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, suffix=".tmp",
                                             encoding="utf-8") as handle:
                json.dump(entry, handle)
            os.replace(handle.name, target)
        except OSError:
            return


def _ensure_gitignore(directory: Path) -> None:
    marker = directory / ".gitignore"
    if not marker.exists():
        marker.write_text("# Created by kernlint\n*\n", "utf-8")
