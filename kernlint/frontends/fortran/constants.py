"""What a name's constant value is in a Fortran file: `#define` (fpp) macros and `parameter` constants.

Values are computed by the shared evaluator (`kernlint.analysis.consteval`, which knows `**`) through a
resolver; Fortran names are case-insensitive, so they are looked up lower-cased. fpp macros replace
text before the compiler sees it and win over parameters; configured `defines` win over the file's
own `#define`s (as `-D` does). A parameter is known where a definition of it is visible: one of the
program unit around the use, else one at module level. Two different values for a name make it
unknown: nothing guesses.
"""

from __future__ import annotations

import re

import tree_sitter

from kernlint.analysis.consteval import evaluate
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of as _text
from kernlint.records import record

_KIND_SUFFIX = re.compile(r"\b(\d+)_(?:[A-Za-z]\w*|\d+)\b")
#: Program units: the scopes of declarations.
UNITS = frozenset({"subroutine", "function", "program", "module", "submodule", "module_procedure"})
_MAX_DEPTH = 24

Point = tuple[int, int]


@record
class _Parameter:
    value_text: str
    scope: tuple[Point, Point]  # the program unit that declares it
    at: Point


def _unit(node: tree_sitter.Node) -> tree_sitter.Node | None:
    parent = node.parent
    while parent is not None and parent.type not in UNITS:
        parent = parent.parent
    return parent


def fortran_expression(text: str) -> str:
    """Fortran integer text in the evaluator's terms: kind suffixes (`64_8`) dropped."""
    return _KIND_SUFFIX.sub(r"\1", text)


class FortranConstants:
    """Constant values of names and expressions at a point of one Fortran file."""

    def __init__(self, root: tree_sitter.Node, defines: dict[str, str] | None = None) -> None:
        self._macros: dict[str, set[str]] = {}
        self._configured = {name.lower(): value for name, value in (defines or {}).items()}
        self._parameters: dict[str, list[_Parameter]] = {}
        for _i, match in treesitter.matches("fortran", "fortran_constants", root):
            if "macro.name" in match:
                value = match.get("macro.value")
                name = _text(match["macro.name"][0]).lower()
                self._macros.setdefault(name, set()).add(_text(value[0]).strip() if value else "")
            elif "param.name" in match:
                name_node = match["param.name"][0]
                unit = _unit(name_node)
                scope = (unit.start_point, unit.end_point) if unit is not None else ((0, 0), (1 << 30, 0))
                if unit is not None and unit.type == "module":
                    scope = ((0, 0), (1 << 30, 0))  # module constants are seen by its users too
                self._parameters.setdefault(_text(name_node).lower(), []).append(
                    _Parameter(_text(match["param.value"][0]), scope, name_node.start_point)
                )

    def value(self, text: str, at: Point) -> int | None:
        """The value of expression `text` written at `at` (0-based row, column), or None."""
        return self._eval(text, at, 0)

    def known(self, name: str, at: Point) -> int | None:
        return self._resolve(name, at, 0)

    def is_macro(self, name: str) -> bool:
        return name.lower() in self._macros or name.lower() in self._configured

    def _eval(self, text: str, at: Point, depth: int) -> int | None:
        if depth > _MAX_DEPTH:
            return None
        return evaluate(fortran_expression(text), lambda name: self._resolve(name, at, depth + 1))

    def _resolve(self, name: str, at: Point, depth: int) -> int | None:
        key = name.lower()
        if key in self._configured:
            return self._eval(self._configured[key], at, depth)
        macros = self._macros.get(key)
        if macros:
            return self._eval(next(iter(macros)), at, depth) if len(macros) == 1 else None
        candidates = [p for p in self._parameters.get(key, ()) if p.scope[0] <= at <= p.scope[1]]
        if not candidates:
            return None
        innermost = min(candidates, key=lambda p: p.scope[1][0] - p.scope[0][0])
        same = [p for p in candidates if p.scope == innermost.scope]
        values = {self._eval(p.value_text, p.at, depth) for p in same}
        return values.pop() if len(values) == 1 else None
