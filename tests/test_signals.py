"""Ctrl-C and SIGTERM (issue 19 item 8): both end a run as "interrupted" with the shell's exit code
(130, 143), never a traceback or an "internal error"; an interrupted `--fix` names the files it
already rewrote and leaves no temporary file behind.

Each run is a real process that signals itself at a chosen point (a patched function), so where the
signal lands is decided by the test, not by timing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

LOOP = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
  q.wait(); // kernlint: ignore[KL207]
}
"""


def run_patched(cwd: Path, patch: str, *args: str) -> subprocess.CompletedProcess:
    """`kernlint ARGS` in a process that first runs `patch` (Python, with os, signal and kernlint.*
    importable), which is where the test puts its signal."""
    script = f"import os, signal, sys\n{patch}\nfrom kernlint.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)},
    )


SIGNAL_DURING_DISCOVERY = """
import kernlint.cli.check as check
real = check.discover
def discover(*args, **kwargs):
    os.kill(os.getpid(), signal.{name})
    return real(*args, **kwargs)
check.discover = discover
"""


def test_sigterm_is_handled_like_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text(LOOP)
    for name, code in (("SIGINT", 130), ("SIGTERM", 143)):
        proc = run_patched(tmp_path, SIGNAL_DURING_DISCOVERY.format(name=name), "k.cpp", "--no-cache")
        assert proc.returncode == code, proc.stderr
        assert proc.stderr == "kernlint: interrupted\n" and proc.stdout == ""


def test_an_interruption_turned_into_another_error_by_c_code_is_still_an_interruption(tmp_path: Path) -> None:
    """tree-sitter compiling a query's regular expression turns a KeyboardInterrupt into a QueryError;
    kernlint said "internal error … please report it" for that Ctrl-C."""
    patch = """
import kernlint.cli.check as check
def run_projects(*args, **kwargs):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        sum(range(10))  # the handler runs here
    except KeyboardInterrupt:
        raise ValueError("Invalid predicate in pattern at row 20: regular expression error") from None
check.run_projects = run_projects
"""
    (tmp_path / "k.cpp").write_text(LOOP)
    proc = run_patched(tmp_path, patch, "k.cpp", "--no-cache")
    assert proc.returncode == 130 and proc.stderr == "kernlint: interrupted\n"


def test_an_interrupted_fix_names_the_files_it_rewrote_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    for name in ("a.cpp", "b.cpp", "c.cpp"):
        (tmp_path / name).write_text(LOOP)
    # SIGTERM arrives while the second file is being written: that write completes, and is reported.
    patch = """
import kernlint.fixes as fixes
real = fixes.write_source
calls = []
def write_source(path, text, expected):
    calls.append(path)
    if len(calls) == 2:
        os.kill(os.getpid(), signal.SIGTERM)
    real(path, text, expected)
fixes.write_source = write_source
"""
    proc = run_patched(tmp_path, patch, ".", "--fix", "--no-cache", "--jobs", "1")
    assert proc.returncode == 143, proc.stderr
    assert proc.stderr.splitlines() == [
        "kernlint: fixed 1 finding(s) in a.cpp (KL001)",
        "kernlint: fixed 1 finding(s) in b.cpp (KL001)",
        "kernlint: interrupted: 2 file(s) were fixed (a.cpp, b.cpp); no other file was changed",
    ]
    fixed = LOOP.replace(" // kernlint: ignore[KL207]", "")
    assert [(tmp_path / n).read_text() for n in ("a.cpp", "b.cpp", "c.cpp")] == [fixed, fixed, LOOP]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.cpp", "b.cpp", "c.cpp"]  # no .a.cpp.….tmp


def test_a_file_being_fixed_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """Ctrl-C inside the atomic write itself (after the temporary file is made) is held until the file
    is replaced, so neither a half-written file nor its temporary copy is left."""
    (tmp_path / "a.cpp").write_text(LOOP)
    patch = """
import kernlint.output as output
real = output.os.replace
def replace(source, target):
    os.kill(os.getpid(), signal.SIGINT)
    sum(range(10))
    real(source, target)
output.os.replace = replace
"""
    proc = run_patched(tmp_path, patch, "a.cpp", "--fix", "--no-cache")
    assert proc.returncode == 130, proc.stderr
    said = "kernlint: interrupted: 1 file(s) were fixed (a.cpp); no other file was changed"
    assert proc.stderr.splitlines()[-1] == said
    assert (tmp_path / "a.cpp").read_text() == LOOP.replace(" // kernlint: ignore[KL207]", "")
    assert [p.name for p in tmp_path.iterdir()] == ["a.cpp"]
