"""Work-item dependence: the language-neutral core (`kernlint.analysis.dependence`) through its API,
and the SYCL C++ lowering (`cpp_dependence`, `cpp_device`) through the facts it produces."""

from __future__ import annotations

import textwrap

import pytest

from kernlint.analysis.dependence import (
    Binary,
    Call,
    Component,
    Const,
    Expr,
    Grade,
    Load,
    Program,
    Seed,
    Select,
    Unary,
    Uniform,
    Var,
    Varying,
)
from kernlint.frontends.cpp.frontend import extract

LID = Seed("local", "it.get_local_id(0)")
LANE = Seed("lane", "sg.get_local_id()")


def solved(build) -> Program:
    program = Program()
    build(program)
    program.solve()
    return program


def kind_of(program: Program, unit: str, expr: Expr) -> str | None:
    """The taint kind of `expr` in `unit`; None when it stays uniform."""
    taint = program.taint(unit, expr)
    return taint.kind if taint else None


def graded(program: Program, unit: str, condition: str) -> Grade:
    """The grade of a condition the test expects to depend on the work-item."""
    grade = program.grade(unit, condition)
    assert grade is not None, f"{condition} in {unit} is graded uniform"
    return grade


# -- the core: propagation ----------------------------------------------------------------------


def test_ids_flow_through_assignments_arithmetic_and_reassignment() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("lid", LID)
        k.assign("pos", Binary("+", Binary("*", Var("group"), Const(256)), Var("lid")))
        k.assign("x", Const(0))
        k.assign("x", Var("pos"))  # a later reassignment from the id makes x dependent
        k.assign("n2", Binary("*", Var("n"), Const(2)))

    p = solved(build)
    assert kind_of(p, "k", Var("pos")) == "id"
    assert kind_of(p, "k", Var("x")) == "id"
    assert p.taint("k", Var("n2")) is None  # kernel arguments and constants stay uniform
    assert p.taint("k", Uniform("it.get_group(0)")) is None


def test_loads_indexed_by_the_id_are_data_and_constant_indices_are_not() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("i", Seed("global", "it.get_global_id(0)"))
        k.assign("v", Load(Var("data"), Var("i")))
        k.assign("first", Load(Var("data"), Const(0)))
        k.assign("gid", Component(Seed("global", "it.get_global_id()"), Const(0)))

    p = solved(build)
    assert kind_of(p, "k", Var("v")) == "data"
    assert p.taint("k", Var("first")) is None
    assert kind_of(p, "k", Var("gid")) == "id"
    assert kind_of(p, "k", Varying("ref.fetch_add(1)")) == "data"


def test_non_monotone_arithmetic_is_mixed_and_monotone_calls_keep_ids() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("i", Seed("global", "i"))
        k.assign("odd", Binary("%", Var("i"), Const(2)))
        k.assign("square", Binary("*", Var("i"), Var("i")))
        k.assign("clamped", Call("min", (Var("i"), Var("n")), monotone=True))
        k.assign("root", Call("sqrt", (Var("i"),)))

    p = solved(build)
    assert kind_of(p, "k", Var("odd")) == "mixed"
    assert kind_of(p, "k", Var("square")) == "mixed"
    assert kind_of(p, "k", Var("clamped")) == "id"
    assert kind_of(p, "k", Var("root")) == "mixed"


def test_calls_bind_parameters_return_values_and_reference_outputs() -> None:
    def build(p: Program) -> None:
        helper = p.unit("helper", params=("idx", "mode", "out"))
        helper.give_return(Binary("+", Var("idx"), Const(1)))
        helper.assign("out", Load(Var("table"), Var("idx")))
        helper.condition("c", Binary("==", Var("mode"), Const(2)))
        kernel = p.unit("k")
        kernel.assign("i", Seed("global", "it.get_global_id(0)"))
        kernel.bind_call("helper", (Var("i"), Var("m"), Var("result")), outputs=((2, "result"),))
        kernel.assign("next", Call("helper", (Var("i"), Var("m"), Var("result")), unit="helper"))

    p = solved(build)
    assert kind_of(p, "helper", Var("idx")) == "id"
    assert p.taint("helper", Var("mode")) is None
    assert p.grade("helper", "c") is None
    assert kind_of(p, "k", Var("next")) == "id"
    assert kind_of(p, "k", Var("result")) == "data"


