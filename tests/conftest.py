"""Shared fixtures: paths, and running kernlint in-process or as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True, scope="session")
def private_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite's own user cache directory (kernlint's cache and key live there), in-process and in
    the kernlint processes tests start: never the real user's."""
    home = tmp_path_factory.mktemp("cache-home")
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(home)
    yield home
    if previous is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = previous


def cache_folder(root: Path) -> Path:
    """Where kernlint keeps the cache indexes of the project at `root` (in the suite's cache home)."""
    from kernlint.cache_home import cache_home, project_dir

    home = cache_home()
    assert home is not None
    return project_dir(str(root), home)


def run_kernlint(
    *args: str, cwd: Path | None = None, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m kernlint` as a user would, without the cache unless asked."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "kernlint", *args],
        cwd=cwd or REPO,
        input=stdin,
        capture_output=True,
        env=full_env,
        timeout=300,
    )


def run_json(*args: str, cwd: Path | None = None) -> tuple[int, dict]:
    proc = run_kernlint(*args, "--format", "json", "--no-cache", cwd=cwd)
    assert proc.stdout, proc.stderr.decode()
    return proc.returncode, json.loads(proc.stdout)


def run_rule(
    rule_class, code: str, device: str | None = "xe-hpc", path: str = "t.cpp", options: dict[str, Any] | None = None
) -> list:
    """One rule's diagnostics on `code` (dedented) for one device, with `options` merged over its defaults:
    the front-end and the rule exactly as the engine runs them, without the engine around them."""
    import textwrap

    from kernlint.frontends.cpp.frontend import extract
    from kernlint.occupancy import load_device
    from kernlint.rule import RuleContext
    from kernlint.source import SourceFile

    data = textwrap.dedent(code).encode()
    facts = extract(path, data)
    profile = load_device(device) if rule_class.needs_device and device else None
    ctx = RuleContext(
        rule_class, SourceFile(path, data), facts.language, profile, {**rule_class.options, **(options or {})}
    )
    return list(rule_class().check(facts, ctx))


@pytest.fixture
def kernlint():
    return run_kernlint
