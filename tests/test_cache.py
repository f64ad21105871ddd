"""The result cache index: unchanged files keep their results unread, and anything that could change a
result (the file, a header it includes, the configuration) makes the file analysed again."""

from __future__ import annotations

import marshal
import os
import shutil
import time
from pathlib import Path

import pytest

import kernlint.cache
import kernlint.cache_upkeep
import kernlint.engine
from conftest import cache_folder
from kernlint.cache_home import project_dir
from kernlint.config import Config
from kernlint.diagnostics import FileResult
from kernlint.discovery import SourceEntry, discover
from kernlint.engine import EngineSetup, analyse_files
from kernlint.session import make_setup

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
HEADER = b"#define STEPS 4\n"
KERNEL = b"""#include <sycl/sycl.hpp>
#include "sizes.h"
void f(sycl::queue &q, float *x, int n) {
  for (int s = 0; s < STEPS; ++s) {
    sycl::buffer<float, 1> b(x, sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1.0f; });
    });
  }
}
"""
AN_HOUR_AGO = time.time() - 3600


def _age(*paths: Path, when: float = AN_HOUR_AGO) -> None:
    """Files older than the index (as a checkout's are), so their stamps are trusted."""
    for path in paths:
        os.utime(path, (when, when))


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sizes.h").write_bytes(HEADER)
    (tmp_path / "k.cpp").write_bytes(KERNEL)
    (tmp_path / "other.cpp").write_bytes(KERNEL.replace(b"void f(", b"void g("))
    _age(tmp_path / "sizes.h", tmp_path / "k.cpp", tmp_path / "other.cpp")
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Reads:
    """Which files the engine analyses (reads to analyse) and which the cache hashes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.analysed: list[str] = []
        self.hashed: list[str] = []
        read_stamped, file_digest = kernlint.engine.read_stamped, kernlint.cache._file_digest

        def analysed(path: str) -> tuple[bytes, os.stat_result]:
            self.analysed.append(os.path.basename(path))
            return read_stamped(path)

        def hashed(path: str) -> str | None:
            self.hashed.append(os.path.basename(path))
            return file_digest(path)

        monkeypatch.setattr(kernlint.engine, "read_stamped", analysed)
        monkeypatch.setattr(kernlint.cache, "_file_digest", hashed)

    def clear(self) -> None:
        self.analysed.clear()
        self.hashed.clear()


def _setup(root: Path, **config: object) -> EngineSetup:
    return make_setup(Config(root=str(root), **config), use_cache=True)  # type: ignore[arg-type]


def _run(root: Path, setup: EngineSetup | None = None, jobs: int = 1) -> list[FileResult]:
    setup = setup or _setup(root)
    entries, _ = discover(["."], setup.config)
    return analyse_files(entries, setup, jobs=jobs)


def _indexes(root: Path) -> list[Path]:
    """The index files of the project at `root`, in its folder of the user's cache directory."""
    return sorted(cache_folder(root).rglob("index-*.bin"))


def _index_body(path: Path) -> dict:
    """An index's document, without the signature line before it."""
    return marshal.loads(path.read_bytes().partition(b"\n")[2])


def _codes(results: list[FileResult]) -> dict[str, list[str]]:
    return {r.path: [d.code for d in r.diagnostics] for r in results}


def test_an_unchanged_file_is_not_read_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(project)
    assert "KL101" in _codes(first)["k.cpp"]
    reads = Reads(monkeypatch)
    assert _run(project) == first
    assert reads.analysed == [] and reads.hashed == []


def test_a_touched_file_is_hashed_but_not_analysed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(project)
    _age(project / "k.cpp", when=AN_HOUR_AGO + 60)  # same bytes, new mtime (a checkout, a touch)
    reads = Reads(monkeypatch)
    assert _run(project) == first
    assert reads.analysed == [] and reads.hashed == ["k.cpp"]
    reads.clear()
    assert _run(project) == first  # the new stamp was recorded: trusted from now on
    assert reads.hashed == []


def test_an_edited_file_is_analysed_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(project)
    (project / "k.cpp").write_bytes(KERNEL.replace(b"for (int s = 0; s < STEPS; ++s) {", b"{"))
    _age(project / "k.cpp", when=AN_HOUR_AGO + 60)
    reads = Reads(monkeypatch)
    after = _run(project)
    assert reads.analysed == ["k.cpp"]
    assert "KL101" not in _codes(after)["k.cpp"]


