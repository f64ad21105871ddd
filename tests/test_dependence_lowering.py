"""The lowering of C++ device expressions to the dependence core (`cpp.dependence.lowering`), one
handler per node type, and the typed names of the program's variables (`kernlint.analysis.names`)."""

from __future__ import annotations

import pytest

from kernlint.analysis.dependence import Binary, Call, Const, Expr, Load, Seed, Select, Unary, Uniform, Var
from kernlint.analysis.names import DefinitionKey, Local, VariantKey, definition_of, plain_name
from kernlint.analysis.reaching import BARRIER, ENTRY, source_order
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.dependence import lowering
from kernlint.frontends.cpp.dependence.context import UnitContext, UnitSource
from kernlint.frontends.cpp.dependence.lowering import ExpressionLowering
from kernlint.frontends.cpp.dependence.nodes import Node, key_of
from kernlint.frontends.cpp.dependence.scopes import Scopes

KERNEL = "auto k = [=](sycl::nd_item<1> it, int *p) {{ {body}; }};"


def test_every_handled_node_type_is_one_the_grammar_has() -> None:
    """A misspelt type in the table would never match, and its nodes would silently become unknown calls."""
    language = treesitter.language("cpp")
    unknown = [kind for kind in lowering._HANDLERS if language.id_for_node_kind(kind, True) is None]
    assert unknown == []


def _lowered(body: str) -> tuple[Expr, int]:
    """The lowering of the expression statement `body` in a kernel lambda whose `it` is its nd_item and
    where the file constant `WG` is 16; and the byte offset at which `body` starts."""
    source = KERNEL.format(body=body).encode()
    tree = treesitter.parser("cpp").parse(source)
    stack: list[Node] = [tree.root_node]
    found: dict[str, Node] = {}
    while stack:
        node = stack.pop()
        found.setdefault(node.type, node)
        stack.extend(node.named_children)
    lam, statement = found["lambda_expression"], found["expression_statement"]
    unit = UnitSource(key_of(lam), lam, None, {})
    context = UnitContext(unit, handles={"it": "item"}, params=[("it", False), ("p", False)])
    scopes = Scopes({unit.key: context}, lambda _call: [], lambda name, _at: {"WG": 16}.get(name))
    expression = statement.named_children[0]
    return ExpressionLowering(scopes).lower(expression, context), expression.start_byte


@pytest.mark.parametrize(
    "body,expected",
    [
        ("it.get_local_id(0) + 1", Binary("+", Seed("local", "it.get_local_id(0)"), Const(1))),
        ("x % WG", Binary("%", Var("x"), Const(16))),  # a constant is evaluated where it shapes lanes
        ("x + WG", Binary("+", Var("x"), Var("WG"))),  # and read as a name elsewhere
        ("c ? x : -y", Select(Var("c"), Var("x"), Unary("-", Var("y")))),
        ("*p", Load(Var("p"))),
        ("s->f", Load(Var("s"))),
        ("s.f", Var("s")),
        ("(int) x", Var("x")),
        ("x = y", Var("y")),
        ("x++", Var("x")),
        ("(x, y)", Var("y")),
        ("true", Const(1)),
        ("nullptr", Const(0)),
        ('"text"', Const(None)),
        ("sizeof(x)", Const(None)),
        ("std::numeric_limits<int>::max", Uniform("std::numeric_limits<int>::max")),
        ("x[it]", Load(Var("x"), Seed("global", "it"))),
        ("it[0]", Seed("global", "it[0]")),
        ("int{x}", Call("?", (Call("?"), Var("x")))),  # a braced value is that value; the cast has no handler
    ],
)
def test_each_node_type_has_its_handler(body: str, expected: Expr) -> None:
    assert _lowered(body)[0] == expected


def test_a_variable_declared_in_a_condition_is_named_by_where_it_is_declared() -> None:
    source = b"auto k = [=](sycl::nd_item<1> it) { if (int v = it.get_local_id(0); v) {} };"
    tree = treesitter.parser("cpp").parse(source)
    condition = next(n for n in _walk(tree.root_node) if n.type == "condition_clause")
    declaration = next(n for n in _walk(condition) if n.type == "declaration")
    lam = next(n for n in _walk(tree.root_node) if n.type == "lambda_expression")
    unit = UnitSource(key_of(lam), lam, None, {})
    context = UnitContext(unit, handles={"it": "item"})
    lowered = ExpressionLowering(Scopes({unit.key: context}, lambda _call: [], lambda _n, _a: None)).lower(
        declaration, context
    )
    assert lowered == Var(Local("v", declaration.start_byte))


def _walk(node: Node) -> list[Node]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(reversed(current.named_children))
    return found


def test_reaching_definitions_are_listed_in_source_order() -> None:
    """A read's `Phi` lists what reaches it by position: shared memory after a barrier, the value on
    entry, then each definition where it is made (byte 998 before byte 1002, which the text of the
    string keys this replaces sorted first)."""
    x = Local("x", 40)
    early, late = DefinitionKey(x, 998, "init"), DefinitionKey(x, 1002, "assign")
    assert sorted([late, ENTRY, early, BARRIER], key=source_order) == [BARRIER, ENTRY, early, late]


def test_names_say_what_they_stand_for() -> None:
    x = Local("x", 40)
    definition = DefinitionKey(x, 52, "assign")
    variant = VariantKey(definition, ((60, 80, "if_statement"),))
    assert [definition_of(n) for n in ("x", x, definition, variant)] == [None, None, definition, definition]
    assert plain_name(x) == plain_name("x") == "x"
    assert len({Local("x", 40), Local("x", 41), "x"}) == 3  # a shadowing local is another variable
