"""Turning the paths a user gave into an ordered list of (file, language family) to analyse."""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Protocol

from kernlint.config import Config
from kernlint.records import record

CPP_EXTENSIONS = frozenset({".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp", ".inl", ".c"})
FORTRAN_FREE = frozenset({".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08", ".F08"})
FORTRAN_FIXED = frozenset({".f", ".F", ".for", ".FOR", ".ftn"})


@record
class SourceEntry:
    """A file to analyse: its path as the user will see it and which front-end reads it."""

    path: str
    family: str  # "c" | "cpp" | "fortran"
    fixed_form: bool = False


@record
class DiscoveryProblem:
    """A path that could not be walked (missing, unreadable directory), or a file named on the
    command line that kernlint does not read (`skipped`)."""

    path: str
    message: str
    skipped: bool = False


_FAMILIES: dict[str, tuple[str, bool]] = {
    **dict.fromkeys(CPP_EXTENSIONS, ("cpp", False)),
    ".c": ("c", False),
    **dict.fromkeys(FORTRAN_FREE, ("fortran", False)),
    **dict.fromkeys(FORTRAN_FIXED, ("fortran", True)),
}


def family_of(path: str) -> tuple[str, bool] | None:
    """The front-end family and fixed-form flag for a file name, or None if kernlint does not read it."""
    return _FAMILIES.get(os.path.splitext(path)[1])


class ConfigOf(Protocol):
    """directory (and, when just listed, its entries' names) -> the config governing its entries."""

    def __call__(self, directory: str, names: Collection[str] | None = None, /) -> Config: ...


def discover(
    paths: list[str], config: Config | ConfigOf, force_exclude: bool = False
) -> tuple[list[SourceEntry], list[DiscoveryProblem]]:
    """Files under `paths`, recursively, in a deterministic order. Files named explicitly are
    analysed even if an exclude pattern matches them, unless `force_exclude` (as in ruff).
    `config` is one config for every file, or a function giving each directory's own (the
    nearest config file's), whose exclude patterns then decide what is walked there. A file reached
    twice (`src` and `src/a.cpp`, or `./a.cpp` and `a.cpp`) is one entry, under its first spelling."""
    config_of: ConfigOf = config if callable(config) else (lambda _directory, _names=None: config)
    entries: dict[str, SourceEntry] = {}
    problems: list[DiscoveryProblem] = []
    for raw in paths:
        if os.path.isdir(raw):
            _walk(raw, config_of, entries, problems)
        elif force_exclude and config_of(os.path.dirname(raw) or ".").is_excluded(raw):
            continue
        elif os.path.exists(raw) or os.path.islink(raw):
            family = family_of(raw)
            if family is None:
                problems.append(
                    DiscoveryProblem(raw, "not a C, C++ or Fortran source file (by extension); skipped", skipped=True)
                )
            else:
                entries.setdefault(_key(raw), SourceEntry(raw, *family))
        else:
            problems.append(DiscoveryProblem(raw, "no such file or directory"))
    return list(entries.values()), problems


def _key(path: str) -> str:
    """What makes two spellings of a path the same file for discovery (not links: a link and its
    target are two names the user may both mean)."""
    return os.path.normcase(os.path.abspath(path))


def _walk(top: str, config_of: ConfigOf, entries: dict[str, SourceEntry], problems: list[DiscoveryProblem]) -> None:
    """What `os.walk(top)` visits (top-down, links to folders listed but not entered, a folder that
    cannot be listed reported and skipped), with sorted, unhidden, unexcluded sub-folders. Each
    folder's paths are normalised once, and its files' paths made by appending their names: a warm
    run over HeCBench spends most of its discovery on per-file path arithmetic otherwise."""
    pending = [(top, os.path.abspath(top))]
    while pending:
        directory, absolute = pending.pop()
        listing = _listing(directory, problems)
        if listing is None:
            continue
        subdirs, files = listing
        # (the resolver's answer does not depend on how the folder is spelt; the exclude patterns' may)
        excluded = config_of(absolute, subdirs.keys() | files).excluded_names(directory, absolute)
        shown = os.path.normpath(directory)
        shown = "" if shown == os.curdir else os.path.join(shown, "")
        key = os.path.normcase(os.path.join(absolute, ""))
        # A name's suffix is from its last dot (`os.path.splitext`, for a name that starts with none);
        # a name with no dot gives its last character, which is no suffix kernlint reads.
        sources = sorted(
            (name, family)
            for name in files
            if name[:1] != "." and (family := _FAMILIES.get(name[name.rfind(".") :])) is not None
        )
        for name, (language, fixed_form) in sources:
            if not excluded(name):
                entries.setdefault(key + os.path.normcase(name), SourceEntry(shown + name, language, fixed_form))
        entered = sorted(d for d, link in subdirs.items() if not link and not d.startswith(".") and not excluded(d))
        pending.extend((os.path.join(directory, d), os.path.join(absolute, d)) for d in reversed(entered))


def _listing(directory: str, problems: list[DiscoveryProblem]) -> tuple[dict[str, bool], list[str]] | None:
    """The folder's sub-folders (each: whether it is a link, which the walk does not enter) and other
    entries, as `os.walk` sorts them; None when it cannot be listed (the problem is recorded)."""
    subdirs: dict[str, bool] = {}
    files: list[str] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    try:
                        subdirs[entry.name] = entry.is_symlink()
                    except OSError:
                        subdirs[entry.name] = False
                else:
                    files.append(entry.name)
    except OSError as error:
        problems.append(DiscoveryProblem(error.filename or directory, f"cannot read directory: {error.strerror}"))
        return None
    return subdirs, files
