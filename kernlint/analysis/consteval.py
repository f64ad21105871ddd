"""Constant evaluation of C/C++ (and Fortran-style) integer expressions from their source text.

Working on text rather than on one parser's tree lets the same evaluator serve tree-sitter nodes,
libclang tokens, `#define` bodies, OpenMP clause arguments and Fortran `parameter` values.
Identifiers are resolved through a callback, so the caller decides what is known (macros, constexpr
variables, single-assignment locals, template arguments). Anything not understood yields `None`:
the evaluator never guesses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kernlint.analysis.precedence import PrecedenceParser

Resolver = Callable[[str], "int | None"]

# sizeof() of arithmetic types on the LP64 targets SYCL and OpenMP offload compile for, by the name
# `type_size` reduces a spelling to.
_ARITHMETIC_SIZES: dict[str, int] = {
    "char": 1,
    "signed char": 1,
    "unsigned char": 1,
    "bool": 1,
    "int8_t": 1,
    "uint8_t": 1,
    "byte": 1,
    "short": 2,
    "unsigned short": 2,
    "short int": 2,
    "int16_t": 2,
    "uint16_t": 2,
    "half": 2,
    "_Float16": 2,
    "bfloat16": 2,
    "int": 4,
    "unsigned": 4,
    "unsigned int": 4,
    "signed": 4,
    "int32_t": 4,
    "uint32_t": 4,
    "float": 4,
    "long": 8,
    "unsigned long": 8,
    "long int": 8,
    "long long": 8,
    "unsigned long long": 8,
    "int64_t": 8,
    "uint64_t": 8,
    "size_t": 8,
    "ptrdiff_t": 8,
    "double": 8,
    "intptr_t": 8,
    "uintptr_t": 8,
    "long double": 16,
}

_CV_QUALIFIERS = re.compile(r"\b(?:const|volatile)\b")
_SCOPE = re.compile(r"\s*::\s*")
_NAMESPACE = re.compile(r"^(?:::)?(?:std|sycl|cl::sycl)::")


def type_size(type_text: str) -> int | None:
    """sizeof() of an arithmetic type however it is spelled (`const float`, `std::size_t`,
    `sycl::half`, `unsigned  int`), or None for any other type."""
    name = " ".join(_CV_QUALIFIERS.sub(" ", type_text).split())
    name = _NAMESPACE.sub("", _SCOPE.sub("::", name))
    return _ARITHMETIC_SIZES.get(name)


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|/\*.*?\*/|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*(?:\.\d*)?(?:[eE][+-]?\d+)?)(?P<suffix>[uUlLzZfF]*)
  | (?P<name>[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)
  | (?P<op><<|>>|<=|>=|==|!=|&&|\|\||\*\*|[-+*/%&|^~!<>?:(),{}])
    """,
    re.VERBOSE | re.DOTALL,
)

_INTEGRAL_TYPE_WORDS = {
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "char",
    "size_t",
    "std::size_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "std::int32_t",
    "std::uint32_t",
    "std::int64_t",
    "std::uint64_t",
    "ptrdiff_t",
    "std::ptrdiff_t",
    "bool",
}
_KNOWN_FUNCTIONS = {"std::min", "min", "std::max", "max", "sycl::min", "sycl::max"}


class _Unknown(Exception):
    """Raised inside the parser when a value cannot be known; turned into `None` at the top."""


