"""Discovery hands the config resolver each directory's listing, so that config files and repository
markers the listing lacks need no look on disk: the config found must be the one found by looking,
for generated trees of config files (in any case), `pyproject.toml`s with and without a kernlint
table, and repository markers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint import projects
from kernlint.discovery import discover
from kernlint.projects import ConfigResolver

_ENTRIES = st.sampled_from(
    [
        ".kernlint.toml",
        "kernlint.toml",
        "pyproject.toml",
        "pyproject.toml+kernlint",
        ".KERNLINT.toml",
        "Kernlint.toml",
        ".git",
        ".hg",
        "k.cpp",
    ]
)


def _make(directory: Path, entries: list[str]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        if entry == ".git":
            (directory / entry).mkdir(exist_ok=True)
        elif entry == "pyproject.toml+kernlint":
            (directory / "pyproject.toml").write_text('[tool.kernlint]\nfail-on = "info"\n')
        elif entry.endswith(".toml") and entry != "pyproject.toml":
            (directory / entry).write_text('fail-on = "error"\n')
        elif entry == "pyproject.toml":
            if not (directory / entry).exists():
                (directory / entry).write_text("[project]\nname = 'x'\n")
        else:
            (directory / entry).write_text("int x;\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_ENTRIES, max_size=3), min_size=1, max_size=4))
def test_the_listing_finds_the_config_that_looking_finds(
    tmp_path_factory: pytest.TempPathFactory, levels: list[list[str]]
) -> None:
    top = tmp_path_factory.mktemp("tree")
    directory = top
    for number, entries in enumerate(levels):
        directory = directory / f"d{number}"
        _make(directory, entries)
    for walked, subdirs, files in os.walk(top):
        hinted = ConfigResolver(start=str(top)).config_path(walked, subdirs + files)
        assert hinted == ConfigResolver(start=str(top)).config_path(walked), walked
    resolver = ConfigResolver(start=str(top))
    found, _problems = discover([str(top)], resolver.for_directory)
    looking = ConfigResolver(start=str(top))
    for entry in found:
        assert resolver.for_file(entry.path) == looking.for_file(entry.path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_ENTRIES, max_size=3), min_size=1, max_size=4))
def test_folders_above_are_listed_and_find_what_looking_finds(
    tmp_path_factory: pytest.TempPathFactory, levels: list[list[str]]
) -> None:
    """The resolver lists each folder above the one asked about once, rather than looking for each
    config file and repository marker there: it must find what looking name by name finds."""
    top = tmp_path_factory.mktemp("tree")
    directory = top
    for number, entries in enumerate(levels):
        directory = directory / f"d{number}"
        _make(directory, entries)
    listed = ConfigResolver(start=str(top))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(projects, "_listing", lambda _directory: None)  # look for each name instead
        looking = ConfigResolver(start=str(top))
        expected = {walked: looking.config_path(walked) for walked, _subdirs, _files in os.walk(top)}
    for walked in sorted(expected, key=len, reverse=True):  # the deepest first: the walk up lists the rest
        assert listed.config_path(walked) == expected[walked], walked
