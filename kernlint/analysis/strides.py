"""Lane strides: how the address of a memory access moves from one lane of a sub-group to the next.

A separate pass over what the work-item dependence analysis (`kernlint.analysis.dependence`) already
solved: it reads an index expression a front-end lowered, asks the solved program which values are
uniform and what a variable's single definition is, and writes the index as an affine form in the
lane,

    index = lane × stride + row × pitch + uniform part

where `lane` rises by one from lane to lane (the fastest-varying work-item id: the last dimension of
an `nd_item`, the sub-group's local id, the innermost iteration of an OpenMP loop nest shared out by
`parallel for`) and `row` is the next slower id, which only varies inside a sub-group when the
fastest dimension is narrower than the sub-group (the front-end says so). Strides are polynomials
over uniform symbols, so `gid * N + k` has the stride `N` even where `N` is unknown, and `gid * 4`
has the stride 4.

What stays unknown: an index loaded from memory (a gather), the product of two lane-dependent values,
a remainder or quotient that does not keep lanes consecutive, a call the program cannot see into.
The pass never guesses; an unknown form is `None` and says nothing about the access.

`classify` names the form: uniform (every lane reads the same element: a broadcast), unit stride,
constant stride, a symbolic row pitch, a per-work-item chunk (`i * CH + k` in a loop over `k`) or a
constant stride.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Literal, Protocol

from kernlint.analysis.expressions import (
    Binary,
    Broadcast,
    Call,
    Component,
    Const,
    Expr,
    Load,
    Phi,
    Seed,
    Select,
    SubGroupUniform,
    Taint,
    Unary,
    Uniform,
    Var,
    Varying,
)
from kernlint.analysis.names import Name, definition_of, plain_name
from kernlint.facts.kinds import StrideForm
from kernlint.records import record

_MAX_TERMS = 6  # terms of a stride polynomial before it counts as unreadable
_MAX_DEPTH = 48  # definitions followed
_UNKNOWN = "?"  # a uniform value that cannot be written (an unevaluated constant): never a known stride

#: How a seed moves along the sub-group: the lane itself, the next slower id (varies only across the
#: rows of a sub-group narrower than the fastest dimension), the same for every lane, or unknown.
SeedRole = Literal["lane", "row", "uniform"]


# -- polynomials over uniform symbols ---------------------------------------------------------------

Monomial = tuple[str, ...]  # sorted factor texts; () is the constant term


@record(slots=True)
class Poly:
    """Σ coefficient × product of uniform symbols (`N`, `width`), with rational coefficients."""

    terms: tuple[tuple[Monomial, Fraction], ...] = ()

    @staticmethod
    def of(items: dict[Monomial, Fraction]) -> Poly:
        return Poly(tuple(sorted((m, c) for m, c in items.items() if c)))

    @staticmethod
    def constant(value: int | Fraction) -> Poly:
        return Poly.of({(): Fraction(value)})

    @staticmethod
    def symbol(text: str) -> Poly:
        return Poly.of({(text,): Fraction(1)})

    @property
    def zero(self) -> bool:
        return not self.terms

    @property
    def value(self) -> Fraction | None:
        """The constant this polynomial is, or None when it holds a symbol."""
        if not self.terms:
            return Fraction(0)
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def symbols(self) -> frozenset[str]:
        return frozenset(s for monomial, _c in self.terms for s in monomial)

    def __add__(self, other: Poly) -> Poly:
        merged = dict(self.terms)
        for monomial, coefficient in other.terms:
            merged[monomial] = merged.get(monomial, Fraction(0)) + coefficient
        return Poly.of(merged)

    def __mul__(self, other: Poly) -> Poly:
        merged: dict[Monomial, Fraction] = {}
        for left, a in self.terms:
            for right, b in other.terms:
                monomial = tuple(sorted(left + right))
                merged[monomial] = merged.get(monomial, Fraction(0)) + a * b
        return Poly.of(merged)

    def scale(self, factor: Fraction) -> Poly:
        return Poly.of({m: c * factor for m, c in self.terms})

    def text(self) -> str:
        """As it would be written: `N`, `4`, `2 * N + 1`, `N * M`."""
        if not self.terms:
            return "0"
        parts: list[str] = []
        for monomial, coefficient in sorted(self.terms, key=lambda t: (-len(t[0]), t[0])):
            magnitude = abs(coefficient)
            factors = list(monomial)
            if magnitude != 1 or not factors:
                factors.insert(0, str(magnitude))
            word = " * ".join(_parenthesised(f) for f in factors) if len(factors) > 1 else factors[0]
            if not parts:
                parts.append(f"-{word}" if coefficient < 0 else word)
            else:
                parts.append(f"- {word}" if coefficient < 0 else f"+ {word}")
        return " ".join(parts)


def _parenthesised(text: str) -> str:
    return f"({text})" if any(op in text for op in " +-") else text


ZERO = Poly()
ONE = Poly.constant(1)


# -- the affine form ------------------------------------------------------------------------------


@record(slots=True)
class LaneForm:
    """An index as `lane × lane + row × row + uniform` (`uniform` only its readable part)."""

    lane: Poly = ZERO
    row: Poly = ZERO
    uniform: Poly = ZERO

    def __add__(self, other: LaneForm) -> LaneForm:
        return LaneForm(self.lane + other.lane, self.row + other.row, self.uniform + other.uniform)

    def scale(self, factor: Poly) -> LaneForm:
        return LaneForm(self.lane * factor, self.row * factor, self.uniform * factor)

    @property
    def varies(self) -> bool:
        return not (self.lane.zero and self.row.zero)

    def too_large(self) -> bool:
        return max(len(self.lane.terms), len(self.row.terms), len(self.uniform.terms)) > _MAX_TERMS


class _Pending:
    """A variable read while its own definition is being worked out (a loop-carried value): it agrees
    with whatever the other definitions say."""


PENDING = _Pending()
Found = LaneForm | _Pending | None  # None: unknown


class StrideSource(Protocol):
    """What the pass asks of the solved dependence program and of the front-end."""

    def taint(self, expr: Expr) -> Taint | None:
        """How `expr` depends on the work-item id (None: uniform), from the solved program."""

    def definition(self, name: Name) -> Expr | None:
        """The single definition of a variable, None when it has several or none."""

    def constant(self, name: Name) -> int | None:
        """The value of a named constant (a macro, a `constexpr`), None when not known."""

    def seed_role(self, seed: Seed, dimension: int | None) -> SeedRole | None:
        """How a work-item id moves along a sub-group (`dimension`: a component picked from an id
        object, `gid[1]`); None when not known."""

    def arguments(self, name: Name) -> list[tuple[Expr, StrideSource]] | None:
        """When `name` is a parameter of the device function the access is in: the argument every call
        passes it, each with the source of the caller's unit; None otherwise."""

    def inline(self, call: Call) -> Expr | None:
        """A call's value as an expression of its arguments (a helper returning one expression of its
        parameters, a function-like macro), or None."""


