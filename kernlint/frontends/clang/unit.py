"""One file parsed by libclang, with the few queries the refinements ask of it.

The parse is bounded in time (a thread the caller stops waiting for: libclang cannot be interrupted,
so a parse that overruns is abandoned and the file keeps its tree-sitter facts), reuses one
`Index` per process, and keeps function bodies (kernels are lambda bodies). Byte offsets are those
of the file as read, the same as tree-sitter's, because libclang parses the bytes kernlint read
(passed as an unsaved file) with the constant probes appended after them.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from clang import cindex

from kernlint.frontends.clang.flags import without_side_effects
from kernlint.frontends.clang.native import evaluate_int, in_main_file, is_invalid_declaration, skipped_ranges
from kernlint.records import record

PROBE_PREFIX = "__kernlint_probe_"
_NOT_FOUND = re.compile(r"'(.+)' file not found")
DEFAULT_PARSE_TIMEOUT_S = 10.0
_OPTIONS = cindex.TranslationUnit.PARSE_INCOMPLETE | cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
_INDEX: tuple[int, cindex.Index] | None = None


def _index() -> cindex.Index:
    """One index per process (a forked worker makes its own)."""
    global _INDEX
    if _INDEX is None or _INDEX[0] != os.getpid():
        _INDEX = (os.getpid(), cindex.Index.create(excludeDecls=False))
    return _INDEX[1]


@record
class Declaration:
    """A variable declared in the main file, as clang resolved it."""

    name: str
    offset: int  # where the name is (for a macro expansion: where the macro is used)
    start: int  # the declaration's extent in the main file
    end: int
    type: str  # the canonical type, e.g. "sycl::buffer<float, 1>"
    in_macro: bool  # written by a macro expansion, not in the file's text
    valid: bool  # False when clang could not resolve it (its type is then a placeholder)
    # The namespace of the type's class, outermost first ("sycl::_V1", "host", "" for the global
    # namespace); None when the type names no class (a builtin, or a dependent type in a template).
    namespace: str | None = None
    field: bool = False  # a class member: declared, not constructed here


class ParseTimeout(Exception):
    """libclang did not finish within the time bound."""


class ClangUnit:
    """A translation unit of one main file; `probes` are constant expressions to evaluate, each with
    the namespaces it must be evaluated in."""

    def __init__(
        self,
        path: str,
        data: bytes,
        args: list[str],
        probes: Sequence[tuple[tuple[str, ...], str]] = (),
        empty_files: Sequence[str] = (),
        timeout_s: float | None = DEFAULT_PARSE_TIMEOUT_S,
    ) -> None:
        self.path = os.path.abspath(path)
        self.size = len(data)
        self._data = data
        self.args = list(without_side_effects(args))  # arguments from a repository: see clang/flags.py
        source = data + b"\n;\n" + "".join(_probe(i, scope, text) for i, (scope, text) in enumerate(probes)).encode()
        unsaved = [(self.path, source), *((name, b"") for name in empty_files)]
        self.tu = _parse(self.path, unsaved, self.args, timeout_s)

    @cached_property
    def errors(self) -> list[str]:
        """The error diagnostics of the parse (for notes and tests)."""
        return [str(d) for d in self.tu.diagnostics if d.severity >= cindex.Diagnostic.Error]

    def missing_headers(self, angled_dir: str) -> list[str]:
        """Stand-in paths for the includes the parse stopped at (a fatal "file not found"): beside the
        including file for a quoted include, under `angled_dir` (on the include path) for `<…>`."""
        found: list[str] = []
        for diagnostic in self.tu.diagnostics:
            match = _NOT_FOUND.match(diagnostic.spelling)
            location = diagnostic.location
            if diagnostic.severity < cindex.Diagnostic.Fatal or match is None or location.file is None:
                continue
            includer = location.file.name
            line = _line_of(includer, location.line, self._data if includer == self.path else None)
            quoted = re.search(r'#\s*include\s*"', line) is not None
            found.append(
                os.path.normpath(os.path.join(os.path.dirname(includer) if quoted else angled_dir, match.group(1)))
            )
        return found

    @cached_property
    def skipped(self) -> list[tuple[int, int]]:
        """Byte ranges of the file in inactive preprocessor branches."""
        return [(start, end) for start, end in skipped_ranges(self.tu, self.path) if start < self.size]

    def probe_values(self) -> dict[int, int]:
        """The value of each probe clang could evaluate, by probe number."""
        values: dict[int, int] = {}
        # The probes follow the file's text: only the main file's top-level declarations past it (and
        # the namespaces the probes reopen) need a look, not the headers' thousands.
        stack = [c for c in self._top_level if c.extent.end.offset > self.size]
        while stack:
            cursor = stack.pop()
            if cursor.kind == cindex.CursorKind.NAMESPACE:
                stack.extend(c for c in cursor.get_children() if c.extent.end.offset > self.size)
            elif cursor.kind == cindex.CursorKind.VAR_DECL and cursor.spelling.startswith(PROBE_PREFIX):
                value = evaluate_int(cursor)
                if value is not None:
                    values[int(cursor.spelling[len(PROBE_PREFIX) :])] = value
        return values

    @cached_property
    def declarations(self) -> list[Declaration]:
        """Every variable the main file declares (macro expansions included), with its resolved type."""
        found: list[Declaration] = []
        for cursor in self._main_cursors():
            if cursor.kind not in (cindex.CursorKind.VAR_DECL, cindex.CursorKind.FIELD_DECL):
                continue
            if cursor.spelling.startswith(PROBE_PREFIX):
                continue
            extent = cursor.extent
            start, end = extent.start.offset, extent.end.offset
            if start >= self.size:
                continue
            at = cursor.location.offset
            # A name from a macro's replacement text is located at the macro's use, which does not spell it.
            in_macro = self._data[at : at + len(cursor.spelling)] != cursor.spelling.encode()
            found.append(
                Declaration(
                    cursor.spelling,
                    at,
                    start,
                    end,
                    cursor.type.get_canonical().spelling,
                    in_macro,
                    not is_invalid_declaration(cursor),
                    _namespace_of(cursor.type),
                    cursor.kind == cindex.CursorKind.FIELD_DECL,
                )
            )
        return found

    @property
    def top_level(self) -> list[cindex.Cursor]:
        """The main file's top-level cursors, macro expansions included (computed once)."""
        return self._top_level

    @cached_property
    def _top_level(self) -> list[cindex.Cursor]:
        """The main file's top-level cursors (the probes included)."""
        return [c for c in self.tu.cursor.get_children() if in_main_file(c)]

    def main_cursors(self) -> list[cindex.Cursor]:
        """Every cursor of the main file, in source order (for the analyses of instantiations)."""
        return self._main_cursors()

    def _main_cursors(self) -> list[cindex.Cursor]:
        """Cursors located in the main file, in source order (children of other files are skipped)."""
        out: list[cindex.Cursor] = []
        stack = list(reversed(self._top_level))
        while stack:
            cursor = stack.pop()
            out.append(cursor)
            children = [c for c in cursor.get_children()]
            stack.extend(reversed(children))
        return out


