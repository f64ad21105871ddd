"""The cache counts only where this user's kernlint wrote it: an index that a repository brings, that
was copied from another user or machine, or that was edited, is ignored (the files are analysed), and
nothing is written into the project (issue 26)."""

from __future__ import annotations

import marshal
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from conftest import run_kernlint
from kernlint.cache import CacheIndex
from kernlint.cache_home import KEY_NAME, Signer, cache_home, project_dir, user_key
from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_files
from kernlint.session import make_setup

KERNEL = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *x, int n) {
  for (int s = 0; s < 4; ++s) {
    sycl::buffer<float, 1> b(x, sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1.0f; });
    });
  }
}
"""
AN_HOUR_AGO = time.time() - 3600


def _age(path: Path) -> None:
    os.utime(path, (AN_HOUR_AGO, AN_HOUR_AGO))


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "k.cpp").write_bytes(KERNEL)
    _age(root / "k.cpp")
    return root


def _recreate(path: Path) -> None:
    """The same bytes in a new file (new inode and mtime), as a fresh checkout has them."""
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    _age(path)


def _indexes(*folders: Path) -> list[Path]:
    return sorted(index for folder in folders for index in folder.rglob("index-*.bin"))


def _hide_findings(index: Path, signer: Signer | None = None) -> None:
    """What a contributor would commit: the index with every file's findings taken out, its signature
    line (if it has one) kept, or made again with `signer`, a key the contributor holds."""
    data = index.read_bytes()
    header, newline, body = data.partition(b"\n") if data.startswith(b"kernlint-index ") else (b"", b"", data)
    document = marshal.loads(body)
    for cached in document["files"].values():
        cached["result"]["diagnostics"] = []
    body = marshal.dumps(document)
    if signer is not None:
        header = b"kernlint-index " + signer.sign(body)
    index.write_bytes(header + newline + body)


def _check(project: Path, home: Path | None = None) -> tuple[int, str]:
    env = {"XDG_CACHE_HOME": str(home)} if home is not None else None
    proc = run_kernlint("k.cpp", "--output-format", "concise", cwd=project, env=env)
    return proc.returncode, proc.stdout.decode()


def test_an_index_edited_to_hide_findings_is_ignored(project: Path, private_cache_home: Path) -> None:
    first = _check(project)
    assert first[0] == 1 and "KL101" in first[1]
    indexes = _indexes(project, private_cache_home / "kernlint" / "projects")
    assert indexes
    for index in indexes:
        _hide_findings(index)
    _recreate(project / "k.cpp")  # a changed stamp: the cache falls back on the file's digest
    assert _check(project) == first


def test_the_project_gets_no_cache_folder_and_none_is_written_through_a_link(project: Path) -> None:
    """A committed `.kernlint_cache` link must not make kernlint write where it points."""
    elsewhere = project.parent / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, project / ".kernlint_cache")
    assert _check(project)[0] == 1
    assert _check(project)[0] == 1
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in project.iterdir()) == [".kernlint_cache", "k.cpp"]


def test_an_index_signed_with_another_users_key_is_ignored(project: Path, tmp_path: Path) -> None:
    """A contributor can run kernlint on the same path and sign a doctored index with their own key;
    it counts only for them. Signed with the user's own key, the same index would be believed: the
    signature is what keeps it out."""
    theirs, ours = tmp_path / "their-cache", tmp_path / "our-cache"
    first = _check(project, theirs)
    assert first[0] == 1
    their_key = user_key(theirs / "kernlint")
    assert their_key is not None
    [index] = _indexes(theirs)
    _hide_findings(index, Signer(their_key))
    assert _check(project, theirs)[0] == 0  # the contributor's own cache now hides the finding
    their_folder = project_dir(str(project), theirs / "kernlint")
    our_folder = project_dir(str(project), ours / "kernlint")
    shutil.copytree(their_folder, our_folder)
    _recreate(project / "k.cpp")
    assert _check(project, ours) == first
    our_key = user_key(ours / "kernlint")
    assert our_key is not None and our_key != their_key
    [index] = _indexes(our_folder)
    _hide_findings(index, Signer(our_key))
    assert _check(project, ours)[0] == 0


def test_the_key_is_private_and_an_exposed_one_is_replaced(tmp_path: Path) -> None:
    home = tmp_path / "kernlint"
    key = user_key(home)
    assert key is not None and len(key) == 32 and user_key(home) == key
    path = home / KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(home.stat().st_mode) == 0o700
    os.chmod(path, 0o644)  # readable by others: anyone on the machine could sign
    replaced = user_key(home)
    assert replaced is not None and replaced != key and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.unlink()
    planted = tmp_path / "planted"
    planted.write_bytes(b"k" * 32)
    os.chmod(planted, 0o600)
    os.symlink(planted, path)  # a link is never the key
    linked = user_key(home)
    assert linked is not None and linked != b"k" * 32 and not path.is_symlink()


def test_without_a_private_key_nothing_is_cached(project: Path, tmp_path: Path) -> None:
    """No key can be made under a regular file: every run analyses, and reports, in full."""
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    first = _check(project, blocked)
    assert first[0] == 1 and "KL101" in first[1]
    assert _check(project, blocked) == first
    assert list(project.iterdir()) == [project / "k.cpp"]


def test_without_a_home_nothing_is_cached(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No XDG_CACHE_HOME and no home directory (a container's anonymous user): the cache is off."""
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)
    assert cache_home() is None
    setup = make_setup(Config(root=str(project)), use_cache=True)
    assert CacheIndex(str(project), setup.context_key()).path is None
    entries = [SourceEntry(str(project / "k.cpp"), "cpp")]
    first = analyse_files(entries, setup, jobs=1)
    assert [d.code for d in first[0].diagnostics] == ["KL101"]
    assert analyse_files(entries, setup, jobs=1) == first
    assert list(project.iterdir()) == [project / "k.cpp"]
