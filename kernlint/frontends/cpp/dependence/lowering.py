"""C++ expressions of device code lowered to the dependence core's expressions: ids, uniform and
sub-group-uniform values, loads, calls into other units. A mixin of `CppDependence`, which provides
the unit contexts, handle lookups and variable keys it reads."""

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
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.nodes import (
    Key,
    Node,
    declared_name,
    is_template_call,
    key_of,
    named,
    text_of,
)
from kernlint.frontends.cpp.dependence.sycl_calls import (
    BINARY_OPS,
    UNARY_OPS,
    lower_call,
)

_MAX_DEPTH = 120  # expression nesting lowered; deeper parts count as uniform (never guessed dependent)


class ExpressionLowering:
    """`_lower` and its helpers. The members below are `CppDependence`'s."""

    _contexts: dict[Key, UnitContext]
    _resolve: Callable[[Node], list[Key]]

    def parts(self, call: Node) -> tuple[Node | None, str, list[Node]]:
        raise NotImplementedError

    def _constant(self, name: str, at_byte: int, unit: Key | None = None) -> int | None:
        raise NotImplementedError

    def _handle(self, node: Node, context: UnitContext | None) -> str | None:
        raise NotImplementedError

    def _lookup_handle(self, context: UnitContext | None, name: str) -> str | None:
        raise NotImplementedError

    def _own(self, context: UnitContext, key: str) -> bool:
        raise NotImplementedError

    def _variable(self, context: UnitContext, name: str, at_byte: int) -> str:
        raise NotImplementedError

    def _lower(self, node: Node | None, context: UnitContext, depth: int = 0) -> Expr:
        if node is None or depth > _MAX_DEPTH:
            return Uniform()
        lower = lambda n: self._lower(n, context, depth + 1)  # noqa: E731
        kind = node.type
        if kind in ("parenthesized_expression", "condition_clause"):
            inner = node.child_by_field_name("value") if kind == "condition_clause" else None
            inner = inner or next(iter(named(node)), None)
            return lower(inner) if inner is not None else Uniform()
        if kind == "identifier":
            name = text_of(node)
            handle = self._lookup_handle(context, name)
            if handle == "item":
                return Seed("global", name)
            if handle is not None:
                return Uniform(name)
            key = self._variable(context, name, node.start_byte)
            if (
                context.flow is not None
                and context.flow.covers(node)
                and (self._own(context, key) or key in context.stores)
            ):
                return context.flow.read(node, key)
            if key == name and not any(p[0] == name for p in context.params) and self._is_small_constant_site(node):
                value = self._constant(name, node.start_byte, context.source.key)
                if value is not None:
                    return Const(value)
            return Var(key)
        if kind == "number_literal":
            return Const(parse_int_literal(text_of(node)))
        if kind in (
            "true",
            "false",
            "null",
            "nullptr",
            "char_literal",
            "string_literal",
            "sizeof_expression",
            "alignof_expression",
            "concatenated_string",
            "raw_string_literal",
            "user_defined_literal",
        ):
            return Const(1 if kind == "true" else 0 if kind in ("false", "null", "nullptr") else None)
        if kind in (
            "qualified_identifier",
            "this",
            "lambda_expression",
            "template_function",
            "new_expression",
            "delete_expression",
            "offsetof_expression",
        ):
            return Uniform(text_of(node))
        if kind == "field_expression":
            base = node.child_by_field_name("argument")
            if base is not None and self._handle(base, context) is not None:
                return Uniform(text_of(node))
            operator = node.child_by_field_name("operator")
            lowered = lower(base)
            return Load(lowered) if operator is not None and operator.type == "->" else lowered
        if kind == "subscript_expression":
            base = node.child_by_field_name("argument")
            index = next(iter(named(node.child_by_field_name("indices"))), None)
            if base is not None and self._handle(base, context) == "item":
                return Seed("global", text_of(node))
            lowered = lower(base)
            if isinstance(lowered, Seed) or (
                base is not None and base.type == "identifier" and text_of(base) in context.id_like
            ):
                return Component(lowered, lower(index))
            return Load(lowered, lower(index))
        if kind in ("call_expression",):
            return self._lower_call(node, context, depth)
        if kind == "binary_expression":
            if is_template_call(node):
                return self._lower_call(node, context, depth)
            operator = node.child_by_field_name("operator")
            op = operator.type if operator is not None else "?"
            op = BINARY_OPS.get(op, op)
            return Binary(op, lower(node.child_by_field_name("left")), lower(node.child_by_field_name("right")))
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            op = operator.type if operator is not None else "?"
            return Unary(UNARY_OPS.get(op, op), lower(node.child_by_field_name("argument")))
        if kind == "pointer_expression":
            operator = node.child_by_field_name("operator")
            lowered = lower(node.child_by_field_name("argument"))
            return Load(lowered) if operator is not None and operator.type == "*" else lowered
        if kind == "update_expression":
            return lower(node.child_by_field_name("argument"))
        if kind == "assignment_expression":
            return lower(node.child_by_field_name("right"))
        if kind == "conditional_expression":
            return Select(
                lower(node.child_by_field_name("condition")),
                lower(node.child_by_field_name("consequence")),
                lower(node.child_by_field_name("alternative")),
            )
        if kind == "cast_expression":
            return lower(node.child_by_field_name("value"))
        if kind == "comma_expression":
            return lower(node.child_by_field_name("right"))
        if kind == "declaration":  # if (auto x = f(); …) / while (T x = …)
            declarator = next(iter(node.children_by_field_name("declarator")), None)
            declared, _r, _a = declared_name(declarator)
            return Var(f"{declared}@{node.start_byte}") if declared else Uniform()
        return Call("?", tuple(lower(child) for child in named(node)))

    def _is_small_constant_site(self, node: Node) -> bool:
        """Constants are evaluated only where their value shapes a lane estimate: a modulus, a mask,
        the value compared against (`i % WG == 0`, `lid & MASK`), or a divisor that may group ids by
        sub-group (`lid / WARP`, `lid >> LOG_WARP`)."""
        parent = node.parent
        if parent is None or parent.type != "binary_expression":
            return False
        operator = parent.child_by_field_name("operator")
        if operator is not None and operator.type in ("/", ">>"):
            right = parent.child_by_field_name("right")
            return right is not None and key_of(right) == key_of(node)
        return operator is not None and operator.type in ("%", "&", "==", "!=")

    def _lower_call(self, node: Node, context: UnitContext, depth: int) -> Expr:
        units = [k for k in self._resolve(node) if k in self._contexts]
        lowered = lower_call(
            node,
            self.parts(node),
            lambda n: self._handle(n, context),
            lambda n: self._lower(n, context, depth + 1),
            units,
        )
        if isinstance(lowered, Seed) and lowered.scope != "lane" and self._slower_dimension(node, context):
            return Seed(lowered.scope, lowered.text, shared=True)
        return lowered

    def _slower_dimension(self, call: Node, context: UnitContext) -> bool:
        """`item.get_local_id(0)` of an `nd_item<2>`: not the last (fastest-varying) dimension, along
        which consecutive work-items, and so the lanes of a sub-group, lie."""
        receiver, _name, args = self.parts(call)
        if receiver is None or receiver.type != "identifier" or len(args) != 1:
            return False
        dimension = parse_int_literal(text_of(args[0]))
        dims = self._lookup_dims(context, text_of(receiver))
        return dimension is not None and dims is not None and dimension < dims - 1

    def _lookup_dims(self, context: UnitContext | None, name: str) -> int | None:
        depth = 0
        while context is not None and depth < 16:
            if name in context.handles:
                return context.dims.get(name)
            parent = context.source.parent
            context = self._contexts.get(parent) if parent is not None else None
            depth += 1
        return None
