"""The output does not depend on how the run was spread: the JSON report (without its timings) is the
same bytes at jobs 1, 2 and 16 and from a cold and a warm cache, over the whole corpus; and the plan
that hands files to workers (biggest first, in chunks) covers every file exactly once."""

from __future__ import annotations

import io
import os
import shutil
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import kernlint.engine
import kernlint.limits
from conftest import CORPUS
from kernlint.cli import main
from kernlint.scheduling import MAX_FILES_PER_CHUNK, plan_chunks


def _report(*args: str) -> bytes:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["check", "corpus", "--format", "json", "--no-timings", "--exit-zero", *args])
    assert code == 0
    return out.getvalue().encode()


def test_the_report_is_the_same_bytes_at_every_job_count_cold_and_warm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    an_hour_ago = time.time() - 3600  # older than the index, so that the warm run trusts the stamps
    for directory, _dirs, files in os.walk(tmp_path / "corpus"):
        for name in files:
            os.utime(Path(directory) / name, (an_hour_ago, an_hour_ago))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    monkeypatch.setattr(kernlint.engine, "POOL_MIN_BYTES", 0)  # a pool, however small the corpus
    monkeypatch.setattr(kernlint.limits, "cpu_count", lambda: 16)  # jobs 16 on any machine
    reference = _report("--jobs", "1", "--no-cache")
    assert b'"code": "KL' in reference
    for jobs in ("2", "16"):
        assert _report("--jobs", jobs, "--no-cache") == reference, f"jobs {jobs} differs from jobs 1"
    assert _report("--jobs", "16") == reference  # cold: filling the cache
    assert any((tmp_path / "cache-home").rglob("index-*.bin"))
    for jobs in ("1", "2", "16"):
        assert _report("--jobs", jobs) == reference, f"a warm run at jobs {jobs} differs"


def test_the_plan_hands_out_every_file_once_biggest_first() -> None:
    sizes = [5, 900, 0, 40, 40, 7000, 3, *([12] * 40)]
    chunks = plan_chunks(sizes, workers=2)
    flat = [index for chunk in chunks for index in chunk]
    assert sorted(flat) == list(range(len(sizes)))
    assert [sizes[i] for i in flat] == sorted(sizes, reverse=True)
    assert chunks[0] == [5]  # bigger than a chunk's share of the bytes: alone, and first
    assert all(len(chunk) <= MAX_FILES_PER_CHUNK for chunk in chunks)
    assert len(chunks) > 2  # small files are chunked, not sent all to one worker


def test_the_plan_of_nothing_and_of_one_file() -> None:
    assert plan_chunks([], workers=4) == []
    assert plan_chunks([0], workers=4) == [[0]]
