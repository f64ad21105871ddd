"""OpenMP directives written without `#pragma`: the `_Pragma("omp …")` operator, on its own line or
behind an object-like macro (`#define OMP_LOOP _Pragma("omp target teams distribute parallel for")`,
then a line `OMP_LOOP`), and macros used as clauses (`#pragma omp … for THREAD_LIMIT`).

tree-sitter sees `_Pragma(…)` as a call with no `;`, and a macro line as a stray identifier: both are
syntax errors that hide the loop after them. Such a line is rewritten, for the parser only, into a
`#pragma` line of the same length (byte offsets and line numbers stay; a macro name shorter than
`#pragma _` with its indentation is only blanked), and the directive text it stands for is kept by
the line's offset; `expanded_clauses` replaces the clause words that are
object-like macros of the file, the configuration or a quoted include by their bodies.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping

_STRING = rb'"((?:[^"\\\n]|\\.)*)"'
_OPERATOR = rb"_Pragma\s*\(\s*" + _STRING + rb"\s*\)"
_LINE_END = rb"[ \t]*(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?\r?$"  # blanks and a comment may follow
_OPERATOR_LINE = re.compile(rb"^[ \t]*(" + _OPERATOR + rb")" + _LINE_END, re.M)
_MACRO_DEFINITION = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+" + _OPERATOR + rb"[ \t]*$", re.M)
_ANY_DEFINITION = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_IDENTIFIER_LINE = re.compile(rb"^[ \t]*([A-Za-z_]\w*)" + _LINE_END, re.M)
_PRAGMA = b"#pragma"
_WORD = re.compile(r"[A-Za-z_]\w*")
_OPERATOR_TEXT = re.compile(r'^\s*_Pragma\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)\s*$', re.S)


def _unescape(body: bytes) -> str:
    return re.sub(r"\\(.)", r"\1", body.decode("utf-8", errors="replace"))


def rewrite_pragma_operators(data: bytes, defines: Mapping[str, str] | None = None) -> tuple[bytes, dict[int, str]]:
    """`data` with every directive written as `_Pragma("…")` alone on a line, or as a line holding only
    a macro defined as one, turned into a `#pragma` line of the same length; and the directive text
    ("omp …") of each, by the byte offset where its `#pragma` now starts."""
    if b"_Pragma" not in data and not any("_Pragma" in body for body in (defines or {}).values()):
        return data, {}  # (a configured macro may stand for a directive the file never spells out)
    texts: dict[int, str] = {}
    out = bytearray(data)

    def rewrite(start: int, end: int, text: str, shown: bytes) -> None:
        """Put `#pragma <shown>` over [start, end), or the line's indentation too when that is short;
        a pragma needs an argument on its own line, or tree-sitter runs it into the next line."""
        if end - start < len(shown):
            start = data.rfind(b"\n", 0, start) + 1
        if end - start >= len(shown):
            out[start:end] = shown.ljust(end - start)
            texts[start] = text
        else:  # too short for a `#pragma` line: at least not a stray identifier
            out[start:end] = b" " * (end - start)

    for match in _OPERATOR_LINE.finditer(data):
        text = _unescape(match.group(2))
        rewrite(match.start(1), match.end(1), text, _PRAGMA + b" " + text.encode())
    macros = {m.group(1).decode(): _unescape(m.group(2)) for m in _MACRO_DEFINITION.finditer(data)}
    defined = Counter(m.group(1).decode() for m in _ANY_DEFINITION.finditer(data))
    macros = {name: body for name, body in macros.items() if defined[name] == 1}  # one body only, not per arm
    for name, body in (defines or {}).items():
        operator = _OPERATOR_TEXT.match(body)
        if operator:
            macros[name] = re.sub(r"\\(.)", r"\1", operator.group(1))
    if macros:
        for match in _IDENTIFIER_LINE.finditer(data):
            name = match.group(1).decode()
            if name in macros:
                rewrite(match.start(1), match.end(1), macros[name], _PRAGMA + b" _")
    return bytes(out), texts


def expanded_clauses(text: str, macro: Callable[[str], str | None]) -> str | None:
    """`text` (a directive, "omp …") with every word outside parentheses that names an object-like
    macro replaced by the macro's body, or None when it has no such word. Words inside parentheses are
    left to constant evaluation, which knows the same macros."""
    out: list[str] = []
    depth = position = index = 0
    changed = False
    while index < len(text):
        char = text[index]
        if char in "()":
            depth += 1 if char == "(" else -1
            index += 1
            continue
        after_word = index > 0 and (text[index - 1].isalnum() or text[index - 1] == "_")
        word = _WORD.match(text, index) if depth == 0 and not after_word else None
        if word is None:
            index += 1
            continue
        body = macro(word.group())
        if body is not None and body != word.group():
            out.append(text[position : word.start()])
            out.append(body)
            position = word.end()
            changed = True
        index = word.end()
    if not changed:
        return None
    out.append(text[position:])
    return "".join(out)
