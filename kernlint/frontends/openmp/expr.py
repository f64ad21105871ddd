"""C and Fortran integer expressions read into one small tree, and what the OpenMP facts need of them.

Loop bounds, array subscripts and conditions reach the OpenMP layer as source text from either
language. This module parses that text into a language-neutral tree (Fortran's `.lt.`, `/=`, `mod(a, b)`
and friends become their C spellings, Fortran names are lower-cased), then derives integer-linear forms
(`j + TILE + u` → j + u + 64) and the shape of conditions (bound tests, modulo masks). Anything it does
not understand becomes opaque: the callers then know less, never something wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kernlint.analysis.consteval import parse_int_literal
from kernlint.analysis.precedence import BINARY_PRECEDENCE, PrecedenceParser
from kernlint.facts.kinds import Comparison
from kernlint.facts.openmp import Linear, OmpBound
from kernlint.records import record

# -- the tree ----------------------------------------------------------------------------------


@record
class Num:
    value: int | None  # None for a non-integer literal (1.0, 2.5e3)


@record
class Name:
    name: str


@record
class Unary:
    op: str
    operand: Expr


@record
class Binary:
    op: str
    left: Expr
    right: Expr


@record
class Call:
    """A call, or in Fortran also an array element (`a(i)`): the grammar cannot tell them apart."""

    name: str
    args: tuple[Expr, ...]


@record
class Subscript:
    """A C subscript `base[index]`."""

    base: Expr
    index: Expr


@record
class Member:
    """A member of an element or of a call's result (`nodes[i].start`, Fortran `cells(i)%n`): its value
    comes from that element. A member of a plain name (`s.n`, `p->n`) stays a `Name`."""

    base: Expr
    field: str
    op: str  # `.`, `->` or `%`


@record
class Opaque:
    """What the reader could not read; `too_deep` when only its nesting stopped it (see `parse`)."""

    text: str
    too_deep: bool = False


Expr = Num | Name | Unary | Binary | Call | Subscript | Member | Opaque

_C_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|/\*.*?\*/|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F']+|\d[\d']*(?:\.\d*)?(?:[eE][+-]?\d+)?[uUlLfFzZ]*|\.\d+(?:[eE][+-]?\d+)?[fFlL]?)
  | (?P<name>[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)
  | (?P<op>->|<<|>>|<=|>=|==|!=|&&|\|\||\+\+|--|[-+*/%&|^~!<>?:(),\[\].])
""",
    re.VERBOSE | re.DOTALL,
)
_F_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|![^\n]*|&)
  | (?P<dot>\.(?:lt|le|gt|ge|eq|ne|and|or|not|eqv|neqv|true|false)\.)
  | (?P<num>\d+(?:\.(?![A-Za-z]+\.)\d*)?(?:[eEdD][+-]?\d+)?(?:_\w+)?|\.\d+(?:[eEdD][+-]?\d+)?)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>\*\*|//|==|/=|<=|>=|[-+*/<>(),:%=])
