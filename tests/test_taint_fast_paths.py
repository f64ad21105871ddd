"""The solver's fast paths give what the plain forms they replace give.

`retaint` stands in for `dataclasses.replace` on `Taint`, `join` answers two arguments without its
loop, and `Evaluator.taint` dispatches on the expression's class: each is checked against the plain
form over every combination of field values, so a field added to `Taint` or a class added to `Expr`
that the fast path forgets fails here."""

from __future__ import annotations

import dataclasses
import itertools
import typing

import pytest

from kernlint.analysis import expressions
from kernlint.analysis.expressions import Grade, Taint, join, retaint
from kernlint.analysis.grading import _TAINT_OF, Evaluator


def _taints() -> list[Taint]:
    grade = Grade("boundary", "tail-guard", None, "i < n")
    found = []
    for kind, flags in itertools.product(("sub-group", "id", "flag", "mixed", "data"), range(32)):
        lane, clamped, shared, straddle, unknown = (bool(flags >> bit & 1) for bit in range(5))
        found.append(
            Taint(kind, f"o{flags}", grade if kind == "flag" else None, lane, clamped, shared, straddle, unknown)
        )
    return found


TAINTS = _taints()


def test_retaint_changes_only_the_fields_asked_and_keeps_every_other() -> None:
    # every field set to a value of its own, so that a field `retaint` forgot (a new one) shows
    odd = Taint(**{f.name: f"value of {f.name}" for f in dataclasses.fields(Taint)})  # type: ignore[arg-type]
    assert retaint(odd) == odd
    assert retaint(odd, shared=True) == dataclasses.replace(odd, shared=True)
    assert retaint(odd, unknown_block=False) == dataclasses.replace(odd, unknown_block=False)
    for taint in TAINTS:
        assert retaint(taint) == taint
        for shared, unknown in itertools.product((None, False, True), repeat=2):
            changes = {k: v for k, v in (("shared", shared), ("unknown_block", unknown)) if v is not None}
            assert retaint(taint, shared=shared, unknown_block=unknown) == dataclasses.replace(taint, **changes)  # type: ignore[arg-type]


def _join_by_loop(*taints: Taint | None) -> Taint | None:
    # join with a third, absent argument takes the loop, never the two-argument fast path
    return join(*taints, None)


@pytest.mark.parametrize("first", [None, *TAINTS[::7]])
def test_join_of_two_is_the_loops_answer(first: Taint | None) -> None:
    for second in [None, *TAINTS]:
        assert join(first, second) == _join_by_loop(first, second)
        assert join(second, first) == _join_by_loop(second, first)


def test_join_with_one_side_missing_keeps_or_clears_unknown_block_as_the_loop_does() -> None:
    shifted = Taint("id", "tid >> LG", unknown_block=True)
    assert join(shifted, None) is shifted
    assert join(None, shifted) is shifted
    plain = Taint("id", "gid")
    assert join(plain, shifted) == plain


def test_every_expression_class_has_a_taint_handler() -> None:
    classes = set(typing.get_args(expressions.Expr))
    assert classes and classes == set(_TAINT_OF)


def test_taint_dispatch_answers_as_before() -> None:
    from kernlint.analysis.expressions import Binary, Const, Load, Phi, Seed, Select, Unary, Uniform, Var

    env = {"i": Taint("id", "gid"), "d": Taint("data", "x[gid]")}
    evaluator = Evaluator(lambda name: env.get(str(name)), lambda call, args: None)
    gid = Seed("global", "gid")
    assert evaluator.taint(None) is None
    assert evaluator.taint(Const(3)) is None and evaluator.taint(Uniform("n")) is None
    assert evaluator.taint(Var("i")) == env["i"]
    assert evaluator.taint(gid) == Taint("id", "gid")
    assert evaluator.taint(Load(Var("p"), gid)) == Taint("data", "gid")
    assert evaluator.taint(Phi((Var("i"), Var("d")))) == env["d"]
    assert evaluator.taint(Unary("~", gid)) == Taint("mixed", "gid")
    assert evaluator.taint(Binary("%", gid, Const(2))) == Taint("mixed", "gid")
    flag = evaluator.taint(Select(Binary("<", gid, Var("n")), Const(1), Const(0)))
    assert flag is not None and flag.kind == "flag"
