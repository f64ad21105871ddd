"""Reaching definitions (`kernlint.analysis.reaching`), calling contexts, sub-group uniformity and
trip counts in the dependence core."""

from __future__ import annotations

from kernlint.analysis.dependence import (
    Binary,
    Broadcast,
    Call,
    Const,
    Grade,
    Phi,
    Program,
    Seed,
    SubGroupUniform,
    Uniform,
    Var,
)
from kernlint.analysis.reaching import BARRIER, ENTRY, Flow

LID = Seed("local", "it.get_local_id(0)")
GID = Seed("global", "it.get_global_id(0)")


def _dependent_grade(program: Program, unit: str, condition: str) -> Grade:
    """The grade of a condition the test expects to depend on the id (None would be uniform)."""
    grade = program.grade(unit, condition)
    assert grade is not None
    return grade


def test_a_later_definition_kills_an_earlier_one_and_branches_merge() -> None:
    flow = Flow()
    flow.define("k", "k1")
    saved = flow.fork()
    flow.define("k", "k2")  # if (c) k = lid % 3;
    flow.merge(saved)
    assert flow.use("k", "after-if") == {"k1", "k2"}
    flow.define("k", "k3")  # for (k = 0; …)
    assert flow.use("k", "loop") == {"k3"}


def test_loops_iterate_to_a_fixed_point_and_jumps_leave() -> None:
    flow = Flow()
    flow.define("i", "start")

    def body() -> None:
        flow.use("i", "in-body")
        flow.define("i", "step")

    def loop_test() -> None:
        flow.use("i", "test")

    flow.loop(body, loop_test)
    assert flow.uses["test"] == {"start", "step"}
    assert flow.uses["in-body"] == {"start", "step"}
    assert flow.use("i", "after") == {"start", "step"}

    def breaking_body() -> None:
        flow.define("j", "inside")
        flow.jump("break")

    flow.loop(breaking_body, None)
    assert flow.use("j", "after-break") == {"inside"}
    assert flow.use("never", "x") == {ENTRY}


def test_a_barrier_publishes_shared_memory() -> None:
    flow = Flow(shared={"next"})
    flow.define("next", "leader-store")
    assert flow.use("next", "before") == {"leader-store"}
    flow.barrier()
    assert flow.use("next", "after") == {BARRIER}


def test_helpers_are_analysed_per_calling_context() -> None:
    program = Program()
    helper = program.unit("mix", params=("v",))
    helper.give_return(Binary("%", Binary("*", Var("v"), Const(7)), Const(5)))
    kernel = program.unit("k")
    kernel.assign("lid", LID)
    kernel.assign("mine", Call("mix", (Var("lid"),), unit="mix"))
    kernel.assign("shared", Call("mix", (Var("mode"),), unit="mix"))
    kernel.condition("c1", Binary("==", Var("mine"), Const(0)))
    kernel.condition("c2", Binary("==", Var("shared"), Const(0)))
    program.solve()
    assert _dependent_grade(program, "k", "c1").strong
    assert program.grade("k", "c2") is None


def test_sub_group_level_values() -> None:
    program = Program()
    kernel = program.unit("k")
    kernel.assign("lid", LID)
    kernel.assign("warp", Binary("/", Var("lid"), Const(32)))
    kernel.assign("first", Broadcast(Var("lid"), Const(0), "sub-group"))
    kernel.assign("vote", SubGroupUniform("any_of_group(sg, …)"))
    kernel.assign("leader", Broadcast(Var("lid"), None, "work-group"))
    kernel.assign("shuffled", Broadcast(Var("x"), Var("lid"), "sub-group"))
    for name in ("warp", "first", "vote"):
        kernel.condition(name, Binary("==", Binary("%", Var(name), Const(2)), Const(0)))
    kernel.condition("leader", Binary(">", Var("leader"), Const(0)))
    kernel.condition("shuffled", Binary(">", Var("shuffled"), Const(0)))
    kernel.condition("half", Binary("==", Binary("%", Binary("/", Var("lid"), Const(16)), Const(2)), Const(0)))
    program.solve()
    for name in ("warp", "first", "vote"):
        assert _dependent_grade(program, "k", name).dependence == "sub-group"
    assert program.grade("k", "leader") is None
    assert _dependent_grade(program, "k", "shuffled").strong
    assert _dependent_grade(program, "k", "half").strong  # blocks of 16 split a sub-group of 32


def test_strided_loops_over_a_padded_bound_have_a_uniform_trip_count() -> None:
    program = Program()
    kernel = program.unit("k")
    kernel.assign("stride", Binary("*", Uniform("it.get_local_range(0)"), Uniform("it.get_group_range(0)")))
    kernel.assign("padded", Binary("*", Binary("/", Var("n"), Var("stride")), Var("stride")))
    kernel.assign("i@0", GID)
    kernel.assign("i@1", Binary("+", Phi((Var("i@0"), Var("i@1"))), Var("stride")))
    index = Phi((Var("i@0"), Var("i@1")))
    kernel.condition("padded", Binary("<", index, Var("padded")), loop_varying=("i@1",), kind="loop")
    kernel.condition("raw", Binary("<", index, Var("n")), loop_varying=("i@1",), kind="loop")
    kernel.assign("j@0", LID)
    kernel.assign("j@1", Binary("+", Phi((Var("j@0"), Var("j@1"))), Const(4)))
    kernel.condition(
        "small-step", Binary("<", Phi((Var("j@0"), Var("j@1"))), Binary("*", Var("n"), Const(4))), kind="loop"
    )
    program.solve()
    assert program.grade("k", "padded") is None
    assert program.grade("k", "raw") is not None
    assert program.grade("k", "small-step") is not None  # a step of 4 does not cover the local ids