def lane_form(expr: Expr, source: StrideSource, memo: dict[Hashable, Found] | None = None) -> LaneForm | None:
    """The affine form of `expr` in the lane, or None when it is not one the pass can read. `memo`
    keeps the forms of variables across calls with sources of one unit (they do not change)."""
    found = _Walk(source, memo).form(expr, 0)
    if not isinstance(found, LaneForm) or found.too_large():
        return None
    return found


class _Walk:
    def __init__(self, source: StrideSource, memo: dict[Hashable, Found] | None = None) -> None:
        self.source = source
        self.busy: set[Hashable] = set()
        self.memo: dict[Hashable, Found] = memo if memo is not None else {}
        self.pending = 0  # reads of a variable still being worked out, so far

    def form(self, expr: Expr | None, depth: int) -> Found:
        if expr is None or depth > _MAX_DEPTH:
            return None
        if isinstance(expr, Const):
            value = expr.value
            return LaneForm(uniform=Poly.constant(value) if isinstance(value, int) else Poly.symbol(_UNKNOWN))
        if isinstance(expr, (Uniform, SubGroupUniform)):
            return LaneForm(uniform=Poly.symbol(expr.text or _UNKNOWN))
        if isinstance(expr, Seed):
            return self._seed(expr, None)
        if isinstance(expr, Var):
            return self._variable(expr.name, depth)
        if isinstance(expr, Phi):
            return self._phi(expr, depth)
        if isinstance(expr, Component):
            return self._component(expr, depth)
        if isinstance(expr, (Load, Varying, Broadcast)):
            return LaneForm(uniform=Poly.symbol(_text(expr))) if self._uniform(expr) else None
        if isinstance(expr, Unary):
            inner = self.form(expr.operand, depth + 1)
            if expr.op == "+" or not isinstance(inner, LaneForm):
                return inner
            if expr.op == "-":
                return inner.scale(Poly.constant(-1))
            return LaneForm(uniform=Poly.symbol(_text(expr))) if not inner.varies else None
        if isinstance(expr, Binary):
            return self._binary(expr, depth)
        if isinstance(expr, Select):
            return self._select(expr, depth)
        if isinstance(expr, Call):
            return self._call(expr, depth)
        return None  # pragma: no cover - every Expr is handled above

    def _uniform(self, expr: Expr) -> bool:
        taint = self.source.taint(expr)
        return taint is None or taint.kind == "sub-group"

    def _seed(self, seed: Seed, dimension: int | None) -> Found:
        role = self.source.seed_role(seed, dimension)
        if role == "lane":
            return LaneForm(lane=ONE)
        if role == "row":
            return LaneForm(row=ONE)
        if role == "uniform":
            return LaneForm(uniform=Poly.symbol(seed.text))
        return None

    def _variable(self, name: Name, depth: int) -> Found:
        if name in self.busy:
            self.pending += 1
            return PENDING
        if name in self.memo:
            return self.memo[name]
        before = self.pending
        self.busy.add(name)
        if self._uniform(Var(name)):
            found: Found = LaneForm(uniform=self._uniform_value(name, depth))
        else:
            definition = self.source.definition(name)
            found = self.form(definition, depth + 1) if definition is not None else self._passed(name, depth)
        self.busy.discard(name)
        if self.pending == before:
            self.memo[name] = found  # (a form that leaned on one still being worked out is not kept)
        return found

    def _passed(self, name: Name, depth: int) -> Found:
        """A parameter of the device function: how the lanes move in what every call passes it."""
        passed = self.source.arguments(name)
        if not passed or depth > _MAX_DEPTH // 2:
            return None
        forms = [_Walk(source).form(expr, depth + 1) for expr, source in passed]
        if any(not isinstance(f, LaneForm) for f in forms):
            return None
        first = forms[0]
        assert isinstance(first, LaneForm)
        if any((f.lane, f.row) != (first.lane, first.row) for f in forms[1:]):  # type: ignore[union-attr]
            return None
        return LaneForm(first.lane, first.row, Poly.symbol(_name_text(name) + "'"))

    def _uniform_value(self, name: Name, depth: int) -> Poly:
        """A uniform variable: its value when constant, else its own name (`N`, `ld`), as written."""
        value = self.source.constant(name)
        if value is None:
            definition = self.source.definition(name)
            inner = self.form(definition, depth + 1) if definition is not None else None
            known = inner.uniform.value if isinstance(inner, LaneForm) and not inner.varies else None
            if known is not None and _UNKNOWN not in inner.uniform.symbols:  # type: ignore[union-attr]
                return Poly.constant(known)
            return Poly.symbol(_name_text(name))
        return Poly.constant(value)

    def _phi(self, phi: Phi, depth: int) -> Found:
        """Several definitions reach: they must agree on how the lanes move."""
        options = [self.form(option, depth + 1) for option in phi.options]
        known = [o for o in options if isinstance(o, LaneForm)]
        if any(o is None for o in options):
            return None
        if not known:
            return PENDING
        first = known[0]
        if any((o.lane, o.row) != (first.lane, first.row) for o in known[1:]):
            return None
        if not first.varies:
            return LaneForm(uniform=Poly.symbol(_phi_text(phi)))
        # the lane-dependent variable's own progress (`i += stride`): a term, but not a loop counter's
        return LaneForm(first.lane, first.row, Poly.symbol(_phi_text(phi) + "'"))

    def _component(self, expr: Component, depth: int) -> Found:
        """`gid[1]` of an id object: the seed's dimension 1."""
        dimension = expr.index.value if isinstance(expr.index, Const) else None
        base = expr.base
        if isinstance(base, Var):
            definition = self.source.definition(base.name)
            base = definition if definition is not None else base
        if isinstance(base, Seed) and isinstance(dimension, int):
            return self._seed(base, dimension)
        return LaneForm(uniform=Poly.symbol(_text(expr))) if self._uniform(expr) else None

    def _binary(self, expr: Binary, depth: int) -> Found:
        op = expr.op
        if op in ("/", ">>", "%", "&") and self._uniform(expr):
            return LaneForm(uniform=Poly.symbol(_text(expr)))  # `lid / 32`: sub-group uniform, as graded
        if op in ("+", "-", "*", "/", ">>", "<<", "%", "&"):
            left = self.form(expr.left, depth + 1)
            right = self.form(expr.right, depth + 1)
        else:
            return LaneForm(uniform=Poly.symbol(_text(expr))) if self._uniform(expr) else None
        if left is None or right is None:
            return None
        if isinstance(left, _Pending) or isinstance(right, _Pending):
            other = right if isinstance(left, _Pending) else left
            return PENDING if op in ("+", "-") and (isinstance(other, _Pending) or not other.varies) else None
        if op == "+":
            return left + right
        if op == "-":
            return left + right.scale(Poly.constant(-1))
        if op == "*":
            if left.varies and right.varies:
                return None
            return left.scale(right.uniform) if left.varies else right.scale(left.uniform)
        return self._quotient(op, left, right, expr)

    def _quotient(self, op: str, left: LaneForm, right: LaneForm, expr: Binary) -> Found:
        """Division, shifts, remainders and masks by a constant: only those that keep the lanes' order."""
        divisor = right.uniform.value if not right.varies else None
        if divisor is None or divisor.denominator != 1:
            return None if left.varies or right.varies else LaneForm(uniform=Poly.symbol(_text(expr)))
        k = int(divisor)
        if not left.varies:
            return LaneForm(uniform=Poly.symbol(_text(expr)))
        if op == "<<" and 0 <= k < 31:
            return left.scale(Poly.constant(1 << k))
        if op in ("/", ">>"):
            factor = k if op == "/" else (1 << k if 0 <= k < 31 else 0)
            if factor > 0 and factor % 32 == 0 and left.lane == ONE and left.row.zero:
                # `lid / 32`: the same in every lane of an (aligned) sub-group, at most 32 wide
                return LaneForm(uniform=Poly.symbol(_text(expr)))
            if factor <= 0 or left.uniform.symbols:
                return None
            # `lid / 2`: pairs of lanes share an element (a stride of one half)
            return LaneForm(left.lane.scale(Fraction(1, factor)), left.row.scale(Fraction(1, factor)))
        period = k if op == "%" else (k + 1 if k >= 0 and k & (k + 1) == 0 else 0)
        if period > 0 and period % 32 == 0 and left.lane == ONE and left.row.zero and not left.uniform.symbols:
            # `lid % 64`, `lid & 63`: consecutive inside every sub-group (at most 32 lanes, aligned); a
            # scaled or offset index (`(7 * i) % n`) wraps inside one, and is not read
            return left
        return None

    def _select(self, expr: Select, depth: int) -> Found:
        then, other = self.form(expr.then, depth + 1), self.form(expr.other, depth + 1)
        if not isinstance(then, LaneForm) or not isinstance(other, LaneForm):
            return None
        if (then.lane, then.row) != (other.lane, other.row):
            return None
        if not then.varies and self._uniform(expr.cond):
            return LaneForm(uniform=Poly.symbol(_text(expr)))
        return LaneForm(then.lane, then.row) if self._uniform(expr.cond) or not then.varies else None

    def _call(self, expr: Call, depth: int) -> Found:
        if self._uniform(expr):
            return LaneForm(uniform=Poly.symbol(_text(expr)))
        expanded = self.source.inline(expr)
        if expanded is not None:
            return self.form(expanded, depth + 1)
        if expr.unit is not None or not expr.monotone:
            if expr.name == "?" and len(expr.args) == 1:
                return self.form(expr.args[0], depth + 1)  # an unknown wrapper of one value (a cast)
            return None
        # min(gid, n - 1), clamp(i, 0, n): the id, except where it is clamped
        forms = [self.form(arg, depth + 1) for arg in expr.args]
        varying = [f for f in forms if isinstance(f, LaneForm) and f.varies]
        if len(varying) != 1 or any(f is None for f in forms):
            return None
        return LaneForm(varying[0].lane, varying[0].row)


