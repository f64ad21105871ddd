"""Snapshot tests: what a user sees for every corpus file on each device it pins.

The corpus tests check which (line, code) pairs a file produces; these pin everything else: messages,
evidence, code frames, notes and the fix edits (`--diff --unsafe-fixes`), one snapshot file per corpus
file under tests/snapshots/. A change to any of it fails here with a unified diff. When the change is
intended, rewrite the snapshots and review their diff like code:

    KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from conftest import CORPUS, REPO
from corpus_annotations import corpus_files, pinned_devices, pinned_frontend
from kernlint.cli import main

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("KERNLINT_UPDATE_SNAPSHOTS") == "1"
FILES = corpus_files(CORPUS)
# Every run is serial and uncached, so a snapshot never depends on the machine or on an earlier run; it
# lists the infos too (the default text report counts them: tests/test_report_formats.py checks that).
FIXED_ARGS = ("--no-cache", "--jobs", "1", "--show-infos")


def snapshot_path(source: Path) -> Path:
    return SNAPSHOTS / f"{source.relative_to(CORPUS).as_posix()}.snap"


def kernlint_section(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """One in-process `kernlint` run as its command line, exit code, standard output and error."""
    status = main([*args, *FIXED_ARGS])
    out, err = capsys.readouterr()
    section = f"$ kernlint {' '.join(args)}\n[exit {status}]\n{out}"
    return section + (f"[stderr]\n{err}" if err else "")


def render_snapshot(source: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The text report and the fixes' diff of `source` (a repo-relative path) on each pinned device."""
    relative = source.relative_to(REPO).as_posix()
    text = source.read_text("utf-8", errors="replace")
    pinned = ("--frontend", "clang") if pinned_frontend(text) == "clang" else ()
    sections = []
    for device in pinned_devices(text):
        sections.append(kernlint_section(capsys, relative, *pinned, "--device", device, "--color", "never"))
        sections.append(kernlint_section(capsys, relative, *pinned, "--device", device, "--diff", "--unsafe-fixes"))
    return "\n".join(sections)


@pytest.mark.parametrize("source", FILES, ids=[p.relative_to(CORPUS).as_posix() for p in FILES])
def test_corpus_file_matches_its_snapshot(
    source: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)  # paths are reported as given: repo-relative
    monkeypatch.delenv("COLUMNS", raising=False)  # the text report's width then is its fixed minimum
    actual = render_snapshot(source, capsys)
    assert str(REPO) not in actual, "a snapshot must not hold a machine-specific absolute path"
    snapshot = snapshot_path(source)
    if UPDATE:
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_bytes(actual.encode("utf-8"))
        return
    if not snapshot.exists():
        pytest.fail(f"{snapshot.relative_to(REPO)} is missing: create it with KERNLINT_UPDATE_SNAPSHOTS=1")
    expected = snapshot.read_bytes().decode("utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{snapshot.relative_to(REPO)} (stored)",
            tofile="now",
        )
        pytest.fail(
            "output differs from its snapshot; if intended, rerun with KERNLINT_UPDATE_SNAPSHOTS=1 "
            "and review the snapshot diff:\n" + "".join(diff),
            pytrace=False,
        )


def test_no_snapshot_without_its_corpus_file() -> None:
    """A snapshot left behind by a renamed or deleted corpus file is removed (or reported)."""
    wanted = {snapshot_path(source) for source in FILES}
    stale = sorted(p for p in SNAPSHOTS.rglob("*.snap") if p not in wanted)
    if UPDATE:
        for path in stale:
            path.unlink()
        return
    assert not stale, f"snapshots without a corpus file (delete them): {[str(p.relative_to(REPO)) for p in stale]}"