def test_a_header_change_invalidates_its_includers(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(project)
    reads = Reads(monkeypatch)
    _age(project / "sizes.h", when=AN_HOUR_AGO + 60)  # touched only: hashed once, results kept
    assert _run(project) == first
    assert reads.analysed == [] and reads.hashed == ["sizes.h"]
    reads.clear()
    (project / "sizes.h").write_bytes(b"#define STEPS 8\n")
    _age(project / "sizes.h", when=AN_HOUR_AGO + 120)
    _run(project)
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]


def test_a_deleted_header_invalidates_its_includers(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(project)
    (project / "sizes.h").unlink()
    reads = Reads(monkeypatch)
    _run(project)
    assert reads.analysed == ["k.cpp", "other.cpp"]


def test_a_configuration_change_invalidates(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(project)
    reads = Reads(monkeypatch)
    _run(project, _setup(project, defines=(("STEPS", "2"),)))
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]
    reads.clear()
    _run(project, _setup(project, devices=("a100",)))
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]
    reads.clear()
    _run(project)  # back to the first configuration: its index is still there
    assert reads.analysed == []


def test_another_kernlint_version_invalidates(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(project)
    monkeypatch.setattr(kernlint.cache, "__version__", "99.0")
    reads = Reads(monkeypatch)
    _run(project)
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]


def test_a_file_as_new_as_the_index_is_hashed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written in the same timestamp tick as the index could change again unseen by its stamp."""
    (project / "k.cpp").write_bytes(KERNEL)  # mtime: now
    first = _run(project)
    reads = Reads(monkeypatch)
    assert _run(project) == first
    assert reads.hashed == ["k.cpp"] and reads.analysed == []


def test_a_damaged_index_is_an_empty_one(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(project)
    for index in _indexes(project):
        index.write_bytes(index.read_bytes()[:-20])
    reads = Reads(monkeypatch)
    assert _run(project) == first
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]


def test_the_index_forgets_deleted_files(project: Path) -> None:
    """Files that are gone leave the index the next time it is written (when anything changed)."""
    _run(project)
    (project / "other.cpp").unlink()
    (project / "k.cpp").write_bytes(KERNEL + b"// edited\n")
    _run(project)
    [index] = _indexes(project)
    assert sorted(os.path.basename(p) for p in _index_body(index)["files"]) == ["k.cpp", "sizes.h"]


def test_cached_and_uncached_results_are_identical_with_one_and_two_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    for directory, _dirs, files in os.walk(tmp_path / "corpus"):
        _age(*(Path(directory) / name for name in files))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(kernlint.engine, "POOL_MIN_BYTES", 0)  # jobs 2 in a pool, however small the corpus
    config = Config(root=str(tmp_path), devices=("xe-hpc", "a100"))
    uncached = make_setup(config, use_cache=False)
    cached = make_setup(config, use_cache=True)
    entries, _ = discover(["corpus"], config)
    reference = analyse_files(entries, uncached, jobs=1)
    assert analyse_files(entries, uncached, jobs=2) == reference
    assert analyse_files(entries, cached, jobs=2) == reference  # filling the cache
    reads = Reads(monkeypatch)
    assert analyse_files(entries, cached, jobs=1) == reference  # from the cache alone
    assert reads.analysed == []
    assert any(r.diagnostics for r in reference)


def test_an_entry_is_the_path_as_given(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Results name files as the user did: the same file named another way is analysed again."""
    setup = _setup(project)
    analyse_files([SourceEntry("k.cpp", "cpp")], setup, jobs=1)
    reads = Reads(monkeypatch)
    [result] = analyse_files([SourceEntry("./k.cpp", "cpp")], setup, jobs=1)
    assert reads.analysed == ["k.cpp"] and result.path == "./k.cpp"


# --- issue 19: where the cache lives, `kernlint clean`, and a cache that stops growing ------------


