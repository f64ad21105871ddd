"""Source lines for reporters that quote code (text frames, SARIF fingerprints).

Reporters run after analysis and must never fail because a file vanished or is not UTF-8, so reading
is forgiving and each file is read at most once per render.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from kernlint.reading import ReadProblem, read_regular


class SourceLines:
    """Lazily read, cached lines of the files a run reported on. `given` holds the bytes of sources
    that are not on disk as analysed (stdin), which are quoted instead of any file of that name."""

    def __init__(self, given: Mapping[str, bytes] | None = None) -> None:
        self._cache: dict[str, list[str] | None] = {}
        self._given = dict(given or {})

    def lines(self, path: str) -> list[str] | None:
        """All lines of `path` without line endings, or None when it cannot be read."""
        if path not in self._cache:
            try:
                data = self._given[path] if path in self._given else read_regular(path)  # never a FIFO
            except ReadProblem:
                self._cache[path] = None
            else:
                # Universal newlines so CRLF files number their lines like the engine does.
                lines = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").read().split("\n")
                if lines and not lines[-1]:  # the final newline ends the last line; it starts no new one
                    lines.pop()
                self._cache[path] = lines
        return self._cache[path]
