"""OpenMP directives only libclang sees: `_Pragma("omp …")` behind a macro tree-sitter cannot expand.

tree-sitter expands a directive macro used alone on a line (`OFFLOAD`, defined as one `_Pragma`) only
when the file itself defines it once. A macro from a header, or one defined differently in `#if` arms
that depend on what only the preprocessor knows, hides the directive and the loop after it. libclang,
parsing with `-fopenmp`, turns each expansion into an OMP directive cursor located at the macro's use.
This module reads the directive text of such a use from the tokens of the macro's definition, checks
that clang made a directive of that kind at that place (by the cursor kind's spelling, which the
library knows even where the Python bindings do not name the kind), and returns the macro as a
configured definition (`NAME` -> `_Pragma("…")`): the tree-sitter front-end then reads the directive
through its own macro path, so the OpenMP facts have exactly the shape of a directive it finds itself,
and its clause values go through the same constant evaluation (and clang probes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path

from clang import cindex

from kernlint.facts.openmp_directive import OmpDirective
from kernlint.frontends.clang.native import library
from kernlint.frontends.openmp.directives import parse_directive

_MACRO_INSTANTIATION = 502  # CXCursor_MacroExpansion
_MACRO_DEFINITION = 501  # CXCursor_MacroDefinition
_CAPTURED_STATEMENT = 200  # CXCursor_UnexposedStmt: how libclang shows a directive's region
_MAX_ALIASES = 4  # `#define OFFLOAD TARGET_LOOP`: how many one-name definitions are followed
_OMP_KIND = re.compile(r"OMP(\w+)Directive")
# A line holding only a name (and maybe a comment): where tree-sitter can read a directive macro.
_LONE_NAME = re.compile(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?\r?$", re.M)
_KEYWORDS = frozenset({b"else", b"do", b"try", b"public", b"private", b"protected", b"return", b"break", b"continue"})


@lru_cache(maxsize=512)
def kind_spelling(kind_id: int) -> str:
    """The library's name of a cursor kind ("OMPTargetTeamsDirective"), for any kind number."""
    return str(cindex._CXString.from_result(library().clang_getCursorKindSpelling(kind_id), None, None))


def omp_kind(cursor: cindex.Cursor) -> str | None:
    """The directive a cursor is, normalised as `directive_key` normalises a parsed kind
    ("targetteamsdistributeparallelfor"), or None when it is not an OpenMP directive."""
    match = _OMP_KIND.fullmatch(kind_spelling(library().clang_getCursorKind(cursor)))
    return match.group(1).lower().replace("generic", "") if match else None


def directive_key(kind: str) -> str:
    """A parsed directive kind ("target teams loop") in the form `omp_kind` gives."""
    return kind.replace(" ", "").lower()


def directive_macros(
    clang_tu: cindex.TranslationUnit,
    top_level: Sequence[cindex.Cursor],
    data: bytes,
    handled_lines: Iterable[int],
    build_known: bool,
) -> dict[str, str]:
    """Object-like macros standing for one OpenMP directive that clang compiled at a use alone on a
    line of the main file, as `NAME` -> `_Pragma("…")`, for the uses on lines not in `handled_lines`
    (where tree-sitter found a directive already). `top_level` are the main file's top-level cursors.
    A macro defined more than once in its file (per `#if` arm) is given only when the build's flags
    are known (`build_known`): clang's default arm may not be the build's."""
    handled = set(handled_lines)
    lone = {
        m.start(1)
        for m in _LONE_NAME.finditer(data)
        if m.group(1) not in _KEYWORDS and data.count(b"\n", 0, m.start(1)) + 1 not in handled
    }
    if not lone:
        return {}  # the usual file: no line holds only a name, so no directive macro to read
    uses: dict[int, tuple[str, str]] = {}  # offset of a use -> (name, directive literal)
    candidates: dict[str, str | None] = {}
    for cursor in top_level:
        if library().clang_getCursorKind(cursor) != _MACRO_INSTANTIATION or cursor.extent.start.offset not in lone:
            continue
        name = cursor.spelling
        if name not in candidates:
            candidates[name] = _operator_text(clang_tu, cursor.referenced, build_known)
        if candidates[name] is not None:
            uses[cursor.extent.start.offset] = (name, candidates[name] or "")
    if not uses:
        return {}
    compiled, hidden = _directives_at(top_level, set(uses))
    found: dict[str, str] = {}
    rejected: set[str] = set()
    for offset, (name, literal) in uses.items():
        parsed = parse_directive(_unescape(literal[1:-1]), language="c")
        kind = compiled.get(offset)
        if kind is None and any(start <= offset < end for start, end in hidden):
            kind = directive_key(parsed.kind) if isinstance(parsed, OmpDirective) else None
        if not isinstance(parsed, OmpDirective) or kind != directive_key(parsed.kind):
            rejected.add(name)  # clang did not compile this use as that directive: say nothing
        else:
            found[name] = f"_Pragma({literal})"
    return {name: text for name, text in found.items() if name not in rejected}


