"""Where a reported path lives relative to the project root.

SARIF and GitHub annotations must name files relative to the repository, while diagnostics carry
paths as given on the command line (relative to the working directory, or absolute).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath


def root_dir(root: Path | None) -> str:
    """The absolute root directory (default: the working directory)."""
    return os.path.abspath(root if root is not None else os.getcwd())


def relative_to_root(path: str, root: str) -> str | None:
    """`path` relative to `root` with forward slashes, or None when it lies outside `root`."""
    try:
        rel = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive on Windows
        return None
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return PurePath(rel).as_posix()


def display_path(path: str, root: str) -> str:
    """A forward-slash path relative to `root` when possible, else the path as given."""
    rel = relative_to_root(path, root)
    return rel if rel is not None else PurePath(path).as_posix()
