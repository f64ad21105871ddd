"""How a run's files are handed to its workers: biggest first, in chunks of about equal work.

Analysis time grows with a file's size, and a tree's sizes span four orders of magnitude. Handed out
in the order found, a large file met near the end keeps one worker busy while the others wait (on
HeCBench, the largest files are a few hundred kB among thousands of a few kB). Biggest first, the
long files start at once and the small ones fill the gaps at the end. Small files go in chunks, so
that a worker asks for work (a round trip through the pool's queues, a pickled task and result)
once per chunk rather than once per file; chunks are capped in bytes so none of them becomes the
straggler. The results are put back in the files' own order, so the output never depends on this.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

# Chunks per worker the run is cut into, at least: enough for the last chunks to even out the finish.
CHUNKS_PER_WORKER = 16
MAX_FILES_PER_CHUNK = 16


def file_sizes(paths: Sequence[str]) -> list[int]:
    """Each file's size in bytes (0 where it cannot be read: its error is found when it is read)."""
    sizes = []
    for path in paths:
        try:
            sizes.append(os.stat(path).st_size)
        except OSError:
            sizes.append(0)
    return sizes


def plan_chunks(sizes: Sequence[int], workers: int) -> list[list[int]]:
    """The files' indices in chunks, biggest files first; a chunk holds at most `MAX_FILES_PER_CHUNK`
    files and about `1 / (CHUNKS_PER_WORKER × workers)` of the bytes, except a file bigger than that,
    which is a chunk of its own. Every index appears exactly once."""
    order = sorted(range(len(sizes)), key=lambda index: (-sizes[index], index))
    budget = max(1, sum(sizes) // max(1, CHUNKS_PER_WORKER * workers))
    chunks: list[list[int]] = []
    current: list[int] = []
    held = 0
    for index in order:
        if current and (held + sizes[index] > budget or len(current) >= MAX_FILES_PER_CHUNK):
            chunks.append(current)
            current, held = [], 0
        current.append(index)
        held += sizes[index]
    if current:
        chunks.append(current)
    return chunks
