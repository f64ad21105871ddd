"""The operator grammar both expression readers share (`kernlint.analysis.precedence`): precedence,
associativity and the conditional operator, read by a reader that spells out the grouping."""

from __future__ import annotations

import re

import pytest

from kernlint.analysis.consteval import evaluate
from kernlint.analysis.precedence import PrecedenceParser
from kernlint.frontends.openmp import expr


class _Grouping(PrecedenceParser[str]):
    """Operands are single names; every operator is shown with the parentheses it binds with."""

    def operand(self) -> str:
        return self.take()[1]

    def binary(self, op: str, left: str, right: str) -> str:
        return f"({left} {op} {right})"

    def conditional(self, condition: str, then: str, other: str) -> str:
        return f"({condition} ? {then} : {other})"


def _grouped(text: str, conditional: bool = True) -> tuple[str, int]:
    """The grouping of `text`, and how many tokens were left unread."""
    tokens = [
        ("op", t) if not t.isalnum() else ("name", t) for t in re.findall(r"\*\*|&&|\|\||<<|>>|[=!<>]=|\w+|\S", text)
    ]
    parser = _Grouping(tokens, ValueError, conditional)
    return parser.expression(), len(tokens) - parser.pos


@pytest.mark.parametrize(
    "text,grouped",
    [
        ("a - b - c", "((a - b) - c)"),  # left-associative
        ("a ** b ** c", "(a ** (b ** c))"),  # Fortran's power: right-associative
        ("a * b ** c", "(a * (b ** c))"),
        (
            "a || b && c | d ^ e & f == g < h << i + j * k",
            "(a || (b && (c | (d ^ (e & (f == (g < (h << (i + (j * k))))))))))",
        ),
        ("a * b + c < d", "(((a * b) + c) < d)"),
        ("a == b ? c + d : e", "((a == b) ? (c + d) : e)"),
    ],
)
def test_operators_bind_by_the_one_precedence_table(text: str, grouped: str) -> None:
    assert _grouped(text) == (grouped, 0)


def test_a_conditional_is_an_operator_only_where_the_language_has_it() -> None:
    assert _grouped("a ? b : c", conditional=False) == ("a", 4)  # Fortran: `?` ends the expression


def test_both_readers_group_alike() -> None:
    """The value reader and the tree reader, on the same text, group it the same way."""
    text = "2 + 3 * 4 - 10 / 5 % 3"
    assert evaluate(text) == 2 + 3 * 4 - (10 // 5) % 3
    tree = expr.parse(text, fortran=False)
    assert expr.linear(tree, expr.Scope(lambda _name: None)) == expr.Linear.const(2 + 3 * 4 - (10 // 5) % 3)
    assert evaluate("2 ** 3 ** 2") == 2**9
