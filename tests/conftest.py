"""Shared fixtures: paths, and running kernlint in-process or as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
SHARED = REPO.parent / "shared"


def run_kernlint(*args: str, cwd: Path | None = None, stdin: bytes | None = None,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run `python -m kernlint` as a user would, without the cache unless asked."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "kernlint", *args], cwd=cwd or REPO, input=stdin,
                          capture_output=True, env=full_env, timeout=300)


def run_json(*args: str, cwd: Path | None = None) -> tuple[int, dict]:
    proc = run_kernlint(*args, "--format", "json", "--no-cache", cwd=cwd)
    assert proc.stdout, proc.stderr.decode()
    return proc.returncode, json.loads(proc.stdout)


@pytest.fixture
def kernlint():
    return run_kernlint
