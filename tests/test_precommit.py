"""The pre-commit hook, driven by the real `pre-commit try-repo` against this repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

BAD = """#include <sycl/sycl.hpp>
void step(sycl::queue &q, float *p, int n) {
  for (int i = 0; i < n; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(64));
  }
}
"""
GOOD = BAD.replace(
    "  for (int i = 0; i < n; ++i) {\n    sycl::buffer<float> b(p, sycl::range<1>(64));\n  }\n",
    "  sycl::buffer<float> b(p, sycl::range<1>(64));\n",
)
FIXED_FORM = """      program saxpy
      integer i
      real x(100)
!$omp target teams distribute parallel do
      do i = 1, 100
        x(i) = 2.0 * x(i)
      end do
      end program
"""

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit try-repo needs git")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com",
        },
    )


def try_repo(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "kernlint", "--all-files", "--verbose"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-home"), "NO_COLOR": "1"},
    )


def test_hook_fails_on_the_bad_file_and_passes_once_fixed(tmp_path: Path) -> None:
    if not (REPO / ".git").exists():
        pytest.skip("pre-commit try-repo needs this repository to be a git checkout")
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    (project / "kernel.cpp").write_text(BAD)
    (project / "clean.cpp").write_text(GOOD)
    (project / "legacy.f").write_text(FIXED_FORM)
    (project / "notes.txt").write_text("not source\n")
    git(project, "add", "-A")
    failed = try_repo(project)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "kernel.cpp:4:5: KL101" in failed.stdout
    # kernel.cpp, clean.cpp and the untagged fixed-form legacy.f reach kernlint; notes.txt does not.
    assert "in 1 of 3 files." in failed.stdout
    (project / "kernel.cpp").write_text(GOOD)
    git(project, "add", "-A")
    passed = try_repo(project)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
