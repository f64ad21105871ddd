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


def family_of(path: str) -> tuple[str, bool] | None:
    """The front-end family and fixed-form flag for a file name, or None if kernlint does not read it."""
    suffix = os.path.splitext(path)[1]
    if suffix == ".c":
        return "c", False
    if suffix in CPP_EXTENSIONS:
        return "cpp", False
    if suffix in FORTRAN_FREE:
        return "fortran", False
    if suffix in FORTRAN_FIXED:
        return "fortran", True
    return None


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
    def on_error(error: OSError) -> None:
        problems.append(DiscoveryProblem(error.filename or top, f"cannot read directory: {error.strerror}"))

    for directory, subdirs, files in os.walk(top, onerror=on_error):
        excluded = config_of(directory, subdirs + files).excluded_names(directory)
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and not excluded(d))
        absolute = os.path.abspath(directory)
        for name in sorted(files):
            if name.startswith("."):
                continue
            family = family_of(name)
            if family is None or excluded(name):
                continue
            path = os.path.normpath(os.path.join(directory, name))
            entries.setdefault(os.path.normcase(os.path.join(absolute, name)), SourceEntry(path, *family))