@lru_cache(maxsize=8192)
def _tokenize(text: str) -> tuple[tuple[str, str], ...]:
    """The tokens of `text` (none when it holds a character no integer expression has), once per
    distinct text: the same bounds and macro bodies are evaluated at many places."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            return ()
        pos = m.end()
        if m.group("ws") is not None:
            continue
        if m.group("num") is not None:
            tokens.append(("num", m.group("num") + (m.group("suffix") or "")))
        elif m.group("name") is not None:
            tokens.append(("name", re.sub(r"\s+", "", m.group("name"))))
        else:
            tokens.append(("op", m.group("op")))
    return tuple(tokens)


def parse_int_literal(text: str) -> int | None:
    """An integer literal with C++ digit separators and suffixes (`1'024`, `0x40u`, `16UL`), else None."""
    body = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if body.lower().startswith("0x"):
            return int(body, 16)
        if body.lower().startswith("0b"):
            return int(body, 2)
        if len(body) > 1 and body.startswith("0") and body.isdigit():
            return int(body, 8)
        return int(body, 10)
    except ValueError:
        return None


def _apply(op: str, left: int, right: int) -> int:
    if op in ("/", "%") and right == 0:
        raise _Unknown("division by zero")
    if op in ("<<", ">>") and (right < 0 or right > 256):
        raise _Unknown("shift out of range")
    if op == "**" and (right < 0 or right > 256):
        raise _Unknown("power out of range")
    if op == "/":
        quotient = abs(left) // abs(right)  # C truncates toward zero
        return quotient if (left >= 0) == (right >= 0) else -quotient
    if op == "%":
        return left - right * _apply("/", left, right)
    return {
        "+": lambda: left + right,
        "-": lambda: left - right,
        "*": lambda: left * right,
        "<<": lambda: left << right,
        ">>": lambda: left >> right,
        "&": lambda: left & right,
        "|": lambda: left | right,
        "^": lambda: left ^ right,
        "**": lambda: left**right,
        "&&": lambda: int(bool(left) and bool(right)),
        "||": lambda: int(bool(left) or bool(right)),
        "==": lambda: int(left == right),
        "!=": lambda: int(left != right),
        "<": lambda: int(left < right),
        ">": lambda: int(left > right),
        "<=": lambda: int(left <= right),
        ">=": lambda: int(left >= right),
    }[op]()


class _Parser(PrecedenceParser[int]):
    """Computes the value as it parses (the shared operator grammar is `kernlint.analysis.precedence`,
    which says why this reader is not the OpenMP layer's)."""

    def __init__(self, tokens: tuple[tuple[str, str], ...], resolve: Resolver) -> None:
        super().__init__(tokens, _Unknown, conditional=True)
        self.resolve = resolve

    binary = staticmethod(_apply)

    def conditional(self, condition: int, then: int, other: int) -> int:
        return then if condition else other

    def operand(self) -> int:
        kind, value = self.take()
        if kind == "num":
            number = parse_int_literal(value)
            if number is None:
                raise _Unknown("not an integer literal")
            return number
        if kind == "op":
            if value == "(":
                if self._looks_like_cast():
                    self._skip_type_until(")")
                    return self.operand()
                inner = self.expression()
                self.expect(")")
                return inner
            if value == "-":
                return -self.operand()
            if value == "+":
                return self.operand()
            if value == "~":
                return ~self.operand()
            if value == "!":
                return int(not self.operand())
            raise _Unknown(f"unexpected {value}")
        return self.named(value)

    def named(self, name: str) -> int:
        if name in ("sizeof",):
            return self._sizeof()
        if name in ("static_cast", "reinterpret_cast", "const_cast") and self.peek() == ("op", "<"):
            self.take()
            self._skip_type_until(">")
            self.expect("(")
            value = self.expression()
            self.expect(")")
            return value
        if name in ("true", "false"):
            return int(name == "true")
        if self.peek() in (("op", "("), ("op", "{")):
            if name in _INTEGRAL_TYPE_WORDS:  # functional cast: size_t(N), int{N}
                close = ")" if self.take()[1] == "(" else "}"
                value = self.expression()
                self.expect(close)
                return value
            if name in _KNOWN_FUNCTIONS:
                self.take()
                first = self.expression()
                self.expect(",")
                second = self.expression()
                self.expect(")")
                return min(first, second) if name.endswith("min") else max(first, second)
            raise _Unknown(f"call to {name}")
        resolved = self.resolve(name)
        if resolved is None:
            raise _Unknown(f"unknown identifier {name}")
        return resolved

    def _sizeof(self) -> int:
        self.expect("(")
        words: list[str] = []
        while self.peek() not in (("op", ")"), None):
            words.append(self.take()[1])
        self.expect(")")
        size = type_size(" ".join(words))
        if size is None:
            raise _Unknown(f"sizeof({' '.join(words)})")
        return size

    def _looks_like_cast(self) -> bool:
        """`(size_t)x`, `(unsigned int)x`: a parenthesised run of type words followed by an operand."""
        i = 0
        saw = False
        while True:
            tok = self.peek(i)
            if tok is None:
                return False
            if tok == ("op", ")"):
                nxt = self.peek(i + 1)
                return saw and nxt is not None and (nxt[0] in ("num", "name") or nxt[1] in ("(", "-", "~", "!"))
            if tok[0] != "name" or tok[1] not in _INTEGRAL_TYPE_WORDS | {"const"}:
                return False
            saw = True
            i += 1

    def _skip_type_until(self, closer: str) -> None:
        depth = 0
        while True:
            _, value = self.take()
            if value == "<":
                depth += 1
            elif value == closer and depth == 0:
                return
            elif value == ">":
                depth -= 1


def evaluate(text: str, resolve: Resolver | None = None) -> int | None:
    """The integer value of `text`, or None when any part of it is not a known constant."""
    tokens = _tokenize(text)
    if not tokens:
        return None
    if all(kind != "name" for kind, _value in tokens):
        return _closed_value(tokens)
    return _value(tokens, resolve or (lambda _name: None))


@lru_cache(maxsize=8192)
def _closed_value(tokens: tuple[tuple[str, str], ...]) -> int | None:
    """The value of an expression without names (`0`, `1 << 20`, `(64 * 4)`), which no resolver
    can change: about half of what is evaluated, computed once per distinct expression."""
    return _value(tokens, lambda _name: None)


def _value(tokens: tuple[tuple[str, str], ...], resolve: Resolver) -> int | None:
    try:
        parser = _Parser(tokens, resolve)
        value = parser.expression()
        if parser.peek() is not None:
            return None
        return value
    except (_Unknown, RecursionError):
        return None
