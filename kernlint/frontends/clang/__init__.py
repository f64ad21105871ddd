"""The precise front-end: libclang with the build's flags (`--frontend clang`).

`flags` (compile_commands.json to libclang arguments; also the tree-sitter front-end's `-D`/`-I`) and
this package's import do not load libclang; `frontend`, `unit` and `native` do.
"""

from __future__ import annotations


def load_error() -> str | None:
    """Why libclang does not load here (the Python bindings or their shared library), or None."""
    try:
        from clang import cindex

        cindex.conf.lib  # noqa: B018 - loading the library is the test
    except Exception as exc:  # ImportError, or cindex.LibclangError when the shared library is missing
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return None


def available() -> bool:
    """Whether libclang loads here."""
    return load_error() is None
