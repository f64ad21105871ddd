"""Exclude patterns matched in one compiled expression decide exactly what matching each pattern in
turn decides (`_glob_match` on the relative path, `fnmatchcase` on each of its parts): checked
against that per-pattern reading over generated paths and patterns, and on the default excludes."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.config import DEFAULT_EXCLUDES, Config, _glob_match, _relative


def excluded_pattern_by_pattern(config: Config, path: str) -> bool:
    relative = _relative(path, config.root)
    parts = Path(relative).parts
    return any(
        _glob_match(relative, pattern) or any(fnmatch.fnmatchcase(part, pattern) for part in parts)
        for pattern in config.exclude + config.extend_exclude
    )


NAMES = st.sampled_from(["src", "build", "a.cpp", "k.F90", "cmake-build-x", "vendor", ".git", "b[1].c", "x y"])
PATTERNS = st.sampled_from(
    ["build", "*.cpp", "src/*", "vendor/", "cmake-build-*", "b[1].c", "?.cpp", "**/k.*", "x*"]
    # edge cases of the factored expression: a path, an unclosed bracket, a bare `*`, a slash alone
    + ["src/a.cpp", "b[", "[!a]*", "*", "/", "*/"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=4), st.lists(PATTERNS, max_size=4), st.booleans())
def test_one_expression_decides_as_every_pattern_in_turn(parts: list[str], patterns: list[str], default: bool) -> None:
    config = Config(root="/project", exclude=DEFAULT_EXCLUDES if default else (), extend_exclude=tuple(patterns))
    path = os.path.join("/project", *parts)
    assert config.is_excluded(path) == excluded_pattern_by_pattern(config, path)


def test_default_excludes_and_no_patterns() -> None:
    config = Config(root="/p")
    assert config.is_excluded("/p/sub/build/a.cpp") and config.is_excluded("/p/cmake-build-debug")
    assert not config.is_excluded("/p/src/main.cpp")
    assert not Config(root="/p", exclude=()).is_excluded("/p/build/a.cpp")
    assert set(DEFAULT_EXCLUDES) <= set(Config().exclude)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["p", "q", "..", ".", "a.cpp", "p2"]), min_size=1, max_size=4),
    st.sampled_from(["/", "/p", "/p/", "/p/q", "/p2", "."]),
)
def test_relative_paths_are_what_relative_to_gives(parts: list[str], root: str) -> None:
    path = "/" + "/".join(parts)
    try:
        expected = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        expected = Path(path).as_posix()
    assert _relative(path, root) == expected


@settings(max_examples=400, deadline=None)
@given(
    st.lists(NAMES, max_size=3),
    NAMES,
    st.lists(PATTERNS, max_size=4),
    st.booleans(),
    st.sampled_from(["/project", "/project/", "/", "/elsewhere", "/project/src"]),
    st.booleans(),
    st.booleans(),
)
def test_a_directory_s_names_are_excluded_as_their_paths_are(
    folders: list[str], name: str, patterns: list[str], default: bool, root: str, relative: bool, told: bool
) -> None:
    """What discovery asks per directory (`excluded_names`, told the directory's absolute path or not)
    is what `is_excluded` says of each path."""
    config = Config(root=root, exclude=DEFAULT_EXCLUDES if default else (), extend_exclude=tuple(patterns))
    directory = os.path.join("/project", *folders)
    if relative:  # as the walk of a relative path gives them, from the working directory
        directory = os.path.relpath(directory)
    absolute = os.path.abspath(directory) if told else None
    assert config.excluded_names(directory, absolute)(name) == config.is_excluded(os.path.join(directory, name))
