"""C++ expressions of device code lowered to the dependence core's expressions: ids, uniform and
sub-group-uniform values, loads, calls into other units.

One small handler per kind of tree-sitter node (`_HANDLERS`); a node of any other kind is an unknown
operation on its children (`Call("?", …)`), as dependent as they are. What a name means (a handle, a
variable, a constant) is asked of the unit's `Scopes`, which the program builder shares.
"""

from __future__ import annotations

from collections.abc import Callable

from kernlint.analysis.consteval import parse_int_literal
from kernlint.analysis.dependence import (
    Binary,
    Call,
    Component,
    Const,
    Expr,
    Load,
    Seed,
    Select,
    Unary,
    Uniform,
    Var,
)
from kernlint.analysis.names import Local
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.nodes import Node, declared_name, is_template_call, key_of, named, text_of
from kernlint.frontends.cpp.dependence.scopes import Scopes
from kernlint.frontends.cpp.dependence.sycl_calls import BINARY_OPS, UNARY_OPS, lower_call

# Expression nesting lowered (parentheses do not count); a deeper part counts as uniform (never guessed
# dependent) and is reported as not read (`ExpressionLowering.too_deep`).
MAX_DEPTH = 120

# Literals: constants, evaluated only where they are truth values (None: constant, value not needed).
_LITERAL_VALUES: dict[str, int | None] = {
    "true": 1,
    "false": 0,
    "null": 0,  # `NULL` and `nullptr` alike
    "char_literal": None,
    "string_literal": None,
    "sizeof_expression": None,
    "alignof_expression": None,
    "concatenated_string": None,
    "raw_string_literal": None,
    "user_defined_literal": None,
}
# Values the same for every work-item whatever they are: names of the enclosing scopes, `this`, lambdas.
_UNIFORM_NODES = (
    "qualified_identifier",
    "this",
    "lambda_expression",
    "template_function",
    "new_expression",
    "delete_expression",
    "offsetof_expression",
)


