"""What the lane-stride pass (`kernlint.analysis.strides`) asks of SYCL device code: the solved
dependence program of the unit an access is in, named constants, how each work-item id moves along a
sub-group, what calls pass a device function's parameters, and what a helper or macro computes.

The lane is the fastest-varying id: dimension N − 1 of an `nd_item<N>`, `item<N>` or `id<N>`, unless
the launch gives that dimension an extent of 1 (then the last dimension that is wider); the
sub-group's local id and the linear ids rise by one from lane to lane too. The next slower dimension
is a `row`: it varies inside a sub-group only when the fastest one is narrower than the sub-group,
which the rules decide from `LaneShape.row_width`. Every other id is the same across a sub-group.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter

from kernlint.analysis import dependence as dep
from kernlint.analysis.names import Name, definition_of, plain_name
from kernlint.analysis.strides import SeedRole, StrideSource
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.nodes import Key, call_parts
from kernlint.frontends.cpp.dependence.program import CppDependence
from kernlint.frontends.openmp import expr as ex
from kernlint.records import record

Node = tree_sitter.Node

_CALL = re.compile(r"^\s*(?P<receiver>\w+)\s*(?:\.|->)\s*(?P<method>\w+)\s*\(\s*(?P<dim>\d*)\s*\)\s*$")
_INDEXED = re.compile(r"^\s*(?P<receiver>\w+)\s*\[\s*(?P<dim>\d+)\s*\]\s*$")
_LINEAR = frozenset({"get_global_linear_id", "get_local_linear_id", "get_linear_id"})
_DIMS = re.compile(r"<\s*([1-3])\s*>")
_MAX_NESTING = 16
_MAX_INLINED = 4  # calls and macros expanded inside one another


@record(slots=True)
class LaneShape:
    """The launch's shape as far as the lanes go: which dimension is fastest when the ids have `dims`
    dimensions (None: the last), and the fastest dimension's local extent when known."""

    dims: int | None = None
    fastest: int | None = None
    row_width: int | None = None


@record
class FileStrides:
    """What every unit's stride source shares in one file."""

    dependence: CppDependence
    constant: Callable[[str, int], int | None]  # a file constant's value at a byte
    handle_dims: Callable[[str, Node], int | None]  # the dimensions a handle's declared type states
    shape: Callable[[UnitContext], LaneShape]
    calls: dict[Key, list[tuple[Node, UnitContext]]]  # device function -> the calls reaching it
    macro: Callable[[str], tuple[tuple[str, ...], str] | None]  # function-like macros: (parameters, body)

    def source(self, context: UnitContext, at: Node, inlined: int = 0) -> CppStrideSource:
        return CppStrideSource(self, context, at, inlined)


class CppStrideSource:
    """`kernlint.analysis.strides.StrideSource` for one unit of SYCL device code, read at node `at`."""

    def __init__(self, file: FileStrides, context: UnitContext, at: Node, inlined: int = 0) -> None:
        self._file = file
        self._dependence = file.dependence
        self._context = context
        self._at = at
        self._inlined = inlined

    def taint(self, expr: dep.Expr) -> dep.Taint | None:
        return self._dependence.program.taint(self._context.source.key, expr)

    def definition(self, name: Name) -> dep.Expr | None:
        """The single definition of `name` in the unit or, for a captured name, in a unit around it."""
        program = self._dependence.program
        context: UnitContext | None = self._context
        for _ in range(_MAX_NESTING):
            if context is None:
                return None
            found = program.definition(context.source.key, name)
            if found is not None:
                return found
            parent = context.source.parent
            context = self._dependence.scopes.contexts.get(parent) if parent is not None else None
        return None

    def constant(self, name: Name) -> int | None:
        """A file constant (a macro, a `constexpr` or never-written variable): only names the units do not
        declare, whose single definition the program would have given otherwise."""
        if isinstance(name, str) and definition_of(name) is None:
            return self._file.constant(name, self._at.start_byte)
        return None

    def seed_role(self, seed: dep.Seed, dimension: int | None) -> SeedRole | None:
        if seed.scope == "lane":
            return "lane"
        call = _CALL.match(seed.text)
        indexed = _INDEXED.match(seed.text) if call is None else None
        if call is not None and call.group("method") in _LINEAR:
            return "lane"
        if call is not None:
            receiver, written = call.group("receiver"), call.group("dim")
        elif indexed is not None:
            receiver, written = indexed.group("receiver"), indexed.group("dim")
        elif re.fullmatch(r"\w+", seed.text.strip()):
            receiver, written = seed.text.strip(), ""
        else:
            return None
        if written:
            dimension = int(written)
        dims = self._dependence.scopes.lookup_dims(self._context, receiver) or self._file.handle_dims(
            receiver, self._at
        )
        if dims is None:
            return None
        if dimension is None:
            return "lane" if dims == 1 else None
        shape = self._file.shape(self._context)
        fastest = shape.fastest if shape.dims == dims and shape.fastest is not None else dims - 1
        if dimension == fastest:
            return "lane"
        if dimension == fastest - 1 and shape.row_width is not None:
            return "row"
        return "uniform" if 0 <= dimension < dims else None

    def arguments(self, name: Name) -> list[tuple[dep.Expr, StrideSource]] | None:
        """The arguments the calls of this device function pass to its parameter `name`."""
        source = self._context.source
        if source.parent is not None or source.index_param is not None or self._inlined >= _MAX_INLINED:
            return None
        index = next((i for i, p in enumerate(self._context.params) if p[0] == name), None)
        sites = self._file.calls.get(source.key, [])
        if index is None or not sites:
            return None
        passed: list[tuple[dep.Expr, StrideSource]] = []
        for call, caller in sites:
            _receiver, _name, args = call_parts(call)
            if index >= len(args):
                return None
            lowered = self._dependence.lower(args[index], caller)
            passed.append((lowered, self._file.source(caller, call, self._inlined + 1)))
        return passed

    def inline(self, call: dep.Call) -> dep.Expr | None:
        """A helper's single `return` or a function-like macro's body, its parameters replaced by the
        call's arguments (names of the body that are not parameters stay as they are)."""
        if self._inlined >= _MAX_INLINED:
            return None
        if call.unit is not None:
            returned = self._dependence.program.returned(call.unit)
            callee = self._dependence.program.units.get(call.unit)
            if returned is None or callee is None or len(callee.params) != len(call.args):
                return None
            bound = dict(zip(callee.params, call.args))
            if any(n in callee.names and n not in bound for n in dep.names_in(returned)):
                return None  # it computes through locals of its own
            return _substitute(returned, bound)
        macro = self._file.macro(call.name)
        if macro is None or len(macro[0]) != len(call.args):
            return None
        try:
            body = ex.parse(macro[1], fortran=False)
        except (ValueError, RecursionError):
            return None
        return _from_text(body, dict(zip(macro[0], call.args)))


