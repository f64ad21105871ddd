"""Lowering reads an identifier that the reaching-definitions walk saw as an own variable through the
variable the walk found (`UnitFlow.variable_at`), without asking the scopes and handles again. Over the
SYCL corpus, every such read must lower to what the full lookup gives, and the facts must not change."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.analysis.dependence import Expr
from kernlint.frontends.cpp.dependence import lowering
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.definitions import UnitFlow
from kernlint.frontends.cpp.dependence.lowering import ExpressionLowering
from kernlint.frontends.cpp.dependence.nodes import Node
from kernlint.frontends.cpp.frontend import extract

_CORPUS = sorted((Path(__file__).parent.parent / "corpus" / "sycl").glob("*.cpp"))


def _facts(path: Path) -> object:
    return extract(str(path), path.read_bytes())


def test_every_read_through_the_walk_lowers_as_the_full_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = lowering._HANDLERS["identifier"]
    taken: list[Expr] = []

    def checked(lowerer: ExpressionLowering, node: Node, context: UnitContext, depth: int) -> Expr:
        fast = handler(lowerer, node, context, depth)
        if context.flow is not None and context.flow.variable_at(node) is not None:
            with monkeypatch.context() as patch:
                patch.setattr(UnitFlow, "variable_at", lambda self, node: None)
                assert handler(lowerer, node, context, depth) == fast
            taken.append(fast)
        return fast

    monkeypatch.setitem(lowering._HANDLERS, "identifier", checked)
    for path in _CORPUS:
        _facts(path)
    assert len(taken) > 1000  # the corpus reads many own variables


@pytest.mark.parametrize("path", _CORPUS[::8], ids=lambda p: p.name)
def test_the_facts_are_those_of_the_full_lookup(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _facts(path)
    monkeypatch.setattr(UnitFlow, "variable_at", lambda self, node: None)
    assert _facts(path) == fast