def _operator_text(
    tu: cindex.TranslationUnit, definition: cindex.Cursor | None, build_known: bool, depth: int = 0
) -> str | None:
    """The string literal of the one `_Pragma("omp …")` an object-like macro definition expands to
    (following `#define A B` aliases), or None."""
    if definition is None or library().clang_getCursorKind(definition) != _MACRO_DEFINITION:
        return None
    tokens = list(definition.get_tokens())
    if len(tokens) > 1 and tokens[1].spelling == "(" and tokens[1].extent.start.offset == tokens[0].extent.end.offset:
        return None  # function-like: its arguments would need expanding
    body = [t.spelling for t in tokens[1:]]
    literal: str | None = None
    if len(body) == 1 and depth < _MAX_ALIASES:
        literal = _operator_text(tu, _definition_named(tu, body[0]), build_known, depth + 1)
    elif len(body) == 4 and body[0] == "_Pragma" and body[1] == "(" and body[3] == ")" and body[2].startswith('"'):
        literal = body[2] if _unescape(body[2][1:-1]).split()[:1] in (["omp"], ["ompx"]) else None
    if literal is None or (not build_known and _definitions_in_file(definition) != 1):
        return None
    return literal


def _definitions_in_file(definition: cindex.Cursor) -> int:
    """How many `#define` lines of the definition's file define its name."""
    file = definition.location.file
    try:
        text = Path(file.name).read_bytes() if file is not None else b""
    except OSError:
        return 0
    name = re.escape(definition.spelling.encode())
    return len(re.findall(rb"^[ \t]*#[ \t]*define[ \t]+" + name + rb"\b", text, re.M))


def _definition_named(tu: cindex.TranslationUnit, name: str) -> cindex.Cursor | None:
    """The one definition of macro `name` the translation unit records, None if none or several."""
    found = [c for c in _macro_definitions(tu) if c.spelling == name]
    return found[0] if len(found) == 1 else None


def _macro_definitions(tu: cindex.TranslationUnit) -> Iterator[cindex.Cursor]:
    for cursor in tu.cursor.get_children():
        if library().clang_getCursorKind(cursor) == _MACRO_DEFINITION:
            yield cursor


def _directives_at(
    top_level: Sequence[cindex.Cursor], offsets: set[int]
) -> tuple[dict[int, str], list[tuple[int, int]]]:
    """The OpenMP directive clang compiled at each of `offsets` of the main file (one directive per
    place: a place holding several, from a macro with several `_Pragma`s, is left out), and the byte
    ranges of the directives' regions, whose statements libclang does not expose as cursors (a
    directive inside an offload region is compiled, but has no cursor to check against)."""
    found: dict[int, list[str]] = {}
    hidden: list[tuple[int, int]] = []
    stack = list(top_level)
    while stack:
        cursor = stack.pop()
        kind = omp_kind(cursor)
        children = list(cursor.get_children())
        if kind is not None:
            if cursor.location.offset in offsets:
                found.setdefault(cursor.location.offset, []).append(kind)
            hidden.extend(
                (c.extent.start.offset, c.extent.end.offset)
                for c in children
                if library().clang_getCursorKind(c) == _CAPTURED_STATEMENT
            )
        stack.extend(children)
    return {offset: kinds[0] for offset, kinds in found.items() if len(kinds) == 1}, hidden


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", r"\1", body)
