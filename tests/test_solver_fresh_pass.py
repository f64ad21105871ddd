"""The solver remembers a condition's grade until a name it read is set again or something else it
reads grows (`Program._still_valid`), and skips an instance's confirming pass when the only growth its
last pass met was its own setting of names it had not read yet (`Program._evaluate_fresh`). Neither may
keep a stale answer: a read before the name is set, a recursive call's result or output, a lambda's
capture each still need the second pass. The taint a block's guards add is kept while nothing grows
(`Program._control`). Random programs are solved with all of these and with none (every pass run,
every grade and guard worked out afresh) and must agree."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from kernlint.analysis.dependence import Binary, Call, Const, Program, Seed, Var
from kernlint.analysis.expressions import Expr, Load, Phi, Select, Taint, Unary

GID = Seed("global", "gid")


class _Forgets(dict):
    """A table that keeps nothing: what the guards of an assignment add is worked out every time."""

    def __setitem__(self, key: object, value: object) -> None:
        return None


def _solve(build: Callable[[Program], None], skip: bool = True, remember: bool = True) -> tuple[Program, int]:
    program = Program()
    if not remember:  # every grade worked out afresh: no remembered grade (or guard's taint) can be stale
        program._still_valid = lambda instance, generation, reads: False  # type: ignore[method-assign]
        program._controls = _Forgets()
    build(program)
    passes = 0
    plain = program._evaluate

    def counted(instance):
        nonlocal passes
        passes += 1
        plain(instance)

    program._evaluate = counted  # type: ignore[method-assign]
    if not skip:
        program._evaluate_fresh = lambda instance: (counted(instance), False)[1]  # type: ignore[method-assign]
    program.solve()
    return program, passes


def _kind(program: Program, unit: str, name: str) -> str | None:
    taint = program.taint(unit, Var(name))
    return taint.kind if taint is not None else None


def test_straight_line_code_is_evaluated_once() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("a", GID)
        k.assign("b", Binary("+", Var("a"), Const(1)))

    program, passes = _solve(build)
    assert _kind(program, "k", "b") == "id"
    assert passes == 1
    assert _solve(build, skip=False)[1] == 2  # what the confirming pass cost


def test_a_name_read_before_it_is_set_gets_its_second_pass() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("a", Var("b"))  # reads b before the pass sets it
        k.assign("b", GID)
        k.condition("c", Binary("<", Var("a"), Var("n")))

    program, passes = _solve(build)
    assert _kind(program, "k", "a") == "id"
    grade = program.grade("k", "c")
    assert grade is not None and grade.dependence == "boundary"
    assert passes == 2


def test_a_compound_assignment_reads_its_own_name() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("s", Const(0))
        k.assign("t", Var("s"))
        k.assign("s", Load(Var("data"), GID), compound=True)

    program, _passes = _solve(build)
    assert _kind(program, "k", "t") == "data"


def test_a_recursive_call_reads_the_result_its_own_pass_makes() -> None:
    def build(p: Program) -> None:
        f = p.unit("f", ["x"])
        f.assign("y", Call("f", (Var("x"),), unit="f"))  # the result, read before the return below
        f.give_return(Select(Var("x"), Var("y"), GID))
        k = p.unit("k")
        k.assign("r", Call("f", (Const(0),), unit="f"))

    program, _passes = _solve(build)
    assert _kind(program, "f", "y") is not None
    assert _kind(program, "k", "r") is not None


def test_a_recursive_calls_reference_output_is_read_again() -> None:
    def build(p: Program) -> None:
        g = p.unit("g", ["q"])
        g.assign("q", GID)
        f = p.unit("f", ["x", "out"])
        f.bind_call("f", [Var("x"), Const(0)], outputs=[(1, "z")])  # its output: `out`, read before it is set
        f.bind_call("g", [Const(0)], outputs=[(0, "out")])  # sets `out`, after the read above

    program, _passes = _solve(build)
    assert _kind(program, "f", "out") == "id"
    assert _kind(program, "f", "z") == "id"


def test_a_lambda_calling_the_function_around_it_reads_the_names_the_call_seeds() -> None:
    def build(p: Program) -> None:
        p.unit("lambda", parent="outer").assign("r", Var("p"))  # the enclosing function's parameter
        p.unit("lambda").assign("s", Call("outer", (GID,), unit="outer"))  # seeds `p` after the read
        p.unit("outer", ["p"]).assign("q", Const(0))  # no result: only the seeding grows

    program, _passes = _solve(build)
    assert _kind(program, "lambda", "r") == "id"


def test_a_lambdas_remembered_grade_goes_stale_when_the_function_around_it_sets_a_name() -> None:
    def build(p: Program) -> None:
        inner = p.unit("lambda", parent="outer")
        inner.condition("c", Binary("<", Var("p"), Var("n")))  # `p`: the enclosing function's
        inner.assign("w", Const(1), guards=["c"])  # graded before `outer` is evaluated
        p.unit("outer").assign("p", GID)

    program, _passes = _solve(build)
    taint = program.taint("lambda", Var("w"))
    assert taint is not None and taint.kind == "flag"


# -- random programs: the same answers with and without the skip ---------------------------------

_NAMES = ("a", "b", "c", "d")


def _expr(rng: random.Random, units: list[str], depth: int = 0) -> Expr:
    pick = rng.randrange(9 if depth < 3 else 4)
    if pick == 0:
        return GID
    if pick == 1:
        return Const(rng.randrange(4))
    if pick in (2, 3):
        return Var(rng.choice(_NAMES))
    if pick == 4:
        return Binary(
            rng.choice(("+", "*", "%", "<", ">>", "&")), _expr(rng, units, depth + 1), _expr(rng, units, depth + 1)
        )
    if pick == 5:
        return Load(Var("mem"), _expr(rng, units, depth + 1))
    if pick == 6:
        return Phi((_expr(rng, units, depth + 1), _expr(rng, units, depth + 1)))
    if pick == 7:
        return Unary(rng.choice(("!", "-", "~")), _expr(rng, units, depth + 1))
    callee = rng.choice(units)
    return Call(callee, (_expr(rng, units, depth + 1), _expr(rng, units, depth + 1)), unit=callee)


def _random_program(seed: int) -> Callable[[Program], None]:
    rng = random.Random(seed)
    units = [f"u{i}" for i in range(rng.randrange(1, 4))]

    def build(p: Program) -> None:
        local = random.Random(seed)
        for index, key in enumerate(units):
            unit = p.unit(key, ["a", "b"] if index else [], parent="u0" if index == 2 else None)
            for step in range(local.randrange(1, 7)):
                unit.condition(f"{key}c{step}", _expr(local, units))
                guards = [f"{key}c{local.randrange(step + 1)}"] if local.random() < 0.3 else []
                unit.assign(local.choice(_NAMES), _expr(local, units), guards, compound=local.random() < 0.2)
                if local.random() < 0.2:
                    unit.give_return(_expr(local, units))
                if local.random() < 0.15:
                    callee = local.choice(units)
                    unit.bind_call(callee, [_expr(local, units), Var(local.choice(_NAMES))], outputs=[(1, "d")])

    return build


def _answers(program: Program) -> list[object]:
    found: list[object] = []
    for key, unit in sorted(program.units.items(), key=lambda item: str(item[0])):
        found.append((key, sorted((str(n), t) for n, t in unit.env.items()), unit.result))
        found += [program.grade(key, c) for c in unit.conditions]
        found += [program.taint(key, Var(n)) for n in _NAMES]
    return found


@pytest.mark.parametrize("seed", range(300))
def test_random_programs_solve_the_same_with_and_without_the_skip(seed: int) -> None:
    build = _random_program(seed)
    skipped, passes = _solve(build)
    full, full_passes = _solve(build, skip=False, remember=False)
    assert _answers(skipped) == _answers(full)
    assert passes <= full_passes


def test_the_random_programs_exercise_the_skip() -> None:
    saved = sum(_solve(_random_program(seed), skip=False)[1] - _solve(_random_program(seed))[1] for seed in range(60))
    assert saved > 0
    assert any(isinstance(t, Taint) for seed in range(20) for t in _answers(_solve(_random_program(seed))[0]))
