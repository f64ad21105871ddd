"""`--fix` and `--diff` never reach outside the folders given through a link that walking a folder
found: a repository can carry `link.cpp -> ../../.bashrc`, and a pre-commit `--fix` must not edit
the developer's files elsewhere (issue 26). Such a file is analysed and its findings reported; only
a file the user names on the command line is fixed wherever it resolves to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import run_kernlint

STALE = """#include <sycl/sycl.hpp>
void f(sycl::queue &q) {
  q.wait(); // kernlint: ignore[KL101]
}
"""
FIXED = STALE.replace(" // kernlint: ignore[KL101]", "")


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """repo/own.cpp, repo/sub/, and repo/link.cpp -> ../outside/victim.cpp, all with a fix to apply."""
    (tmp_path / "repo" / "sub").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "victim.cpp").write_text(STALE)
    (tmp_path / "repo" / "own.cpp").write_text(STALE)
    os.symlink("../outside/victim.cpp", tmp_path / "repo" / "link.cpp")
    return tmp_path


@pytest.mark.parametrize(("where", "path"), [(".", "repo"), ("repo", "."), ("repo/sub", "..")])
def test_fix_does_not_write_through_a_link_out_of_the_folder(tree: Path, where: str, path: str) -> None:
    proc = run_kernlint(path, "--fix", "--no-cache", "--output-format", "concise", "--show-infos", cwd=tree / where)
    stderr = proc.stderr.decode()
    assert (tree / "outside" / "victim.cpp").read_text() == STALE, stderr
    assert (tree / "repo" / "own.cpp").read_text() == FIXED
    assert "link.cpp: not fixed: it is a link to " in stderr and "outside the folders given" in stderr
    assert proc.returncode == 0  # KL001 is an info: it does not fail the run
    assert [line.split(":")[0] for line in proc.stdout.decode().splitlines() if "KL001" in line] == [
        os.path.relpath(tree / "repo" / "link.cpp", tree / where)
    ]


def test_diff_leaves_out_a_link_out_of_the_folder(tree: Path) -> None:
    proc = run_kernlint("repo", "--diff", "--no-cache", cwd=tree)
    assert "+++ b/repo/own.cpp" in proc.stdout.decode() and "link.cpp" not in proc.stdout.decode()
    assert "repo/link.cpp: not fixed: it is a link to " in proc.stderr.decode()
    assert "1 fix(es) would be applied in 1 file(s)" in proc.stderr.decode()
    assert proc.returncode == 1


def test_a_link_named_on_the_command_line_is_fixed(tree: Path) -> None:
    proc = run_kernlint("repo/link.cpp", "repo", "--fix", "--no-cache", cwd=tree)
    assert (tree / "outside" / "victim.cpp").read_text() == FIXED, proc.stderr.decode()
    assert (tree / "repo" / "link.cpp").is_symlink()
    assert (tree / "repo" / "own.cpp").read_text() == FIXED


def test_a_link_to_a_file_inside_a_folder_given_is_fixed(tree: Path) -> None:
    """Inside the folder walked, or inside another folder named on the same command line (the targets
    are files the walk itself skips, so that each file is fixed once)."""
    (tree / "repo" / "link.cpp").unlink()
    (tree / "repo" / ".shared").mkdir()
    (tree / "repo" / ".shared" / "real.cpp").write_text(STALE)
    os.symlink(".shared/real.cpp", tree / "repo" / "inner.cpp")
    (tree / "outside" / "kernel.inc").write_text(STALE)
    os.symlink("../outside/kernel.inc", tree / "repo" / "outer.cpp")
    proc = run_kernlint("repo", "outside", "--fix", "--no-cache", cwd=tree)
    assert "not fixed" not in proc.stderr.decode() and proc.returncode == 0
    assert (tree / "repo" / ".shared" / "real.cpp").read_text() == FIXED
    assert (tree / "outside" / "kernel.inc").read_text() == FIXED


def test_a_linked_folder_is_not_walked(tree: Path) -> None:
    """A directory link in the tree is not followed: what lies behind it is neither analysed nor fixed."""
    (tree / "repo" / "link.cpp").unlink()
    os.symlink("../outside", tree / "repo" / "linked")
    proc = run_kernlint("repo", "--fix", "--no-cache", "--output-format", "concise", cwd=tree)
    assert (tree / "outside" / "victim.cpp").read_text() == STALE
    assert "linked" not in proc.stdout.decode() + proc.stderr.decode()