def _substitute(expr: dep.Expr, bound: dict[str, dep.Expr]) -> dep.Expr:
    """`expr` with each `Var(parameter)` replaced by what the call passes."""
    if isinstance(expr, dep.Var):
        return bound.get(expr.name, expr) if isinstance(expr.name, str) else expr
    if isinstance(expr, dep.Binary):
        return dep.Binary(expr.op, _substitute(expr.left, bound), _substitute(expr.right, bound))
    if isinstance(expr, dep.Unary):
        return dep.Unary(expr.op, _substitute(expr.operand, bound))
    if isinstance(expr, dep.Select):
        return dep.Select(_substitute(expr.cond, bound), _substitute(expr.then, bound), _substitute(expr.other, bound))
    if isinstance(expr, dep.Call):
        return dep.Call(expr.name, tuple(_substitute(a, bound) for a in expr.args), expr.unit, expr.monotone)
    if isinstance(expr, dep.Load):
        index = _substitute(expr.index, bound) if expr.index is not None else None
        return dep.Load(_substitute(expr.base, bound), index)
    if isinstance(expr, dep.Phi):
        return dep.Phi(tuple(_substitute(o, bound) for o in expr.options))
    return expr


def _from_text(node: ex.Expr, bound: dict[str, dep.Expr]) -> dep.Expr:
    """A macro body read as text, in the dependence analysis' terms."""
    if isinstance(node, ex.Num):
        return dep.Const(node.value)
    if isinstance(node, ex.Name):
        return bound.get(node.name, dep.Var(node.name))
    if isinstance(node, ex.Unary):
        inner = _from_text(node.operand, bound)
        return dep.Unary(node.op, inner) if node.op in ("-", "+", "!", "~") else inner
    if isinstance(node, ex.Binary):
        return dep.Binary(node.op, _from_text(node.left, bound), _from_text(node.right, bound))
    if isinstance(node, ex.Subscript):
        return dep.Load(_from_text(node.base, bound), _from_text(node.index, bound))
    if isinstance(node, ex.Call):
        return dep.Call(node.name, tuple(_from_text(a, bound) for a in node.args))
    return dep.Uniform(getattr(node, "text", ""))


def loop_counter_names(context: UnitContext, loops: tuple[Node, ...]) -> frozenset[str]:
    """The plain names the loops around an access assign (their counters among them)."""
    names: set[str] = set()
    for loop in loops:
        names |= {plain_name(v) for v in context.loop_sets.get((loop.start_byte, loop.end_byte), set())}
    return frozenset(names)


def dims_of(type_text: str) -> int | None:
    """The dimensions a handle or id type states (`sycl::nd_item<3>`: 3)."""
    found = _DIMS.search(type_text)
    return int(found.group(1)) if found is not None else None
