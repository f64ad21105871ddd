"""The precise front-end: libclang with the build's flags (`--frontend clang`).

`flags` (compile_commands.json to libclang arguments; also the tree-sitter front-end's `-D`/`-I`) and
this package's import do not load libclang; `frontend`, `unit` and `native` do.
"""

from __future__ import annotations


def available() -> bool:
    """Whether libclang loads here (the Python bindings and their shared library)."""
    try:
        from clang import cindex

        cindex.conf.lib  # noqa: B018 - loading the library is the test
    except Exception:  # ImportError, or cindex.LibclangError when the shared library is missing
        return False
    return True
