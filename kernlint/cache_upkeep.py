"""Keeping the result cache bounded and removable: `--cache-dir`, pruning, and `kernlint clean`.

Every selection of devices and rules has an index of its own, so trying targets would make a
project's cache grow without bound: writing an index keeps only the `MAX_INDEXES` most recently used
of its project (reading one renews it) and drops the indexes of other kernlint versions. `kernlint
clean` removes the caches of the projects under the working directory, as `ruff clean` does. Only
what kernlint wrote is ever removed: a folder named like a kernlint version that holds nothing but
index files, in a project folder that records its root.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

from kernlint.cache_home import cache_home, project_dir

CACHE_DIR_VARIABLE = "KERNLINT_CACHE_DIR"
# Indexes kept per project: a few device and rule selections used in turn stay warm.
MAX_INDEXES = 8
ROOT_RECORD = "root"  # in a project folder: the project root it caches, for `kernlint clean`
LEGACY_DIR = ".kernlint_cache"  # where releases before the per-user cache kept it, in the project
_VERSION_NAME = re.compile(r"\d+(\.\d+)+\S*")
# indexes (`.json`: those of releases before the marshal format) and what an interrupted write left
_OWN_FILE = re.compile(r"index-[0-9a-f]+\.(?:bin|json)|tmp\w+\.tmp")
_INDEX = re.compile(r"index-[0-9a-f]+\.(?:bin|json)")


def cache_directory(option: str | None) -> str | None:
    """`--cache-dir`, else `$KERNLINT_CACHE_DIR`, as an absolute path; None: the user's cache directory."""
    chosen = option or os.environ.get(CACHE_DIR_VARIABLE) or None
    return os.path.abspath(chosen) if chosen else None


def project_folder(root: str, cache_dir: str | None) -> Path | None:
    """Where the indexes of the project at `root` live: its folder in `cache_dir` when one was chosen,
    else in the user's cache directory (None: the user has none)."""
    home = Path(cache_dir) if cache_dir else cache_home()
    return None if home is None else project_dir(root, home)


def record_root(folder: Path, root: str) -> None:
    """Note in a project folder which project it caches (a digest names the folder)."""
    marker = folder / ROOT_RECORD
    with contextlib.suppress(OSError):
        if not marker.is_file() or marker.read_text("utf-8", errors="replace") != root:
            marker.write_text(root, "utf-8", errors="surrogateescape")


def prune(folder: Path, kept: Path) -> None:
    """Remove the indexes of other kernlint versions in the project `folder`, and all but the
    `MAX_INDEXES` most recently used in `kept`'s version folder (`kept` itself always stays)."""
    for version in folder.iterdir():
        if version != kept.parent and _is_version_folder(version):
            shutil.rmtree(version, ignore_errors=True)
    used = []
    for index in kept.parent.glob("index-*"):
        if _INDEX.fullmatch(index.name) is None:
            continue
        with contextlib.suppress(OSError):
            used.append((index.stat().st_mtime_ns, index))
    for _when, index in sorted(used, reverse=True)[MAX_INDEXES:]:
        if index != kept:
            with contextlib.suppress(OSError):
                index.unlink()


def _is_version_folder(path: Path) -> bool:
    """A folder named like a kernlint version that holds only what the cache writes."""
    if path.is_symlink() or not path.is_dir() or _VERSION_NAME.fullmatch(path.name) is None:
        return False
    return all(p.is_file() and _OWN_FILE.fullmatch(p.name) for p in path.iterdir())


def remove_caches(start: Path, cache_dir: str | None) -> list[Path]:
    """`kernlint clean`: remove the caches of the projects at or under `start`, in the user's cache
    directory and in `cache_dir` when one is chosen, and the in-project caches earlier releases left
    there. Returns what was removed."""
    removed: list[Path] = []
    top = os.path.realpath(start)
    for home in {h for h in (cache_home(), Path(cache_dir) if cache_dir else None) if h is not None}:
        for folder in sorted((home / "projects").glob("*")):
            try:
                root = (folder / ROOT_RECORD).read_text("utf-8", errors="surrogateescape")
            except OSError:
                continue
            if (root == top or root.startswith(top.rstrip(os.sep) + os.sep)) and _only_cache(folder):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    for directory, subdirs, _files in os.walk(start):
        if LEGACY_DIR in subdirs:
            found = Path(directory) / LEGACY_DIR
            if found.is_symlink():
                found.unlink()  # the link, never what it points to
            else:
                shutil.rmtree(found, ignore_errors=True)
            removed.append(found)
        subdirs[:] = [d for d in subdirs if d not in (LEGACY_DIR, ".git")]
    return removed


def _only_cache(folder: Path) -> bool:
    """A project folder holds its root record and version folders, nothing a user put there."""
    return not folder.is_symlink() and all(p.name == ROOT_RECORD or _is_version_folder(p) for p in folder.iterdir())
