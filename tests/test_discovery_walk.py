"""Discovery walks each folder once with `os.scandir` and builds its files' paths from the folder's, once
normalised: it must find exactly what walking with `os.walk` and normalising every path finds (the
walk it replaced, kept here as the reference), in the same order and under the same spellings, over
generated trees with hidden, excluded and linked folders and files, nested configs, and paths given
in overlapping spellings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.discovery import DiscoveryProblem, SourceEntry, discover, family_of
from kernlint.projects import ConfigResolver


def discover_by_os_walk(
    paths: list[str], config_of: ConfigResolver
) -> tuple[list[SourceEntry], list[DiscoveryProblem]]:
    """The reference: discovery as `os.walk` and a normalisation per path give it."""
    entries: dict[str, SourceEntry] = {}
    problems: list[DiscoveryProblem] = []
    for raw in paths:
        if os.path.isdir(raw):
            for directory, subdirs, files in os.walk(
                raw,
                onerror=lambda e: problems.append(DiscoveryProblem(e.filename, f"cannot read directory: {e.strerror}")),
            ):
                excluded = config_of.for_directory(directory, subdirs + files).excluded_names(directory)
                subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and not excluded(d))
                for name in sorted(files):
                    family = family_of(name)
                    if name.startswith(".") or family is None or excluded(name):
                        continue
                    key = os.path.normcase(os.path.abspath(os.path.join(directory, name)))
                    entries.setdefault(key, SourceEntry(os.path.normpath(os.path.join(directory, name)), *family))
        elif os.path.exists(raw) or os.path.islink(raw):
            family = family_of(raw)
            if family is None:
                problems.append(
                    DiscoveryProblem(raw, "not a C, C++ or Fortran source file (by extension); skipped", skipped=True)
                )
            else:
                entries.setdefault(os.path.normcase(os.path.abspath(raw)), SourceEntry(raw, *family))
        else:
            problems.append(DiscoveryProblem(raw, "no such file or directory"))
    return list(entries.values()), problems


FILES = ["a.cpp", "b.h", "k.F90", "old.f", "c.c", "notes.txt", ".hidden.cpp", "Makefile", "x.cu", "z.hpp"]
FOLDERS = ["src", "build", ".git", "sub", "vendor", "deep"]
CONFIGS = ["", 'extend-exclude = ["vendor"]\n', 'extend-exclude = ["*.h"]\n', "exclude = []\n"]
LINKS = ["to-folder", "to-file", "dangling"]


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[str, str]]:
    """(relative path, kind) of what to make: kind is `file`, `folder`, `config:N` or `link:KIND`."""
    made: list[tuple[str, str]] = [("src", "folder"), ("src/a.cpp", "file")]  # what the spellings name
    folders = ["", "src"]
    for _ in range(draw(st.integers(1, 5))):
        parent = draw(st.sampled_from(folders))
        folder = os.path.join(parent, draw(st.sampled_from(FOLDERS)))
        if folder not in folders:
            folders.append(folder)
            made.append((folder, "folder"))
    for folder in folders:
        for name in draw(st.lists(st.sampled_from(FILES), max_size=4, unique=True)):
            made.append((os.path.join(folder, name), "file"))
        if draw(st.booleans()):
            made.append((os.path.join(folder, ".kernlint.toml"), f"config:{draw(st.integers(0, len(CONFIGS) - 1))}"))
        if draw(st.integers(0, 3)) == 0:
            kind = draw(st.sampled_from(LINKS))
            made.append((os.path.join(folder, f"{kind}.cpp" if kind != "to-folder" else kind), f"link:{kind}"))
    return made


def _make(top: Path, made: list[tuple[str, str]]) -> None:
    for relative, kind in made:
        path = top / relative
        if kind == "folder":
            path.mkdir(parents=True, exist_ok=True)
        elif kind == "file":
            path.write_text("int x;\n")
        elif kind.startswith("config:"):
            path.write_text(CONFIGS[int(kind.split(":")[1])])
        elif kind == "link:to-folder":  # to a folder of sources outside the tree (a walk must not enter it)
            outside = top.parent / f"{top.name}-outside"
            outside.mkdir(exist_ok=True)
            (outside / "linked.cpp").write_text("int y;\n")
            os.symlink(outside, path)
        elif kind == "link:to-file":
            target = next((top / r for r, k in made if k == "file" and r.endswith(".cpp")), top / "missing.cpp")
            os.symlink(target, path)
        else:
            os.symlink(top / "nowhere.cpp", path)


SPELLINGS = st.lists(
    st.sampled_from(
        [".", "./", "src", "./src/", "src/a.cpp", "./src/a.cpp", "sub", "sub/../src", "ABS", "ABS/sub", "nope"]
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(trees(), SPELLINGS)
def test_the_walk_finds_what_os_walk_finds(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    made: list[tuple[str, str]],
    paths: list[str],
) -> None:
    top = tmp_path_factory.mktemp("tree")
    _make(top, made)
    monkeypatch.chdir(top)
    paths = [p.replace("ABS", str(top)) for p in paths]
    found = discover(paths, ConfigResolver(start=str(top)).for_directory)
    assert found == discover_by_os_walk(paths, ConfigResolver(start=str(top)))


def test_a_folder_that_cannot_be_listed_is_a_problem_and_its_siblings_are_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder in ("a", "b", "c"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "k.cpp").write_text("int x;\n")
    real_scandir = os.scandir

    def scandir(path: str) -> object:
        if os.path.basename(path) == "b":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "scandir", scandir)
    entries, problems = discover(["."], ConfigResolver(start=str(tmp_path)).for_directory)
    assert [e.path for e in entries] == ["a/k.cpp", "c/k.cpp"]
    assert problems == [DiscoveryProblem("./b", "cannot read directory: Permission denied")]