class ExpressionLowering:
    """Lowers the expressions of one file's device code, with what `scopes` knows of its units."""

    def __init__(self, scopes: Scopes) -> None:
        self.scopes = scopes
        self.too_deep: dict[int, Node] = {}  # the parts of expressions nested past MAX_DEPTH, by position

    def lower(self, node: Node | None, context: UnitContext, depth: int = 0) -> Expr:
        while node is not None and node.type == "parenthesized_expression":  # `((x))` is `x`, however deep
            node = next(iter(named(node)), None)
        if node is None:
            return Uniform()
        if depth > MAX_DEPTH:
            self.too_deep.setdefault(node.start_byte, node)
            return Uniform()
        handler = _HANDLERS.get(node.type)
        if handler is None:
            return Call("?", tuple(self.lower(child, context, depth + 1) for child in named(node)))
        return handler(self, node, context, depth)

    # -- one handler per node type: (node, the unit's context, nesting depth) -> expression ----------

    def _parenthesized(self, node: Node, context: UnitContext, depth: int) -> Expr:
        inner = node.child_by_field_name("value") if node.type == "condition_clause" else None
        inner = inner or next(iter(named(node)), None)
        return self.lower(inner, context, depth + 1) if inner is not None else Uniform()

    def _identifier(self, node: Node, context: UnitContext, depth: int) -> Expr:
        flow = context.flow
        read = flow.variable_at(node) if flow is not None else None
        if flow is not None and read is not None:
            # The walk read an own variable (or a captured name the unit stores to) here, through the
            # definitions that reach it. Its hooks found no handle of the unit by that name, and a name
            # the unit declares, assigns or takes is no handle of a unit around it either.
            return flow.read(node, read)
        scopes = self.scopes
        name = text_of(node)
        handle = scopes.lookup_handle(context, name)
        if handle == "item":
            return Seed("global", name)
        if handle is not None:
            return Uniform(name)
        key = scopes.variable(context, name, node.start_byte)  # not one the walk read: no reaching definitions
        if key == name and not any(p[0] == name for p in context.params) and _is_small_constant_site(node):
            value = scopes.constant(name, node.start_byte, context.source.key)
            if value is not None:
                return Const(value)
        return Var(key)

    def _number(self, node: Node, context: UnitContext, depth: int) -> Expr:
        return Const(parse_int_literal(text_of(node)))

    def _literal(self, node: Node, context: UnitContext, depth: int) -> Expr:
        return Const(_LITERAL_VALUES[node.type])

    def _uniform(self, node: Node, context: UnitContext, depth: int) -> Expr:
        return Uniform(text_of(node))

    def _field(self, node: Node, context: UnitContext, depth: int) -> Expr:
        base = node.child_by_field_name("argument")
        if base is not None and self.scopes.handle(base, context) is not None:
            return Uniform(text_of(node))
        operator = node.child_by_field_name("operator")
        lowered = self.lower(base, context, depth + 1)
        return Load(lowered) if operator is not None and operator.type == "->" else lowered

    def _subscript(self, node: Node, context: UnitContext, depth: int) -> Expr:
        base = node.child_by_field_name("argument")
        index = next(iter(named(node.child_by_field_name("indices"))), None)
        if base is not None and self.scopes.handle(base, context) == "item":
            return Seed("global", text_of(node))
        lowered = self.lower(base, context, depth + 1)
        if isinstance(lowered, Seed) or (
            base is not None and base.type == "identifier" and text_of(base) in context.id_like
        ):
            return Component(lowered, self.lower(index, context, depth + 1))
        return Load(lowered, self.lower(index, context, depth + 1))

    def _call(self, node: Node, context: UnitContext, depth: int) -> Expr:
        units = [k for k in self.scopes.resolve(node) if k in self.scopes.contexts]
        lowered = lower_call(
            node,
            self.scopes.parts(node),
            lambda n: self.scopes.handle(n, context),
            lambda n: self.lower(n, context, depth + 1),
            units,
        )
        if isinstance(lowered, Seed) and lowered.scope != "lane" and self._slower_dimension(node, context):
            return Seed(lowered.scope, lowered.text, shared=True)
        return lowered

    def _binary(self, node: Node, context: UnitContext, depth: int) -> Expr:
        if is_template_call(node):  # `sg.load<4>(p)`, misparsed as `(sg.load < 4) > (p)`
            return self._call(node, context, depth)
        operator = node.child_by_field_name("operator")
        op = operator.type if operator is not None else "?"
        return Binary(
            BINARY_OPS.get(op, op),
            self.lower(node.child_by_field_name("left"), context, depth + 1),
            self.lower(node.child_by_field_name("right"), context, depth + 1),
        )

    def _unary(self, node: Node, context: UnitContext, depth: int) -> Expr:
        operator = node.child_by_field_name("operator")
        op = operator.type if operator is not None else "?"
        return Unary(UNARY_OPS.get(op, op), self.lower(node.child_by_field_name("argument"), context, depth + 1))

    def _pointer(self, node: Node, context: UnitContext, depth: int) -> Expr:
        operator = node.child_by_field_name("operator")
        lowered = self.lower(node.child_by_field_name("argument"), context, depth + 1)
        return Load(lowered) if operator is not None and operator.type == "*" else lowered

    def _conditional(self, node: Node, context: UnitContext, depth: int) -> Expr:
        return Select(
            self.lower(node.child_by_field_name("condition"), context, depth + 1),
            self.lower(node.child_by_field_name("consequence"), context, depth + 1),
            self.lower(node.child_by_field_name("alternative"), context, depth + 1),
        )

    def _initializer(self, node: Node, context: UnitContext, depth: int) -> Expr:
        """`T x(v);`, `T x{v};`: a direct initialisation with one value is that value (a constructor
        call of several is an unknown operation on them)."""
        values = named(node)
        if len(values) == 1:
            return self.lower(values[0], context, depth + 1)
        return Call("?", tuple(self.lower(child, context, depth + 1) for child in values))

    def _declaration(self, node: Node, context: UnitContext, depth: int) -> Expr:
        """`if (auto x = f(); …)`, `while (T x = …)`: the variable declared."""
        declarator = next(iter(node.children_by_field_name("declarator")), None)
        declared, _r, _a = declared_name(declarator)
        return Var(Local(declared, node.start_byte)) if declared else Uniform()

    # -- helpers ----------------------------------------------------------------------------------

    def _slower_dimension(self, call: Node, context: UnitContext) -> bool:
        """`item.get_local_id(0)` of an `nd_item<2>`: not the last (fastest-varying) dimension, along
        which consecutive work-items, and so the lanes of a sub-group, lie."""
        receiver, _name, args = self.scopes.parts(call)
        if receiver is None or receiver.type != "identifier" or len(args) != 1:
            return False
        dimension = parse_int_literal(text_of(args[0]))
        dims = self.scopes.lookup_dims(context, text_of(receiver))
        return dimension is not None and dims is not None and dimension < dims - 1


