"""The `kernlint` entry points of the installed distributions, found without `importlib.metadata`.

Every kernlint process that loads plugins asks for them, and `importlib.metadata` costs more to import
(it brings in the `email` package) than the rest of `kernlint rule` does. In the usual environment,
plain folders on `sys.path` and the standard path finder, the answer is read here the way
`importlib.metadata.entry_points(group=...)` reads it: the `*.dist-info` and `*.egg-info` folders of
each `sys.path` entry in order, the first distribution of each normalised name, and the group's lines
of its `entry_points.txt`. Anything else (a zip archive or an egg on the path, another finder that
provides distributions, a metadata folder named unusually) is left to `importlib.metadata` itself.
tests/test_entry_points.py holds the two readings equal.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterator
from functools import reduce
from typing import Any, cast

from kernlint.records import record

_METADATA_SUFFIXES = (".dist-info", ".egg-info")
# `importlib.metadata.EntryPoint.pattern`: `module[:attribute]` with optional extras.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


@record
class EntryPoint:
    """What kernlint uses of `importlib.metadata.EntryPoint`."""

    name: str
    value: str
    group: str

    def load(self) -> Any:
        """The object named, imported (failing as `importlib.metadata.EntryPoint.load` fails)."""
        match = cast(re.Match[str], _VALUE.match(self.value))  # None fails on `.group`, as there
        module = importlib.import_module(match.group("module"))
        return reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)


class _Unusual(Exception):
    """The environment holds something only `importlib.metadata` reads correctly."""


def entry_points(group: str) -> list[Any]:
    """The entry points of `group`, in the order `importlib.metadata.entry_points(group=group)` gives."""
    try:
        return list(_read(group))
    except _Unusual:
        from importlib.metadata import entry_points as from_metadata

        return list(from_metadata(group=group))


def _read(group: str) -> Iterator[EntryPoint]:
    import importlib.machinery

    for finder in sys.meta_path:
        if finder is not importlib.machinery.PathFinder and hasattr(finder, "find_distributions"):
            raise _Unusual
    seen: set[str] = set()
    folders = [folder for entry in sys.path for folder in _metadata_folders(entry)]
    for folder in folders:
        stem = os.path.basename(folder).rpartition(".")[0].partition("-")[0]
        if not stem:  # named by the distribution's metadata instead
            raise _Unusual
        name = _normalised(stem)
        if name in seen:
            continue
        seen.add(name)
        yield from _group_of(folder, group)


def _metadata_folders(entry: str) -> list[str]:
    """The metadata folders of one `sys.path` entry, grouped by distribution name in the order each
    name is first listed (as `importlib.metadata`'s `Lookup` groups them)."""
    root = entry or "."
    try:
        children = os.listdir(root)
    except OSError:
        if os.path.isfile(root):  # a zip archive: importlib.metadata reads inside it
            raise _Unusual from None
        return []
    if os.path.basename(entry).lower().endswith(".egg"):
        raise _Unusual
    by_name: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith(_METADATA_SUFFIXES):
            if not child.endswith(_METADATA_SUFFIXES):  # named by the distribution's metadata instead
                raise _Unusual
            by_name.setdefault(_normalised(low.rpartition(".")[0].partition("-")[0]), []).append(
                os.path.join(root, child)
            )
    return [folder for folders in by_name.values() for folder in folders]


def _normalised(name: str) -> str:
    """`importlib.metadata.Prepared.normalize`."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _group_of(folder: str, group: str) -> Iterator[EntryPoint]:
    """The lines of `group` in the folder's `entry_points.txt` (none when it has none)."""
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as handle:
            text = handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return
    section = None
    found = []
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section is not None:
            name, equals, value = line.partition("=")
            if not equals:  # importlib.metadata fails on such a line in any group; let it say so
                raise _Unusual
            if section == group:
                found.append(EntryPoint(name.strip(), value.strip(), group))
    yield from found