""",
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)
_F_DOTTED = {
    ".lt.": "<",
    ".le.": "<=",
    ".gt.": ">",
    ".ge.": ">=",
    ".eq.": "==",
    ".ne.": "!=",
    ".and.": "&&",
    ".or.": "||",
    ".not.": "!",
    ".eqv.": "==",
    ".neqv.": "!=",
    ".true.": "1",
    ".false.": "0",
}
#: The relational operators a bound test is made of, as the facts type them.
_RELATIONAL: dict[str, Comparison] = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}
#: Fortran intrinsics that are C operators.
_F_BINARY_INTRINSICS = {"mod": "%", "modulo": "%", "iand": "&", "ior": "|", "ieor": "^"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


class _Fail(Exception):
    pass


def _tokens(text: str, fortran: bool) -> list[tuple[str, str]]:
    pattern = _F_TOKEN if fortran else _C_TOKEN
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        match = pattern.match(text, pos)
        if match is None:
            raise _Fail(text[pos])
        pos = match.end()
        kind = match.lastgroup
        value = match.group()
        if kind == "ws":
            continue
        if kind == "dot":
            mapped = _F_DOTTED[value.lower()]
            out.append(("num", mapped) if mapped in ("0", "1") else ("op", mapped))
        elif kind == "op" and fortran and value == "/=":
            out.append(("op", "!="))
        elif kind == "name":
            out.append(("name", value.lower() if fortran else re.sub(r"\s+", "", value)))
        else:
            out.append((kind or "op", value))
    return out


def _number(text: str, fortran: bool) -> int | None:
    if fortran:
        body = text.split("_", 1)[0]
        return int(body) if body.isdigit() else None
    if re.fullmatch(r"0[xX][0-9a-fA-F']+[uUlLzZ]*|\d[\d']*[uUlLzZ]*", text):
        return parse_int_literal(text)
    return None


class _Parser(PrecedenceParser[Expr]):
    """Builds the tree (the shared operator grammar is `kernlint.analysis.precedence`, which says why
    this reader is not `consteval`'s)."""

    def __init__(self, tokens: list[tuple[str, str]], fortran: bool) -> None:
        super().__init__(tokens, _Fail, conditional=not fortran)
        self.fortran = fortran

    binary = staticmethod(Binary)

    def conditional(self, condition: Expr, then: Expr, other: Expr) -> Expr:
        return Opaque("?:")

    def operand(self) -> Expr:
        kind, value = self.take()
        if kind == "num":
            return self.postfix(Num(_number(value, self.fortran)))
        if kind == "name":
            return self.postfix(self.named(value))
        if value == "(":
            if not self.fortran and self._cast_ahead():
                while self.take() != ("op", ")"):
                    pass
                return self.operand()
            inner = self.expression()
            self.expect(")")
            return self.postfix(inner)
        if value in ("-", "+", "!", "~"):
            operand = self.expression(
                BINARY_PRECEDENCE["*"] if not self.fortran or value != "-" else BINARY_PRECEDENCE["+"]
            )
            return Unary(value, operand) if value != "+" else operand
        if value in ("*", "&", "++", "--") and not self.fortran:
            return Unary(value, self.operand())
        raise _Fail(value)

    def _cast_ahead(self) -> bool:
        """`(int)x`, `(size_t)(a + b)`: a parenthesised type name (C casts) before an operand."""
        words = 0
        i = self.pos
        while i < len(self.tokens) and self.tokens[i][0] == "name":
            words += 1
            i += 1
        while i < len(self.tokens) and self.tokens[i] == ("op", "*"):
            i += 1
        if not words or i >= len(self.tokens) or self.tokens[i] != ("op", ")") or i + 1 >= len(self.tokens):
            return False
        first = self.tokens[self.pos][1]
        following = self.tokens[i + 1]
        typeish = first in _TYPE_WORDS or first.endswith("_t")
        return typeish and (following[0] in ("name", "num") or following[1] in ("(", "-", "~", "!"))

    def named(self, name: str) -> Expr:
        if self.peek() == ("op", "("):
            self.take()
            args: list[Expr] = []
            if self.peek() != ("op", ")"):
                while True:
                    args.append(self.argument())
                    if self.peek() == ("op", ","):
                        self.take()
                        continue
                    break
            self.expect(")")
            if self.fortran and len(args) == 2 and name in _F_BINARY_INTRINSICS:
                return Binary(_F_BINARY_INTRINSICS[name], args[0], args[1])
            if self.fortran and len(args) == 2 and name == "btest":  # btest(x, k): bit k of x is set
                return Binary("!=", Binary("&", args[0], Binary("<<", Num(1), args[1])), Num(0))
            return Call(name, tuple(args))
        return Name(name)

    def argument(self) -> Expr:
        """A call argument; a Fortran section `lo:hi` or keyword `dim=1` stays opaque."""
        expr = self.expression()
        if self.fortran and self.peek() in (("op", ":"), ("op", "=")):
            while self.peek() not in (("op", ","), ("op", ")"), None):
                self.take()
            return Opaque("section")
        return expr

    def postfix(self, expr: Expr) -> Expr:
        while True:
            token = self.peek()
            if token == ("op", "[") and not self.fortran:
                self.take()
                index = self.expression()
                self.expect("]")
                expr = Subscript(expr, index)
            elif (token in (("op", "."), ("op", "->")) and not self.fortran) or (token == ("op", "%") and self.fortran):
                self.take()
                member = self.take()
                if isinstance(expr, Name):
                    expr = Name(f"{expr.name}{token[1]}{member[1]}")
                else:
                    expr = Member(expr, member[1], token[1])
                if self.fortran and self.peek() == ("op", "("):
                    self.take()
                    depth = 1
                    while depth:
                        op = self.take()
                        depth += {("op", "("): 1, ("op", ")"): -1}.get(op, 0)
                    expr = Opaque("component")
            elif token in (("op", "++"), ("op", "--")) and not self.fortran:
                self.take()
                expr = Unary("post" + token[1], expr)
            else:
                return expr


_TYPE_WORDS = frozenset(
    {
        "int",
        "unsigned",
        "signed",
        "long",
        "short",
        "char",
        "float",
        "double",
        "const",
        "bool",
        "size_t",
        "ptrdiff_t",
        "std::size_t",
        "std::ptrdiff_t",
    }
)


@lru_cache(maxsize=8192)
def parse(text: str, *, fortran: bool) -> Expr:
    """The expression tree of `text`; Opaque(text) when it cannot be read. The tree is immutable and
    the same texts (bounds, subscripts, conditions) are read again and again, so each is parsed once."""
    try:
        parser = _Parser(_single_parentheses(_tokens(text, fortran)), fortran)
        expr = parser.expression()
        if parser.peek() is not None:
            return Opaque(text)
        return expr
    except _Fail:
        return Opaque(text)
    except RecursionError:  # nested deeper than Python's stack lets this reader go (hundreds of levels)
        return Opaque(text, too_deep=True)


def _single_parentheses(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`tokens` with doubled parentheses made single (`((x))` is `(x)`): however many a generator
    wrote, they cost the reader no depth."""
    partner: dict[int, int] = {}
    open_at: list[int] = []
    for position, token in enumerate(tokens):
        if token == ("op", "("):
            open_at.append(position)
        elif token == ("op", ")") and open_at:
            partner[open_at.pop()] = position
    dropped = {at for first, last in partner.items() if partner.get(first + 1) == last - 1 for at in (first, last)}
    return [token for position, token in enumerate(tokens) if position not in dropped] if dropped else tokens


# -- linear forms -------------------------------------------------------------------------------

Constant = Callable[[str], "int | None"]
Definition = Callable[[str], "Expr | None"]
_MAX_DEPTH = 12


@record
class Scope:
    """What names mean at one point: constants (`#define`, `parameter`, `constexpr`) and local
    single-assignment definitions (`int next = j + TILE + u;`) that may be substituted."""

    constant: Constant
    definition: Definition = lambda _name: None


def linear(expr: Expr, scope: Scope, depth: int = 0) -> Linear | None:
    """`expr` as constant + Σ coefficient·name, or None when it is not linear in what it reads."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, Num):
        return Linear.const(expr.value) if expr.value is not None else None
    if isinstance(expr, Name):
        value = scope.constant(expr.name)
        if value is not None:
            return Linear.const(value)
        definition = scope.definition(expr.name)
        if definition is not None:
            expanded = linear(definition, scope, depth + 1)
            if expanded is not None:
                return expanded
        return Linear.name(expr.name)
    if isinstance(expr, Unary):
        inner = linear(expr.operand, scope, depth + 1)
        if inner is None:
            return None
        if expr.op == "-":
            return inner.scale(-1)
        if expr.op in ("~", "!") and inner.is_constant:
            return Linear.const(~inner.constant if expr.op == "~" else int(not inner.constant))
        return None
    if isinstance(expr, Binary):
        left = linear(expr.left, scope, depth + 1)
        right = linear(expr.right, scope, depth + 1)
        if left is None or right is None:
            return None
        if expr.op == "+":
            return left + right
        if expr.op == "-":
            return left - right
        if expr.op == "*":
            if left.is_constant:
                return right.scale(left.constant)
            if right.is_constant:
                return left.scale(right.constant)
            return None
        if left.is_constant and right.is_constant:
            value = _fold(expr.op, left.constant, right.constant)
            return Linear.const(value) if value is not None else None
        return None
    if isinstance(expr, Call) and expr.name in ("min", "max", "std::min", "std::max") and len(expr.args) == 2:
        values = [linear(a, scope, depth + 1) for a in expr.args]
        if all(v is not None and v.is_constant for v in values):
            pair = [v.constant for v in values]  # type: ignore[union-attr]
            return Linear.const(min(pair) if expr.name.endswith("min") else max(pair))
    return None


def _fold(op: str, a: int, b: int) -> int | None:
    if op in ("/", "%"):
        if b == 0:
            return None
        quotient = abs(a) // abs(b)
        quotient = quotient if (a >= 0) == (b >= 0) else -quotient
        return quotient if op == "/" else a - b * quotient
    if op == "**":
        return a**b if 0 <= b <= 64 else None
    if op in ("<<", ">>"):
        return (a << b if op == "<<" else a >> b) if 0 <= b <= 64 else None
    table: dict[str, Callable[[], int]] = {
        "&": lambda: a & b,
        "|": lambda: a | b,
        "^": lambda: a ^ b,
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "<": lambda: int(a < b),
        ">": lambda: int(a > b),
        "<=": lambda: int(a <= b),
        ">=": lambda: int(a >= b),
        "&&": lambda: int(bool(a and b)),
        "||": lambda: int(bool(a or b)),
    }
    return table[op]() if op in table else None


def names_in(text: str, *, fortran: bool) -> set[str]:
    """The identifiers of an expression's text (lower-cased in Fortran, as in every fact)."""
    return {m.group().lower() if fortran else m.group() for m in re.finditer(r"[A-Za-z_]\w*", text)}


def linear_text(text: str, *, fortran: bool, scope: Scope) -> Linear | None:
    return linear(parse(text, fortran=fortran), scope)


# -- conditions ---------------------------------------------------------------------------------


@record
class ConditionShape:
    """What a condition tests: names read, relational bounds, modulo masks, and whether all was read."""

    names: tuple[str, ...]
    bounds: tuple[OmpBound, ...]
    masks: tuple[tuple[Linear, int], ...]
    opaque: bool


def condition_shape(text: str, *, fortran: bool, scope: Scope, negate: bool = False) -> ConditionShape:
    """The shape of condition `text` (of its negation with `negate`, for code in an `else` branch).

    Masks are only collected where they must hold (not under `!` or one side of `||`)."""
    expr = parse(text, fortran=fortran)
    names: set[str] = set()
    bounds: list[OmpBound] = []
    masks: list[tuple[Linear, int]] = []
    opaque = [isinstance(expr, Opaque)]

    def mask(value: Expr, zero: Expr) -> bool:
        """`x % m == 0` / `(x & (m - 1)) == 0`: a test true once every m values of x."""
        z = linear(zero, scope)
        if z is None or z != Linear.const(0) or not isinstance(value, Binary):
            return False
        modulus = linear(value.right, scope)
        subject = linear(value.left, scope)
        if modulus is None or not modulus.is_constant or subject is None:
            return False
        if value.op == "%" and modulus.constant > 0:
            masks.append((subject, modulus.constant))
            return True
        period = modulus.constant + 1
        if value.op == "&" and period > 1 and period & (period - 1) == 0:
            masks.append((subject, period))
            return True
        return False

    def visit(node: Expr, depth: int = 0, holds: bool | None = True) -> None:
        """`holds`: True where `node` must be true, False where it must be false, None if unknown."""
        if depth > _MAX_DEPTH:
            opaque[0] = True
            return
        if isinstance(node, Name):
            names.update(_expanded_names(node, scope))
        elif isinstance(node, Opaque):
            opaque[0] = True
        elif isinstance(node, Call):
            opaque[0] = True
            for arg in node.args:
                visit(arg, depth + 1, None)
        elif isinstance(node, Subscript):
            visit(node.base, depth + 1, None)
            visit(node.index, depth + 1, None)
        elif isinstance(node, Member):
            visit(node.base, depth + 1, None)
        elif isinstance(node, Unary):
            if node.op == "!" and holds is True and isinstance(node.operand, Binary) and node.operand.op == "%":
                mask(node.operand, Num(0))
            visit(node.operand, depth + 1, (not holds if holds is not None else None) if node.op == "!" else None)
        elif isinstance(node, Binary):
            if node.op in _RELATIONAL:
                bounds.append(
                    OmpBound(linear(node.left, scope), _RELATIONAL[node.op], linear(node.right, scope), _render(node))
                )
            elif ((node.op == "==" and holds is True) or (node.op == "!=" and holds is False)) and not mask(
                node.left, node.right
            ):
                mask(node.right, node.left)
            if node.op == "&&":
                inner = True if holds is True else None
            elif node.op == "||":
                inner = False if holds is False else None
            else:
                inner = None
            visit(node.left, depth + 1, inner)
            visit(node.right, depth + 1, inner)

    if negate:
        expr = Unary("!", expr)
    visit(expr)
    return ConditionShape(tuple(sorted(names)), tuple(bounds), tuple(masks), opaque[0])


def _expanded_names(node: Name, scope: Scope, depth: int = 0) -> set[str]:
    """A name plus, through local definitions, the names it stands for (`next` → next, j, u)."""
    found = {node.name} if scope.constant(node.name) is None else set()
    definition = scope.definition(node.name) if depth < _MAX_DEPTH else None
    if definition is not None:
        stack = [definition]
        while stack:
            item = stack.pop()
            if isinstance(item, Name):
                found |= _expanded_names(item, scope, depth + 1)
            elif isinstance(item, Unary):
                stack.append(item.operand)
            elif isinstance(item, Binary):
                stack += [item.left, item.right]
            elif isinstance(item, Call):
                stack += list(item.args)
            elif isinstance(item, Subscript):
                stack += [item.base, item.index]
            elif isinstance(item, Member):
                stack.append(item.base)
    return found


def _render(expr: Expr) -> str:
    """C-style text of a tree (for messages)."""
    if isinstance(expr, Num):
        return "?" if expr.value is None else str(expr.value)
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Unary):
        return f"{expr.op.removeprefix('post')}{_render(expr.operand)}"
    if isinstance(expr, Binary):
        return f"{_render(expr.left)} {expr.op} {_render(expr.right)}"
    if isinstance(expr, Call):
        return f"{expr.name}({', '.join(_render(a) for a in expr.args)})"
    if isinstance(expr, Subscript):
        return f"{_render(expr.base)}[{_render(expr.index)}]"
    if isinstance(expr, Member):
        return f"{_render(expr.base)}{expr.op}{expr.field}"
    return expr.text


def flip(op: str) -> str:
    """The relational operator with its sides swapped (`a < b` ⇔ `b > a`)."""
    return _FLIP.get(op, op)