def test_control_dependence_turns_guarded_assignments_into_flags_with_the_guard_grade() -> None:
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("lid", LID)
        k.condition("leader", Binary("==", Var("lid"), Const(0)))
        k.assign("is_leader", Const(1), guards=("leader",))
        k.condition("use", Var("is_leader"))
        k.condition("uniform", Binary("<", Var("n"), Const(4)))
        k.assign("small", Const(1), guards=("uniform",))
        k.condition("use_small", Var("small"))

    p = solved(build)
    grade = graded(p, "k", "use")
    assert (grade.dependence, grade.reason, grade.lanes and grade.lanes.kind) == ("boundary", "leader", "single")
    assert p.grade("k", "use_small") is None


def test_nested_units_read_their_parents_variables() -> None:
    def build(p: Program) -> None:
        kernel = p.unit("k")
        kernel.assign("lid", LID)
        lam = p.unit("lambda", params=("s",), parent="k")
        lam.condition("c", Binary("%", Var("lid"), Const(2)))

    assert graded(solved(build), "lambda", "c").reason == "parity"


# -- the core: grading --------------------------------------------------------------------------


def grade(expr, loop_varying=(), floors=None, kind="if", setup=None):
    def build(p: Program) -> None:
        k = p.unit("k")
        k.assign("lid", LID)
        k.assign("gid", Seed("global", "it.get_global_id(0)"))
        k.assign("lane", LANE)
        k.assign("v", Load(Var("data"), Var("gid")))
        if setup:
            setup(k)
        k.condition("c", expr, loop_varying=loop_varying, kind=kind, floors=floors)

    return solved(build).grade("k", "c")


@pytest.mark.parametrize(
    "expr,reason,lanes,taken",
    [
        (Binary("==", Binary("%", Var("lid"), Const(2)), Const(0)), "parity", "split", 0.5),
        (Binary("%", Var("gid"), Const(2)), "parity", "split", 0.5),
        (Unary("!", Binary("%", Var("gid"), Const(2))), "parity", "split", 0.5),
        (Binary("==", Binary("%", Var("gid"), Const(4)), Const(1)), "modulo", "fraction", 0.25),
        (Binary("!=", Binary("%", Var("gid"), Const(4)), Const(0)), "modulo", "fraction", 0.75),
        (Binary("&", Var("lane"), Const(1)), "bit-test", "split", 0.5),
        (Binary(">", Var("lane"), Const(7)), "lane-range", "split", None),
    ],
)
def test_strong_patterns_and_their_lane_estimates(expr, reason, lanes, taken) -> None:
    g = grade(expr)
    assert (g.dependence, g.reason, g.lanes.kind, g.lanes.taken) == ("strong", reason, lanes, taken)


def test_tree_reduction_step_is_strong_unless_the_bound_stays_a_multiple_of_the_sub_group() -> None:
    step = Binary("<", Var("lid"), Var("s"))
    g = grade(step, loop_varying={"s"})
    assert (g.dependence, g.reason, g.lanes.kind) == ("strong", "loop-bound", "shrinking")
    aligned = grade(step, loop_varying={"s"}, floors={"s": 32})
    assert (aligned.dependence, aligned.reason) == ("boundary", "sub-group-aligned")
    assert grade(step, loop_varying={"s"}, floors={"s": 8}).dependence == "strong"
    # the same comparison with a bound fixed for the whole loop is a tail guard
    assert grade(step).reason == "tail-guard"


def test_tests_on_id_indexed_data_are_strong() -> None:
    g = grade(Binary(">", Var("v"), Const(0)))
    assert (g.dependence, g.reason, g.lanes) == ("strong", "data", None)


