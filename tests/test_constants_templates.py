"""Template parameters through chains of templates: each parameter is worked out once.

Before memoisation, resolving a parameter evaluated every instantiation site again, and sites whose
arguments name other parameters recursed, so a chain of templates with a few calls each cost
exponential time (a real header with nested templates hung kernlint).
"""

from __future__ import annotations

import pytest

from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.constants import CppConstants

LEVELS = 14  # three calls a level: 3**14 evaluations without memoisation


def _chain(levels: int) -> str:
    """`step0<N>` … `step{levels}<N>`, each calling the one below three times, the top called with 8."""
    lines = ["template <int N> void step0() { int tile = N; /*USE*/ }"]
    for level in range(1, levels + 1):
        below = f"step{level - 1}"
        lines.append(f"template <int N> void step{level}() {{ {below}<N>(); {below}<N>(); {below}<N>(); }}")
    lines.append(f"void run() {{ step{levels}<8>(); }}")
    return "\n".join(lines)


def _value(code: str, expr: str, counter: list[int], monkeypatch: pytest.MonkeyPatch) -> int | None:
    original = CppConstants._template_argument_value

    def counted(self: CppConstants, definition: object, depth: int) -> int | None:
        counter[0] += 1
        return original(self, definition, depth)  # type: ignore[arg-type]

    monkeypatch.setattr(CppConstants, "_template_argument_value", counted)
    data = code.encode()
    tree = treesitter.parser("cpp").parse(data)
    constants = CppConstants(tree.root_node, None)
    return constants.value(expr, data.index(b"/*USE*/"))


def test_a_chain_of_templates_resolves_each_parameter_once(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = [0]
    assert _value(_chain(LEVELS), "N * 4", counter, monkeypatch) == 32
    assert counter[0] <= LEVELS + 1  # one evaluation per template's parameter


def test_templates_whose_arguments_name_each_other_are_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    code = """
    template <int M> void pong();
    template <int N> void ping() { int tile = N; /*USE*/ pong<N>(); }
    template <int M> void pong() { ping<M + 1>(); }
    void run() { ping<4>(); }
    """
    counter = [0]
    assert _value(code, "N", counter, monkeypatch) is None  # 4 from run(), and N + 1 … from the cycle
    assert counter[0] <= 4
