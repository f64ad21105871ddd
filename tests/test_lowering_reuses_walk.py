"""Lowering reads an identifier that the reaching-definitions walk saw as an own variable through the
variable the walk found (`UnitFlow.variable_at`), without asking the scopes and handles again. Over the
SYCL corpus, every identifier must lower to what the full lookup gives: the handle a unit or one around
it names, else the variable the scopes find, read through its reaching definitions wherever the walk saw
a read of one the unit owns (or stores to)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.analysis.dependence import Expr, Seed, Uniform
from kernlint.frontends.cpp.dependence import lowering
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.lowering import ExpressionLowering
from kernlint.frontends.cpp.dependence.nodes import Node, key_of, text_of
from kernlint.frontends.cpp.frontend import extract

_CORPUS = sorted((Path(__file__).parent.parent / "corpus" / "sycl").glob("*.cpp"))


def _full_lookup(lowerer: ExpressionLowering, node: Node, context: UnitContext) -> Expr | None:
    """What a read of `node` lowers to when it is a handle or a variable read through the walk (None:
    neither, left to the rest of the handler)."""
    scopes, name = lowerer.scopes, text_of(node)
    handle = scopes.lookup_handle(context, name)
    if handle is not None:
        return Seed("global", name) if handle == "item" else Uniform(name)
    key = scopes.variable(context, name, node.start_byte)
    flow = context.flow
    if flow is not None and key_of(node) in flow.walk.uses and (scopes.own(context, key) or key in context.stores):
        return flow.read(node, key)
    return None


def test_every_identifier_lowers_as_the_full_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = lowering._HANDLERS["identifier"]
    through_walk = 0

    def checked(lowerer: ExpressionLowering, node: Node, context: UnitContext, depth: int) -> Expr:
        nonlocal through_walk
        found = handler(lowerer, node, context, depth)
        expected = _full_lookup(lowerer, node, context)
        if expected is not None:
            assert found == expected, text_of(node)
        through_walk += context.flow is not None and context.flow.variable_at(node) is not None
        assert (context.flow is not None and key_of(node) in context.flow.walk.uses) == (
            context.flow is not None and context.flow.variable_at(node) is not None
        )
        return found

    monkeypatch.setitem(lowering._HANDLERS, "identifier", checked)
    for path in _CORPUS:
        extract(str(path), path.read_bytes())
    assert through_walk > 1000  # the corpus reads many own variables
