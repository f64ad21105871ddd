"""tree-sitter languages, parsers and compiled queries, created once per process.

Compiling a query costs far more than running it, so every query file is compiled on first use and
kept; parsers are reused across files.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import tree_sitter


@lru_cache(maxsize=None)
def language(name: str) -> tree_sitter.Language:
    """The grammar for `cpp` or `fortran`."""
    if name == "cpp":
        import tree_sitter_cpp as grammar
    elif name == "fortran":
        import tree_sitter_fortran as grammar
    else:  # pragma: no cover - programming error
        raise ValueError(f"no tree-sitter grammar for {name!r}")
    return tree_sitter.Language(grammar.language())


@lru_cache(maxsize=None)
def parser(name: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(name))


@lru_cache(maxsize=None)
def query(grammar: str, query_file: str) -> tree_sitter.Query:
    """The compiled query from `queries/<query_file>.scm` (package data)."""
    source = resources.files("kernlint.frontends").joinpath("queries").joinpath(f"{query_file}.scm").read_text("utf-8")
    return tree_sitter.Query(language(grammar), source)


def matches(grammar: str, query_file: str, node: tree_sitter.Node) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    return tree_sitter.QueryCursor(query(grammar, query_file)).matches(node)


def captures(grammar: str, query_file: str, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    return tree_sitter.QueryCursor(query(grammar, query_file)).captures(node)