@pytest.mark.parametrize(
    "expr,reason,lanes",
    [
        (Binary("<", Var("gid"), Var("n")), "tail-guard", "edge"),
        (Binary("==", Var("lid"), Const(0)), "leader", "single"),
        (Unary("!", Var("lid")), "leader", "single"),
        (Binary("!=", Var("lid"), Const(0)), "all-but-one", "all-but-one"),
        (
            Binary("&&", Binary(">", Var("gid"), Const(0)), Binary("<", Var("gid"), Binary("-", Var("n"), Const(1)))),
            "range",
            "edge",
        ),
        (Binary("==", Var("lane"), Const(0)), "leader", "single"),
    ],
)
def test_boundary_conditions(expr, reason, lanes) -> None:
    g = grade(expr)
    assert (g.dependence, g.reason, g.lanes.kind) == ("boundary", reason, lanes)


def test_uniform_conditions_have_no_grade() -> None:
    assert grade(Binary("==", Uniform("it.get_group(0)"), Const(0))) is None
    assert grade(Binary("<", Var("n"), Const(4)), loop_varying={"n"}) is None
    assert grade(Var("flag")) is None


def test_a_strong_operand_makes_a_logical_combination_strong() -> None:
    g = grade(Binary("&&", Binary("<", Var("gid"), Var("n")), Binary(">", Var("v"), Const(0))))
    assert (g.dependence, g.reason) == ("strong", "data")


def test_switch_is_graded_as_a_multi_way_split() -> None:
    g = grade(Binary("%", Var("lid"), Const(4)), kind="switch")
    assert (g.reason, g.lanes.kind, g.lanes.taken) == ("modulo", "fraction", 0.25)
    assert grade(Var("mode"), kind="switch") is None


def test_ternary_value_carries_its_condition() -> None:
    def setup(k) -> None:
        k.assign("pick", Select(Binary("%", Var("lid"), Const(2)), Const(1), Const(0)))

    g = grade(Var("pick"), setup=setup)
    assert g.reason == "parity"


# -- the C++ lowering -----------------------------------------------------------------------------


def branches(code: str):
    facts = extract("t.cpp", textwrap.dedent(code).encode())
    return {(b.condition.line, b.kind): b for b in facts.branches}, facts


def test_sycl_id_sources_and_uniform_queries() -> None:
    found, _ = branches("""
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            auto sg = it.get_sub_group();
            if (it.get_global_linear_id() % 2) d[0] = 1;
            if (sg.get_local_linear_id() & 1) d[1] = 1;
            if (it.get_group(0) % 2) d[2] = 1;
            if (sg.get_group_id()[0] % 2) d[3] = 1;
            if (it.get_local_range(0) % 2) d[4] = 1;
            if (sycl::reduce_over_group(it.get_group(), d[it.get_local_id(0)], sycl::plus<>()) > 0) d[5] = 1;
            if (sycl::ext::oneapi::experimental::this_sub_group().get_local_id()[0] % 2) d[6] = 1;
          });
        }
    """)
    assert {line for line, _ in found} == {5, 6, 8, 11}
    assert found[(6, "if")].origin == "sg.get_local_linear_id()"
    assert found[(8, "if")].dependence == "sub-group"  # the same in a sub-group, not across the group


@pytest.mark.parametrize("param", ["sycl::item<1> it", "sycl::id<1> it", "size_t it", "auto it"])
def test_index_parameters_of_range_launches_are_ids(param: str) -> None:
    found, _ = branches(f"""
        void f(sycl::queue &q, float *d, size_t n) {{
          q.parallel_for(sycl::range<1>(n), [=]({param}) {{
            if (it[0] % 2 == 0) d[0] = 1;
          }});
          q.parallel_for(n, [=]({param}) {{ if (it % 2) d[1] = 1; }});
        }}
    """)
    assert found[(4, "if")].reason == "parity" and found[(6, "if")].reason == "parity"


def test_shadowing_loop_counter_is_a_different_variable() -> None:
    found, _ = branches("""
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t i = it.get_global_id(0);
            for (int i = 0; i < 4; ++i) { if (i % 2) d[0] += 1; }
            if (i % 2) d[1] = 1;
          });
        }
    """)
    assert set(found) == {(6, "if")}