def test_cache_dir_keeps_the_cache_there_and_clean_removes_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = project.parent / "shared-cache"
    (shared / "notes").mkdir(parents=True)  # the user's own files in the chosen directory stay
    setup = make_setup(Config(root=str(project)), use_cache=True, cache_dir=str(shared))
    first = _run(project, setup)
    assert _indexes(project) == []  # not in the user's cache directory ...
    assert len(list(shared.rglob("index-*.bin"))) == 1  # ... but in the chosen one
    reads = Reads(monkeypatch)
    assert _run(project, setup) == first and reads.analysed == []
    _run(project)  # and in the user's cache directory, as without --cache-dir
    assert len(_indexes(project)) == 1
    (project / "sub" / ".kernlint_cache").mkdir(parents=True)  # left by an earlier release
    removed = kernlint.cache_upkeep.remove_caches(project, str(shared))
    assert sorted(removed) == sorted(
        [cache_folder(project), project_dir(str(project), shared), project / "sub" / ".kernlint_cache"]
    )
    assert _indexes(project) == [] and not list(project.rglob(".kernlint_cache"))
    assert sorted(p.name for p in shared.iterdir()) == ["notes", "projects"] and not list(shared.rglob("index-*"))


def test_clean_removes_only_the_projects_under_the_working_directory(tmp_path: Path) -> None:
    for name in ("here", "elsewhere"):
        (tmp_path / name).mkdir()
        _run(tmp_path / name, _setup(tmp_path / name))
    assert kernlint.cache_upkeep.remove_caches(tmp_path / "here", None) == [cache_folder(tmp_path / "here")]
    assert _indexes(tmp_path / "here") == [] and len(_indexes(tmp_path / "elsewhere")) == 1


def test_kernlint_clean_and_the_cache_dir_option(tmp_path: Path) -> None:
    from conftest import run_kernlint

    (tmp_path / "k.cpp").write_bytes(KERNEL)
    assert run_kernlint("k.cpp", cwd=tmp_path).returncode == 1
    assert _indexes(tmp_path)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-cache"
    assert run_kernlint("k.cpp", "--cache-dir", str(elsewhere), cwd=tmp_path).returncode == 1
    assert list(elsewhere.rglob("index-*.bin"))
    via_environment = tmp_path.parent / f"{tmp_path.name}-env-cache"
    run_kernlint("k.cpp", cwd=tmp_path, env={"KERNLINT_CACHE_DIR": str(via_environment)})
    assert list(via_environment.rglob("index-*.bin"))
    cleaned = run_kernlint("clean", "--cache-dir", str(elsewhere), cwd=tmp_path)
    assert cleaned.returncode == 0
    assert sorted(cleaned.stderr.decode().splitlines()) == sorted(
        [
            f"kernlint: removed the cache {cache_folder(tmp_path)}",
            f"kernlint: removed the cache {project_dir(str(tmp_path), elsewhere)}",
        ]
    )
    assert _indexes(tmp_path) == [] and not list(elsewhere.rglob("index-*.bin"))
    assert run_kernlint("clean", cwd=tmp_path).stderr.decode() == "kernlint: no cache to remove\n"


def test_the_cache_keeps_a_bounded_number_of_indexes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every selection of devices and rules has its own index: runs over many selections must not make
    the cache grow without bound. The most recently used ones stay (the current one always)."""
    devices = ["gen9", "xe-lp", "xe-hpg", "xe-hpc", "xe2-hpg", "a100", "h100", "gen11", "dg1", "flex-140"]
    for number, device in enumerate(devices):
        _run(project, _setup(project, devices=(device,)))
        for index in _indexes(project):  # distinct ages, oldest first
            os.utime(index, ns=(index.stat().st_mtime_ns - 10**9, index.stat().st_mtime_ns - 10**9))
        assert len(_indexes(project)) == min(number + 1, kernlint.cache_upkeep.MAX_INDEXES)
    reads = Reads(monkeypatch)
    _run(project, _setup(project, devices=(devices[-1],)))  # the newest are kept ...
    assert reads.analysed == []
    _run(project, _setup(project, devices=(devices[0],)))  # ... the oldest were dropped
    assert sorted(reads.analysed) == ["k.cpp", "other.cpp", "sizes.h"]
    earlier = cache_folder(project) / "0.0.1"  # an earlier version's indexes go as well
    earlier.mkdir()
    (earlier / "index-0123456789abcdef0123.json").write_text("{}")
    _run(project, _setup(project, devices=(devices[1],)))
    assert sorted(p.name for p in cache_folder(project).iterdir()) == [kernlint.cache.__version__, "root"]