Handler = Callable[[ExpressionLowering, Node, UnitContext, int], Expr]


def _value_of(field: str) -> Handler:
    """A handler for a node whose value is that of one of its fields (`x++`: x; `a = b`: b)."""

    def handler(lowering: ExpressionLowering, node: Node, context: UnitContext, depth: int) -> Expr:
        return lowering.lower(node.child_by_field_name(field), context, depth + 1)

    return handler


def _is_small_constant_site(node: Node) -> bool:
    """Constants are evaluated only where their value shapes a lane estimate: a modulus, a mask or
    its complement, the value compared against (`i % WG == 0`, `lid & MASK`, `lid & ~MASK`, `lid <
    VALID`: whether the bound falls inside a group), or a divisor that may group ids by sub-group
    (`lid / WARP`, `lid >> LOG_WARP`)."""
    parent = node.parent
    if (
        parent is not None
        and parent.type == "unary_expression"
        and text_of(parent.child_by_field_name("operator")) == "~"
    ):
        parent = parent.parent  # `lid & ~WARP_MASK`: the mask is the complement of the constant
    if parent is None or parent.type != "binary_expression":
        return False
    operator = parent.child_by_field_name("operator")
    if operator is not None and operator.type in ("/", ">>"):
        right = parent.child_by_field_name("right")
        return right is not None and key_of(right) == key_of(node)
    return operator is not None and operator.type in ("%", "&", "==", "!=", "<", "<=", ">", ">=")


_HANDLERS: dict[str, Handler] = {
    "parenthesized_expression": ExpressionLowering._parenthesized,
    "condition_clause": ExpressionLowering._parenthesized,
    "identifier": ExpressionLowering._identifier,
    "number_literal": ExpressionLowering._number,
    **dict.fromkeys(_LITERAL_VALUES, ExpressionLowering._literal),
    **dict.fromkeys(_UNIFORM_NODES, ExpressionLowering._uniform),
    "field_expression": ExpressionLowering._field,
    "subscript_expression": ExpressionLowering._subscript,
    "call_expression": ExpressionLowering._call,
    "binary_expression": ExpressionLowering._binary,
    "unary_expression": ExpressionLowering._unary,
    "pointer_expression": ExpressionLowering._pointer,
    "update_expression": _value_of("argument"),  # x++: x
    "assignment_expression": _value_of("right"),
    "conditional_expression": ExpressionLowering._conditional,
    "cast_expression": _value_of("value"),
    "comma_expression": _value_of("right"),
    "declaration": ExpressionLowering._declaration,
    "argument_list": ExpressionLowering._initializer,
    "initializer_list": ExpressionLowering._initializer,
}
