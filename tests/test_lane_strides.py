"""The lane-stride pass (`kernlint.analysis.strides`) on hand-built dependence programs: the form of an
index in the lane, and what it is called."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernlint.analysis import dependence as dep
from kernlint.analysis.names import Name
from kernlint.analysis.strides import ONE, LaneForm, Poly, SeedRole, StrideSource, classify, lane_form

GID = dep.Seed("global", "it.get_global_id(0)")
ROW = dep.Seed("global", "it.get_global_id(0)", shared=True)


class _Source:
    """A `StrideSource` over one unit of a solved program; `Seed.shared` marks the slower id (a row)."""

    def __init__(self, program: dep.Program, unit: str = "k", constants: dict[str, int] | None = None) -> None:
        self.program = program
        self.unit = unit
        self.constants = constants or {}
        self.passed: dict[Name, list[tuple[dep.Expr, StrideSource]]] = {}
        self.macros: dict[str, dep.Expr] = {}

    def taint(self, expr: dep.Expr) -> dep.Taint | None:
        return self.program.taint(self.unit, expr)

    def definition(self, name: Name) -> dep.Expr | None:
        return self.program.definition(self.unit, name)

    def constant(self, name: Name) -> int | None:
        return self.constants.get(name) if isinstance(name, str) else None

    def seed_role(self, seed: dep.Seed, dimension: int | None) -> SeedRole | None:
        return "uniform" if seed.shared else "lane"

    def arguments(self, name: Name) -> list[tuple[dep.Expr, StrideSource]] | None:
        return self.passed.get(name)

    def inline(self, call: dep.Call) -> dep.Expr | None:
        return self.macros.get(call.name)


def _form(assignments: dict[str, dep.Expr], index: dep.Expr, **kw: object) -> LaneForm | None:
    program = dep.Program()
    unit = program.unit("k")
    for name, value in assignments.items():
        unit.assign(name, value)
    program.solve()
    return lane_form(index, _Source(program, **kw))  # type: ignore[arg-type]


def _b(op: str, left: dep.Expr, right: dep.Expr) -> dep.Binary:
    return dep.Binary(op, left, right)


V = dep.Var
C = dep.Const


def test_unit_constant_and_uniform_strides() -> None:
    unit = _form({"i": GID}, V("i"))
    assert unit is not None and unit.lane == ONE
    four = _form({"i": GID}, _b("+", _b("*", V("i"), C(4)), C(3)))
    assert four is not None and four.lane.value == 4 and four.uniform.value == 3
    broadcast = _form({"i": GID}, _b("*", V("k"), C(2)))
    assert broadcast is not None and broadcast.lane.zero
    assert classify(broadcast) is not None and classify(broadcast).form == "uniform"  # type: ignore[union-attr]


def test_a_row_pitch_is_a_symbol_and_a_bare_symbolic_stride_is_not_named() -> None:
    walk = _form({"i": GID}, _b("+", _b("*", V("i"), V("n")), V("k")))
    assert walk is not None and walk.lane == Poly.symbol("n")
    named = classify(walk, lambda name: name == "k")
    assert named is not None and (named.form, named.symbol, named.counter) == ("row-pitch", "n", "k")
    bare = _form({"i": GID}, _b("*", V("i"), V("incx")))
    assert bare is not None and classify(bare) is None  # `x[i * incx]`: incx may be 1


def test_a_chunk_is_a_constant_stride_walked_by_a_loop_counter() -> None:
    found = _form({"i": GID}, _b("+", _b("*", V("i"), V("CH")), V("k")), constants={"CH": 8})
    assert found is not None
    named = classify(found, lambda name: name == "k")
    assert named is not None and (named.form, named.counter) == ("chunk", "k") and named.elements == 8
    constant = classify(found)  # no loop around it: a constant stride
    assert constant is not None and constant.form == "constant"


def test_slower_ids_are_uniform_and_rows_are_kept_apart() -> None:
    found = _form({"r": ROW, "c": GID}, _b("+", _b("*", V("r"), V("w")), V("c")))
    assert found is not None and found.lane == ONE and found.row.zero
    transposed = _form({"r": ROW, "c": GID}, _b("+", _b("*", V("c"), V("h")), V("r")))
    assert transposed is not None and transposed.lane == Poly.symbol("h")


def test_gathers_products_of_ids_and_wrapping_remainders_are_unknown() -> None:
    assert _form({"i": GID}, dep.Load(V("idx"), V("i"))) is None
    assert _form({"i": GID}, _b("*", V("i"), V("i"))) is None
    assert _form({"i": GID}, _b("%", _b("*", V("i"), C(7)), C(64))) is None
    kept = _form({"i": GID}, _b("%", V("i"), C(64)))
    assert kept is not None and kept.lane == ONE  # consecutive in every (aligned) sub-group
    assert _form({"i": GID}, _b("%", V("i"), C(4))) is None


def test_rows_of_lanes_sharing_an_element_have_no_symbolic_stride() -> None:
    found = _form({"i": GID}, _b("+", _b("*", _b("/", V("i"), C(16)), V("w")), C(1)))
    assert found is not None and found.lane == Poly.symbol("w").scale(Fraction(1, 16))
    assert classify(found) is None


def test_a_quotient_shares_elements_between_lanes() -> None:
    found = _form({"i": GID}, _b("/", V("i"), C(2)))
    assert found is not None and found.lane.value == Fraction(1, 2)
    named = classify(found)
    assert named is not None and named.form == "unit"


def test_a_grid_stride_loop_index_keeps_the_lane() -> None:
    program = dep.Program()
    unit = program.unit("k")
    start = ("i", 1)
    step = ("i", 2)
    unit.assign(start, GID)  # type: ignore[arg-type]
    unit.assign(step, _b("+", dep.Phi((V(start), V(step))), V("stride")))  # type: ignore[arg-type]
    program.solve()
    found = lane_form(_b("*", dep.Phi((V(start), V(step))), C(2)), _Source(program))  # type: ignore[arg-type]
    assert found is not None and found.lane.value == 2


def test_parameters_take_the_callers_arguments_and_calls_are_inlined() -> None:
    program = dep.Program()
    caller_unit = program.unit("caller")
    caller_unit.assign("g", GID)
    program.unit("k", params=("x",))
    caller_unit.bind_call("k", [_b("*", V("g"), C(3))])
    program.solve()
    source = _Source(program)
    caller = _Source(program, "caller")
    source.passed["x"] = [(_b("*", V("g"), C(3)), caller)]
    found = lane_form(V("x"), source)
    assert found is not None and found.lane.value == 3
    source.macros["IDX"] = _b("+", _b("*", V("x"), V("n")), C(1))
    inlined = lane_form(dep.Call("IDX", (V("x"),)), source)
    assert inlined is not None and inlined.lane == Poly.symbol("n").scale(Fraction(3))


@pytest.mark.parametrize(("poly", "text"), [(Poly.symbol("n"), "n"), (Poly.symbol("n") + ONE, "n + 1")])
def test_strides_are_written_as_the_source_would(poly: Poly, text: str) -> None:
    assert poly.text() == text


def test_the_constant_term_is_split_from_the_rest_of_an_index() -> None:
    from kernlint.analysis.strides import constant_apart

    even = LaneForm(lane=Poly.constant(2), uniform=Poly.symbol("base"))
    odd = LaneForm(lane=Poly.constant(2), uniform=Poly.symbol("base") + Poly.constant(1))
    (even_shape, even_at), (odd_shape, odd_at) = constant_apart(even), constant_apart(odd)
    assert even_shape == odd_shape and (even_at, odd_at) == (Fraction(0), Fraction(1))
    other = LaneForm(lane=Poly.constant(2), uniform=Poly.symbol("other") + Poly.constant(1))
    assert constant_apart(other)[0] != odd_shape