# -- naming the form -----------------------------------------------------------------------------


@record(slots=True)
class Classified:
    """The form of an index in words: `form`, the stride in elements (`elements` when constant,
    `symbol` as written when not) and, for a chunk, the loop counter that walks it."""

    form: StrideForm
    elements: Fraction | None
    symbol: str | None = None
    counter: str | None = None


def classify(found: LaneForm, loop_counter: Callable[[str], bool] = lambda _n: False) -> Classified | None:
    """Uniform, unit, constant, row pitch or chunk, from the lane's coefficient; None when the stride
    cannot be named. A chunk is a constant stride of two or more with a loop counter added at unit
    weight (`i * CH + k` in a loop over `k`). A symbolic stride is a row pitch only when the index also
    walks along the row (a counter, a column, an offset: `gid * N + k`): a bare `x[i * incx]` may well
    have a stride of 1, and says nothing."""
    stride = found.lane
    if stride.zero:
        return Classified("uniform", Fraction(0))
    if _UNKNOWN in stride.symbols:
        return None
    value = stride.value
    counter = next(
        (m[0] for m, c in found.uniform.terms if len(m) == 1 and abs(c) == 1 and loop_counter(m[0])),
        None,
    )
    if value is not None and abs(value) <= 1:
        return Classified("unit", abs(value))  # `lid / 2`: lanes share elements, none is skipped
    if value is not None:
        return Classified("chunk" if counter is not None else "constant", abs(value), None, counter)
    if (found.uniform.zero and found.row.zero) or any(c.denominator != 1 for _m, c in stride.terms):
        return None  # a bare `x[i * incx]`; `(lid / 16) * w`: rows of lanes sharing elements, not a stride
    return Classified("row-pitch", None, stride.text(), counter)