def _line_of(path: str, number: int, data: bytes | None) -> str:
    """Line `number` (1-based) of a file, from `data` when given."""
    try:
        text = data if data is not None else Path(path).read_bytes()
    except OSError:
        return ""
    lines = text.split(b"\n")
    return lines[number - 1].decode("utf-8", "replace") if 0 < number <= len(lines) else ""


def _namespace_of(declared: cindex.Type) -> str | None:
    """The namespaces around the class a (canonical) type names, or None when it names none."""
    declaration = declared.get_canonical().get_declaration()
    if declaration.kind not in (
        cindex.CursorKind.CLASS_DECL,
        cindex.CursorKind.STRUCT_DECL,
        cindex.CursorKind.CLASS_TEMPLATE,
        cindex.CursorKind.UNION_DECL,
    ):
        return None
    names: list[str] = []
    parent = declaration.semantic_parent
    while parent is not None and parent.kind != cindex.CursorKind.TRANSLATION_UNIT:
        if parent.kind == cindex.CursorKind.NAMESPACE:
            names.append(parent.spelling)
        parent = parent.semantic_parent
    return "::".join(reversed(names))


def _probe(number: int, scope: tuple[str, ...], text: str) -> str:
    opening = "".join(f"namespace {name} {{ " for name in scope)
    closing = "} " * len(scope)
    return f"{opening}constexpr auto {PROBE_PREFIX}{number} = ({text});{closing}\n"


def _parse(
    path: str, unsaved: list[tuple[str, bytes]], args: list[str], timeout_s: float | None
) -> cindex.TranslationUnit:
    """Parse on a helper thread so that a file libclang takes too long over costs at most `timeout_s`."""
    result: list[cindex.TranslationUnit | BaseException] = []

    def work() -> None:
        try:
            result.append(_index().parse(path, args=args, unsaved_files=unsaved, options=_OPTIONS))
        except BaseException as exc:  # handed to the caller's thread
            result.append(exc)

    worker = threading.Thread(target=work, name="kernlint-clang-parse", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if not result:
        raise ParseTimeout(f"libclang took longer than {timeout_s:g} s")
    outcome = result[0]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome
