"""Which configuration governs each file: the nearest config file above it, as in ruff.

One tree may hold several projects, each with its own settings. A file is analysed with the settings
of the project it belongs to, wherever kernlint was started, so CI (run from the top), an editor
(asking about one file) and stdin (`--stdin-filename`) all agree. The walk up from a file stops at
the repository root (a directory holding `.git`), so a checkout is never governed by a stray file
above it; outside a repository it goes on to the file system root. A file with no config above it
uses the one found from the working directory (or the defaults), as before hierarchical lookup.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from kernlint.compat import tomllib
from kernlint.config import CONFIG_FILES, Config, load_config

REPOSITORY_MARKERS = (".git", ".hg", ".svn")
_LOOKED_FOR = (*CONFIG_FILES, *REPOSITORY_MARKERS)
_UNSEEN: Any = object()


def config_file_in(directory: str, listed: frozenset[str] | None = None) -> Path | None:
    """The config file `directory` itself holds, if any: `.kernlint.toml`, `kernlint.toml`, or a
    `pyproject.toml` with a `[tool.kernlint]` table (one that cannot be read counts, so that
    loading it reports the problem instead of silently skipping the project's settings).
    `listed`: the directory's entry names in lower case, when the caller has listed it (a name
    missing there needs no look: it is not there, in any case)."""
    for name in CONFIG_FILES:
        if listed is not None and name not in listed:
            continue
        candidate = os.path.join(directory, name)
        if not os.path.isfile(candidate):
            continue
        if name != "pyproject.toml":
            return Path(candidate)
        try:
            with open(candidate, "rb") as handle:
                if "kernlint" in tomllib.load(handle).get("tool", {}):
                    return Path(candidate)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return Path(candidate)
    return None


def _listed(names: Collection[str]) -> frozenset[str]:
    """Which config files and repository markers `names` holds, in any case (in lower case): the
    only names `config_file_in` and `_is_repository_root` ask about. One lower-casing of all the
    names joined, and a search per name asked about, rather than lower-casing each entry of every
    directory a walk lists."""
    joined = "\0" + "\0".join(names).lower() + "\0"
    return frozenset(name for name in _LOOKED_FOR if f"\0{name}\0" in joined)


def _listing(directory: str) -> frozenset[str] | None:
    """`_listed` of a folder above the one asked about, listed once (None: it cannot be listed, and
    each name is looked for instead): one listing costs less than looking for six names that are
    mostly not there, as in every folder between a tree's files and its config (a tree of copies
    has a thousand such folders)."""
    try:
        return _listed(os.listdir(directory))
    except OSError:
        return None


def _is_repository_root(directory: str, listed: frozenset[str] | None = None) -> bool:
    return any(
        os.path.exists(os.path.join(directory, marker))
        for marker in REPOSITORY_MARKERS
        if listed is None or marker in listed
    )


class ConfigResolver:
    """Finds and loads the config of each directory once; every caller that analyses a file asks
    here, so the command line, stdin and the language server resolve identically.

    `explicit` (`--config FILE`) governs every file. `adjust` applies the command line's overrides
    to each loaded config. `start` is the working directory, whose config is the fallback.
    """

    def __init__(
        self, explicit: Path | None = None, adjust: Callable[[Config], Config] | None = None, start: str | None = None
    ) -> None:
        self._adjust = adjust or (lambda config: config)
        self._start = os.path.abspath(start or os.getcwd())
        self._nearest: dict[str, Path | None] = {}
        self._governing: dict[str, Path | None] = {}  # by absolute directory: what `governing` found
        self._loaded: dict[Path | None, Config] = {}
        self._explicit = explicit
        if explicit is not None:
            self._load(explicit)

    def config_path(self, directory: str, names: Collection[str] | None = None) -> Path | None:
        """The config file governing `directory`: its own, or the nearest above it (None: none).
        `names`: the entries of `directory`, when the caller has just listed it (fewer looks)."""
        if self._explicit is not None:
            return self._explicit
        return self._nearest_config(os.path.abspath(directory), names)

    def _nearest_config(self, directory: str, names: Collection[str] | None) -> Path | None:
        """`config_path` of an absolute directory, without an explicit config."""
        listed = None if names is None else _listed(names)
        walked: list[str] = []
        found: Path | None = None
        while True:
            if directory in self._nearest:
                found = self._nearest[directory]
                break
            if walked:  # a folder above the one asked about: listed once rather than looked in name by name
                listed = _listing(directory)
            walked.append(directory)
            found = config_file_in(directory, listed)
            parent = os.path.dirname(directory)
            if found is not None or parent == directory or _is_repository_root(directory, listed):
                break
            directory = parent
        for seen in walked:
            self._nearest[seen] = found
        return found

    def governing(self, directory: str, names: Collection[str] | None = None) -> Path | None:
        """The config file that governs files directly in `directory`, with the working directory's
        as the fallback (None: the defaults)."""
        return self._governing_absolute(os.path.abspath(directory), names)

    def _governing_absolute(self, directory: str, names: Collection[str] | None = None) -> Path | None:
        """`governing` of an absolute directory, found once (a run asks for each of its files' folders)."""
        found = self._governing.get(directory, _UNSEEN)
        if found is _UNSEEN:
            if self._explicit is not None:
                found = self._explicit
            else:
                found = self._nearest_config(directory, names)
                if found is None:
                    found = self._nearest_config(self._start, None)
            self._governing[directory] = found
        return found

    def for_directory(self, directory: str, names: Collection[str] | None = None) -> Config:
        """The effective config of files directly in `directory` (a `ConfigError` if it is broken);
        `names`: its entries, when the caller has just listed it."""
        return self._load(self._governing_absolute(os.path.abspath(directory), names))

    def for_file(self, path: str) -> Config:
        """The effective config of the file (or directory entry) `path`."""
        return self._load(self._governing_absolute(os.path.dirname(os.path.abspath(path))))

    def _load(self, path: Path | None) -> Config:
        if path not in self._loaded:
            base = load_config(path) if path is not None else Config(root=self._start)
            self._loaded[path] = self._adjust(base)
        return self._loaded[path]

    def forget(self) -> None:
        """Drop everything found and loaded (a config file was created, edited or deleted)."""
        self._nearest.clear()
        self._governing.clear()
        self._loaded.clear()
        if self._explicit is not None:
            self._load(self._explicit)


def find_config(start: Path) -> Path | None:
    """The config file governing the directory `start` (None: none up to the repository root)."""
    return ConfigResolver(start=str(start)).config_path(str(start))