def constant_apart(found: LaneForm) -> tuple[str, Fraction]:
    """The index without its constant term, as a key, and that constant: `a[2 * i]` and `a[2 * i + 1]`
    share the key and are 0 and 1 apart, so a rule can tell which elements of a stride one lane reads."""
    constant = dict(found.uniform.terms).get((), Fraction(0))
    rest = Poly.of({m: c for m, c in found.uniform.terms if m != ()})
    return f"{found.lane.text()} | {found.row.text()} | {rest.text()}", constant


# -- texts of uniform values ----------------------------------------------------------------------


def _name_text(name: Name) -> str:
    definition = definition_of(name)
    if definition is not None:
        return plain_name(definition.variable)
    if isinstance(name, str):
        return name
    if isinstance(name, tuple) and name and isinstance(name[0], str):
        return name[0]  # a Local
    return str(name)


def _phi_text(phi: Phi) -> str:
    names = {_text(option) for option in phi.options}
    return names.pop() if len(names) == 1 else "?"


def _text(expr: Expr | None) -> str:
    """A uniform value as written (near enough for a message: `N`, `n - 1`, `it.get_group(0)`)."""
    if expr is None:
        return "?"
    if isinstance(expr, Var):
        return _name_text(expr.name)
    if isinstance(expr, Const):
        return str(expr.value) if expr.value is not None else "?"
    if isinstance(expr, (Uniform, SubGroupUniform, Varying, Seed)):
        return expr.text or "?"
    if isinstance(expr, Phi):
        return _phi_text(expr)
    if isinstance(expr, Binary):
        return f"{_text(expr.left)} {expr.op} {_text(expr.right)}"
    if isinstance(expr, Unary):
        return f"{expr.op}{_text(expr.operand)}"
    if isinstance(expr, Load):
        return f"{_text(expr.base)}[{_text(expr.index)}]" if expr.index is not None else f"*{_text(expr.base)}"
    if isinstance(expr, Call):
        return f"{expr.name}({', '.join(_text(a) for a in expr.args)})"
    return "?"
