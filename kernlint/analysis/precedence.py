"""The grammar of integer expressions that both of kernlint's expression readers share: the binary
operators by precedence, and the precedence climbing (Pratt) loop over a token list.

Two readers stand on it, and what they do with an operand is why there are two:

* `kernlint.analysis.consteval` computes a C value as it parses (casts, `sizeof`, `static_cast`,
  `?:`, `min`/`max` evaluated) and gives up at the first name nobody knows. Most texts it is asked
  about fail (on HeCBench more than half): it builds nothing for them.
* `kernlint.frontends.openmp.expr` reads C *or Fortran* (`.lt.`, `mod(a, b)`, array sections,
  `a%b` components, `-a**2`) into a tree in which unknown names stay names, since a linear form
  (`j + TILE + u` → j + u + 64) or a bound test needs them.

One reader for both would need a dialect and a build-or-evaluate switch in every operand rule; the
operator grammar, which is the same, is written here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Token = tuple[str, str]  # (kind, text): kind is "num", "name" or "op"
T = TypeVar("T")

#: C binary operators by precedence (higher binds tighter), plus Fortran's `**`.
BINARY_PRECEDENCE: dict[str, int] = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "^": 4,
    "&": 5,
    "==": 6,
    "!=": 6,
    "<": 7,
    ">": 7,
    "<=": 7,
    ">=": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
    "**": 11,
}


class PrecedenceParser(ABC, Generic[T]):
    """Precedence climbing over `tokens`, making a `T` of each operand and operator. A reader says
    what an operand is (`operand`, which also reads prefix and postfix operators), what a binary
    operator makes of its sides (`binary`) and, where `?:` is an operator, what a conditional is."""

    def __init__(self, tokens: Sequence[Token], fail: Callable[[str], Exception], conditional: bool) -> None:
        self.tokens = tokens
        self.pos = 0
        self._fail = fail  # the reader's exception for "cannot read this", made from a reason
        self._conditional = conditional  # whether `c ? a : b` is an operator (C, not Fortran)

    def peek(self, offset: int = 0) -> Token | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise self._fail("unexpected end")
        self.pos += 1
        return token

    def expect(self, op: str) -> None:
        if self.take() != ("op", op):
            raise self._fail(f"expected {op}")

    def expression(self, min_prec: int = 0) -> T:
        """The longest expression from here whose operators bind tighter than `min_prec`."""
        left = self.operand()
        while True:
            token = self.peek()
            if token is None or token[0] != "op":
                return left
            op = token[1]
            if op == "?" and min_prec == 0 and self._conditional:
                self.take()
                then = self.expression()
                self.expect(":")
                other = self.expression()
                left = self.conditional(left, then, other)
                continue
            prec = BINARY_PRECEDENCE.get(op)
            if prec is None or (prec <= min_prec and op != "**"):  # `**` is right-associative
                return left
            self.take()
            right = self.expression(prec - 1 if op == "**" else prec)
            left = self.binary(op, left, right)

    @abstractmethod
    def operand(self) -> T:
        """An operand with its prefix and postfix operators: a literal, a name, a call, a parenthesis."""

    @abstractmethod
    def binary(self, op: str, left: T, right: T) -> T:
        """`left op right`."""

    @abstractmethod
    def conditional(self, condition: T, then: T, other: T) -> T:
        """`condition ? then : other` (asked only where `?:` is an operator)."""
