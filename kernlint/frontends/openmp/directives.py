"""OpenMP directive parser shared by the C/C++ and Fortran front-ends.

tree-sitter leaves `#pragma omp` arguments and `!$omp` comment lines opaque, so this module
turns directive text into the frozen dataclasses of `kernlint.facts.openmp_directive`: the
normalised directive kind, its clauses with modifiers and arguments, and list items with array
sections.  Pure text in, data out; malformed text yields an `OmpParseError`, never an exception.

Typical use::

    text = join_c_pragma(raw_pragma)            # "omp target teams map(to: a[0:n])"
    d = parse_directive(text, language="c", line=12)
    for start, end, text in scan_fortran_directives(lines, fixed_form=False):
        d = parse_directive(text, language="fortran", line=start, end_line=end)
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from kernlint.facts.openmp_directive import OmpClause, OmpDirective, OmpParseError
from kernlint.frontends.openmp.clauses import SPECS, ClauseBuilder
from kernlint.frontends.openmp.lex import LexFailure, analyse, is_ident_char
from kernlint.frontends.openmp.names import DIRECTIVE_ARGUMENTS, leaves_of, match_directive, tables
from kernlint.frontends.openmp.source import join_c_pragma, scan_fortran_directives

__all__ = ["is_macro_name", "join_c_pragma", "parse_directive", "scan_fortran_directives"]

_MACRO_NAME = re.compile(r"(?=\w*[A-Z])[A-Z_][A-Z0-9_]*")


def is_macro_name(word: str) -> bool:
    """An all-caps identifier, as C macros are spelt: where a directive holds one kernlint does not
    know, it is most likely a macro the build defines, not a mistake."""
    return _MACRO_NAME.fullmatch(word) is not None


_C_SENTINEL = re.compile(r"\s*(?:#\s*pragma\s+)?(ompx|omp)(?=\s|$)")
_F_SENTINEL = re.compile(r"\s*(?:[!c*]\$)?omp(?=[\s&]|$)", re.IGNORECASE)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_LANGUAGES = {
    "c": "c",
    "c++": "c",
    "cpp": "c",
    "cxx": "c",
    "openmp-c": "c",
    "sycl": "c",
    "fortran": "fortran",
    "f": "fortran",
    "f90": "fortran",
    "openmp-fortran": "fortran",
}


def parse_directive(
    text: str, *, language: str, line: int = 1, end_line: int | None = None
) -> OmpDirective | OmpParseError:
    """Parse one directive's logical text (continuations joined).

    `text` is what follows the sentinel ("target teams map(to: a[0:n])"); a leading `omp` /
    `ompx` (C, sets `extension` for `ompx`), `#pragma omp`, Fortran sentinel or bare `omp`
    (Fortran) is accepted and skipped.  `language` is "c" (also C++) or "fortran".  Columns in
    results and errors are 1-based offsets into `text` as given.
    """
    parsed = _parse_text(text, language)
    end_line = line if end_line is None else end_line
    if isinstance(parsed, OmpDirective):
        return replace(parsed, line=line, end_line=end_line)
    return replace(parsed, line=line)


@lru_cache(maxsize=4096)
def _parse_text(text: str, language: str) -> OmpDirective | OmpParseError:
    """The parse of `text` at line 1. Directive texts repeat within and across files, and the result
    depends only on the text (lines are stamped on by `parse_directive`), so each is parsed once."""
    try:
        return _parse(text, language, 1, 1)
    except Exception as exc:  # pragma: no cover - last-resort guard; tests assert it never fires
        return OmpParseError(f"internal parser error: {exc!r}", 1, 1, str(text))


def _parse(text: str, language: str, line: int, end_line: int) -> OmpDirective | OmpParseError:
    """The parser proper; raises only on bugs (malformed input becomes OmpParseError)."""
    lang = _LANGUAGES.get(language.lower())
    if lang is None:
        return OmpParseError(f"unsupported language {language!r}", line, 1, text)
    fortran = lang == "fortran"
    try:
        return _Parser(text, fortran, line, end_line).directive()
    except LexFailure as fail:
        return OmpParseError(fail.message, line, fail.offset + 1, text)


class _Parser:
    """One directive: sentinel, name, optional directive argument, clause list."""

    def __init__(self, text: str, fortran: bool, line: int, end_line: int) -> None:
        self.original = text
        self.fortran = fortran
        self.line = line
        self.end_line = end_line
        sentinel = _F_SENTINEL.match(text) if fortran else None
        if sentinel:  # blank it first: its `!` would otherwise start a comment
            text = " " * sentinel.end() + text[sentinel.end() :]
        self.struct = analyse(text, fortran)
        self.text = self.struct.text
        self.pos = sentinel.end() if sentinel else 0
        self.tables = tables(fortran)

    def _skip_blanks(self, commas: bool = False) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and (text[self.pos].isspace() or (commas and text[self.pos] == ",")):
            self.pos += 1

    def directive(self) -> OmpDirective:
        extension = self._sentinel()
        had_sentinel = self.pos > 0
        self._skip_blanks()
        if self.pos >= len(self.text):
            what = "missing directive name" if had_sentinel else "empty OpenMP directive"
            raise LexFailure(what, min(self.pos, max(len(self.text) - 1, 0)))
        found = match_directive(self.text, self.pos, self.fortran)
        if found is None:
            word = _IDENT.match(self.text, self.pos)
            if word is None:
                raise LexFailure(f"expected a directive name, found {self.text[self.pos]!r}", self.pos)
            raise LexFailure(f"unknown OpenMP directive '{word.group()}'", self.pos)
        kind, self.pos = found
        arguments = self._directive_arguments(kind)
        clauses = self._clauses()
        return OmpDirective(
            kind=kind,
            clauses=tuple(clauses),
            line=self.line,
            end_line=self.end_line,
            text=self.original,
            language="fortran" if self.fortran else "c",
            leaves=leaves_of(kind, self.fortran),
            extension=extension,
            arguments=arguments,
            warnings=self._suspicious(kind, clauses),
        )

    def _suspicious(self, kind: str, clauses: list[OmpClause]) -> tuple[str, ...]:
        """Unknown clause names that look like mistakes rather than vendor extensions or macros (an
        all-caps word such as `THREAD_LIMIT` is most likely defined by the build with `-D`; in Fortran,
        where case means nothing, only in a directive written partly in lower case)."""
        found = []
        # Fortran ignores case, but a build's macro (`GPU_SCHEDULE`, passed with -D to a preprocessed
        # source) still stands out in capitals in a directive written in lower case
        stands_out = not self.fortran or any(c.islower() for c in self.original)
        for clause in clauses:
            name = clause.name.lower()
            written = self.text[clause.column - 1 : clause.column - 1 + len(clause.name)]  # as spelt
            if name in SPECS or name.startswith(("ompx_", "ext_")) or (stands_out and is_macro_name(written)):
                continue
            if name in self.tables.words:
                found.append(
                    f"'{clause.name}' is part of a directive name, not a clause: the directive "
                    f"reads as '{kind}' followed by clauses"
                )
                continue
            import difflib  # here: only a misspelt directive needs it

            close = difflib.get_close_matches(name, self.tables.vocabulary, n=1, cutoff=0.8)
            if close:
                found.append(f"unknown clause '{clause.name}' (did you mean '{close[0]}'?)")
        return tuple(found)

    def _sentinel(self) -> bool:
        """Skip a leading sentinel if the caller left it in; True for the `ompx` extension."""
        if self.fortran:
            return False  # already blanked and skipped by __init__
        match = _C_SENTINEL.match(self.text)
        if match is None:
            return False
        self.pos = match.end()
        return match.group(1) == "ompx"

    def _directive_arguments(self, kind: str) -> tuple[str, ...]:
        """The `(...)` right after names like `critical`, `flush`, `declare target`."""
        save = self.pos
        self._skip_blanks()
        text = self.text
        has_paren = self.pos < len(text) and text[self.pos] == "("
        required = DIRECTIVE_ARGUMENTS.get(kind)
        if not has_paren:
            self.pos = save
            if required:
                raise LexFailure(f"directive '{kind}' requires a parenthesised argument", save)
            return ()
        if required is None:
            raise LexFailure(f"directive '{kind}' does not take a parenthesised argument", self.pos)
        paren = self.pos
        close = self.struct.close_of[paren]
        spans = self.struct.split_top(paren + 1, close)
        self.pos = close + 1
        args = tuple(text[a:b] for a, b in spans)
        if args == ("",):
            if required:
                raise LexFailure(f"directive '{kind}' requires a parenthesised argument", paren)
            return ()
        for (a, _), arg in zip(spans, args):
            if not arg:
                raise LexFailure(f"empty argument in directive '{kind}'", a)
        return args

    def _clauses(self) -> list[OmpClause]:
        builder = ClauseBuilder(self.struct, self.original, self.tables.modifier_names)
        clauses: list[OmpClause] = []
        text, n = self.text, len(self.text)
        while True:
            self._skip_blanks(commas=True)
            if self.pos >= n:
                return clauses
            start = self.pos
            word = _IDENT.match(text, start)
            if word is None:
                ch = text[start]
                if ch == "(":
                    raise LexFailure("expected a clause name before '('", start)
                raise LexFailure(f"unexpected {ch!r} where a clause was expected", start)
            name = word.group().lower() if self.fortran else word.group()
            self.pos = word.end()
            self._skip_blanks()
            paren: int | None = None
            if self.pos < n and text[self.pos] == "(":
                paren = self.pos
                self.pos = self.struct.close_of[paren] + 1
                end = self.pos
            else:
                end = word.end()
                if self.pos < n and not (is_ident_char(text[self.pos]) or text[self.pos] == ","):
                    raise LexFailure(f"unexpected {text[self.pos]!r} after clause '{name}'", self.pos)
                self.pos = end
            clauses.append(builder.build(name, start, paren, end))