def test_dependence_crosses_device_functions_in_both_directions() -> None:
    found, facts = branches("""
        inline size_t lane(sycl::sub_group sg) { return sg.get_local_linear_id(); }
        inline void split(size_t v, float *d) { if (v % 4 == 0) d[v] = 0; }
        inline void load(const float *src, size_t i, float &out) { out = src[i]; }
        template <typename G> inline bool first(G g) { return g.get_local_linear_id() == 0; }
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            if (lane(it.get_sub_group()) % 2) d[0] = 1;
            split(it.get_local_id(0), d);
            split(7, d);
            float v = 0;
            load(d, it.get_global_id(0), v);
            if (v > 0) d[1] = 1;
            if (first(it.get_group())) d[2] = 1;
          });
        }
    """)
    assert found[(8, "if")].reason == "parity"
    assert found[(3, "if")].function == "split" and found[(3, "if")].reason == "modulo"
    assert found[(13, "if")].reason == "data"
    assert (found[(14, "if")].dependence, found[(14, "if")].reason) == ("boundary", "leader")
    kernel = facts.launches[0]
    assert len(kernel.regions) == 5 and kernel.regions[0] == kernel.body


def test_atomic_results_are_per_work_item_and_group_collectives_uniform() -> None:
    found, _ = branches("""
        void f(sycl::queue &q, int *counter, int *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> c(counter[0]);
            int slot = c.fetch_add(1);
            if (slot < n) d[slot] = 1;
            bool any = sycl::any_of_group(it.get_group(), d[it.get_global_id(0)] > 0);
            if (any) d[0] = 2;
          });
        }
    """)
    assert set(found) == {(6, "if")} and found[(6, "if")].reason == "data"


def test_malformed_device_code_does_not_crash() -> None:
    facts = extract(
        "t.cpp",
        b"""
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t i = it.get_global_id(0)
            if (i % 2 == ) { d[i] = ; }
            for (;;) { if (d[i] > 0 break; }
            switch (i % 3 { case 0: }
          });
        }
    """,
    )
    assert facts.syntax_errors
    assert all(b.dependence in ("strong", "boundary") for b in facts.branches)


def test_the_module_documentation_examples_hold() -> None:
    program = Program()
    kernel = program.unit("k", params=())
    kernel.assign("lid", Seed("local", "it.get_local_id(0)"))
    kernel.assign("s", Binary("/", Var("wg"), Const(2)))
    kernel.condition("c1", Binary("<", Var("lid"), Var("s")), loop_varying=frozenset({"s"}))
    body = program.unit("loop")
    body.assign("i", Seed("global", "i"))
    body.condition("c", Binary("==", Binary("%", Var("i"), Const(2)), Const(0)))
    program.solve()
    grade = graded(program, "k", "c1")
    assert (grade.dependence, grade.reason, grade.lanes and grade.lanes.kind) == ("strong", "loop-bound", "shrinking")
    assert graded(program, "loop", "c").reason == "parity"


def test_a_lambda_that_assigns_a_captured_variable_updates_the_kernel() -> None:
    found, _ = branches("""
        void f(sycl::queue &q, float *x, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            float sum = 0;
            auto body = [&](int k) { sum += x[k]; };
            body(it.get_global_id(0));
            if (sum > 0) x[0] = 1;
          });
        }
    """)
    assert found[(7, "if")].reason == "data"


# -- issue 18: what lanes share, and how a moving bound leaves them ---------------------------------


def grade_in(expr, *, group_size=None, sub_group=None, loop_varying=(), geometric=None, doubling=(), setup=None):
    """`grade`, in a unit that runs with the given work-group and sub-group sizes."""

    def build(p: Program) -> None:
        k = p.unit("k", group_size=group_size, sub_group=sub_group)
        k.assign("lid", LID)
        k.assign("gid", Seed("global", "it.get_global_id(0)"))
        if setup:
            setup(k)
        k.condition("c", expr, loop_varying=loop_varying, geometric=geometric, doubling=doubling)

    return solved(build).grade("k", "c")


def test_masks_that_clear_the_lane_bits_give_a_sub_group_s_base() -> None:
    for mask in (Unary("~", Const(31)), Const(-32), Const(0xFFFFFFE0)):
        row = Load(Var("start"), Binary("&", Var("gid"), mask))
        g = grade(Binary("<", Var("k"), row))
        assert g is not None and g.dependence == "sub-group", mask
    # `& ~15` keeps a lane bit of a 32-wide sub-group: the lanes disagree
    assert grade(Binary("<", Var("k"), Load(Var("start"), Binary("&", Var("gid"), Unary("~", Const(15)))))).strong


def test_a_quotient_by_the_work_group_size_is_the_same_in_the_work_group() -> None:
    row = Load(Var("start"), Binary("/", Var("gid"), Const(48)))
    assert grade_in(Binary("<", Var("k"), row), group_size=48) is None  # `gid / 48`: the group's number
    assert grade_in(Binary("==", Binary("/", Var("lid"), Const(48)), Const(0)), group_size=48) is None
    assert grade_in(Binary("<", Var("k"), row)).strong  # without the launch's size: a per-lane row
    # blocks of the kernel's own sub-group size (16) share a value, though not a multiple of 32
    by_16 = grade_in(Binary("<", Var("k"), Load(Var("start"), Binary("/", Var("gid"), Const(16)))), sub_group=16)
    assert by_16 is not None and by_16.dependence == "sub-group"


def test_a_halved_bound_shrinks_the_lanes_and_a_stepped_one_staggers_them() -> None:
    tree = grade_in(Binary("<", Var("lid"), Var("s")), loop_varying={"s"}, geometric={"s"})
    assert (tree.reason, tree.lanes.kind) == ("loop-bound", "shrinking")
    prefix = grade_in(Binary("<=", Var("k"), Var("lid")), loop_varying={"k"}, geometric=set())
    assert (prefix.reason, prefix.lanes.kind, prefix.id_scope) == ("loop-bound", "staggered", "local")
    # a doubling offset excludes a prefix of the lanes (a scan step): one sub-group splits, a boundary
    scan = grade_in(Binary(">=", Var("lid"), Var("d")), loop_varying={"d"}, geometric={"d"})
    assert (scan.dependence, scan.lanes.kind) == ("boundary", "edge")
    suffix = grade_in(Binary("<", Var("lid"), Binary("-", Var("n"), Var("d"))), loop_varying={"d"}, geometric={"d"})
    assert suffix.dependence == "boundary"


def test_a_doubled_bound_grows_the_lanes() -> None:
    """`lid < d` with `d *= 2` (a scan's down-sweep): the active lanes double, the mirror of a halving tree."""
    down = grade_in(Binary("<", Var("lid"), Var("d")), loop_varying={"d"}, geometric={"d"}, doubling={"d"})
    assert (down.dependence, down.reason, down.lanes.kind) == ("strong", "loop-bound", "growing")
    # only a bound whose moving names all double grows the lanes
    halved = grade_in(Binary("<", Var("lid"), Var("s")), loop_varying={"s", "d"}, geometric={"s", "d"}, doubling={"d"})
    assert halved.lanes.kind == "shrinking"


def test_a_two_dimensional_leader_is_one_lane() -> None:
    both = Binary("&&", Binary("==", Var("lid"), Const(0)), Binary("==", Var("ly"), Const(0)))
    g = grade_in(both, setup=lambda k: k.assign("ly", Seed("local", "it.get_local_id(0)", shared=True)))
    assert (g.reason, g.lanes.kind) == ("leader", "single")


def test_a_comparison_of_the_plain_id_with_a_constant_keeps_the_bound() -> None:
    g = grade(Binary(">=", Var("lid"), Const(50)))
    assert (g.reason, g.id_scope, g.bound) == ("tail-guard", "local", 50)
    g = grade(Binary("<=", Var("gid"), Const(125)))
    assert (g.id_scope, g.bound) == ("global", 126)
    assert grade(Binary("<", Binary("*", Var("gid"), Const(2)), Const(64))).id_scope is None


def test_an_outer_index_of_a_collapsed_nest_is_the_same_along_a_row() -> None:
    from kernlint.analysis.dependence import SubGroupUniform

    def straddling(k) -> None:
        k.assign("r", SubGroupUniform("r", straddle=True))

    g = grade(Binary("<", Var("k"), Load(Var("start"), Var("r"))), setup=straddling)
    assert (g.dependence, g.reason, g.lanes.kind) == ("boundary", "rows", "edge")
    aligned = grade(
        Binary("<", Var("k"), Load(Var("start"), Var("r"))), setup=lambda k: k.assign("r", SubGroupUniform("r"))
    )
    assert aligned is not None and aligned.dependence == "sub-group"
