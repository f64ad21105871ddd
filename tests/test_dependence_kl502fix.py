"""Two causes of false KL502 errors in warp-cooperative and bit-reversal kernels (HeCBench btree-sycl,
bitpermute-sycl): a variable passed by reference to a device function read after the call as every
definition of it anywhere in the unit; and an id shifted by an amount kernlint cannot evaluate graded
as a proven split (with a shift by a local constant not read as the constant)."""

from __future__ import annotations

import textwrap

from kernlint.analysis.dependence import Binary, Const, Load, Program, Seed, Var, join
from kernlint.analysis.expressions import Taint
from kernlint.frontends.cpp.frontend import extract

GID = Seed("global", "it.get_global_id(0)")


def _graded(build_condition) -> tuple[Program, str]:
    program = Program()
    kernel = program.unit("k")
    kernel.assign("tid", GID)
    build_condition(kernel)
    program.solve()
    return program, "k"


def _grade(condition, *assignments):
    def build(kernel) -> None:
        for name, value in assignments:
            kernel.assign(name, value)
        kernel.condition("c", condition)

    program, unit = _graded(build)
    return program.grade(unit, "c")


SHIFTED_BIT = Binary("&", Binary(">>", Var("tid"), Var("lg")), Const(1))  # (tid >> lg) & 1


def test_a_shift_by_an_amount_not_known_is_an_unknown_block_not_a_proven_split() -> None:
    grade = _grade(SHIFTED_BIT)  # `lg` never assigned: a kernel argument or a call kernlint cannot evaluate
    assert grade is not None
    assert (grade.dependence, grade.reason) == ("boundary", "unknown-block")


def test_a_shift_by_a_single_constant_definition_reads_as_the_constant() -> None:
    wide = _grade(SHIFTED_BIT, ("lg", Const(5)))  # const unsigned lg = 5: blocks of 32 ids
    narrow = _grade(SHIFTED_BIT, ("lg", Const(1)))  # blocks of 2 ids: every sub-group splits
    assert wide is not None and wide.dependence == "sub-group"
    assert narrow is not None and (narrow.dependence, narrow.reason) == ("strong", "bit-test")


def test_two_definitions_are_not_a_constant() -> None:
    grade = _grade(SHIFTED_BIT, ("lg", Const(5)), ("lg", Const(1)))
    assert grade is not None and grade.reason == "unknown-block"


def test_what_is_computed_from_unknown_blocks_alone_stays_unproven() -> None:
    loaded = Binary(">", Load(Var("table"), Binary(">>", Var("tid"), Var("lg"))), Const(0))
    grade = _grade(loaded)
    assert grade is not None and grade.reason == "unknown-block"


def test_a_part_that_surely_differs_between_lanes_makes_the_split_proven() -> None:
    mixed = Binary("&", Binary("+", Binary(">>", Var("tid"), Var("lg")), Var("tid")), Const(1))
    grade = _grade(mixed)
    assert grade is not None and grade.dependence == "strong"


def test_a_join_is_an_unknown_block_only_when_every_varying_part_is() -> None:
    block = Taint("id", "gid", shared=True, unknown_block=True)
    plain = Taint("id", "gid")
    assert join(block, None).unknown_block  # type: ignore[union-attr]
    assert not join(block, plain).unknown_block  # type: ignore[union-attr]
    assert join(block, Taint("sub-group", "sg")).unknown_block  # type: ignore[union-attr]


def _branches(code: str):
    facts = extract("t.cpp", textwrap.dedent(code).encode())
    return {b.condition.line: b for b in facts.branches}


_SLOT = """
    #include <sycl/sycl.hpp>
    inline unsigned take(unsigned *c) {{
      auto a = sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device,
                                sycl::access::address_space::global_space>(*c);
      return a.fetch_add(1u);
    }}
    inline void use(unsigned &slot, unsigned *pool, sycl::sub_group sg) {{ {callee} }}
    void kern(unsigned *count, unsigned *pool, unsigned *out, sycl::nd_item<1> it) {{
      auto sg = it.get_sub_group();
      unsigned slot = 0;
      if (sg.get_local_linear_id() == 0)
        slot = take(count);
      {broadcast}
      use(slot, pool, sg);
      if (slot & 4u)
        out[0] = sycl::reduce_over_group(sg, pool[0], sycl::plus<unsigned>());
    }}
"""


def _slot_branch(callee: str, broadcast: str = "slot = sycl::select_from_group(sg, slot, 0);"):
    found = _branches(_SLOT.format(callee=callee, broadcast=broadcast))
    return found.get(16)  # `if (slot & 4u)`


def test_a_reference_argument_after_the_call_is_the_value_that_reached_it() -> None:
    """The lane-0 atomic before the broadcast does not reach the read after the call."""
    branch = _slot_branch("pool[sg.get_local_linear_id()] = slot;")
    assert branch is None or branch.dependence == "sub-group"


def test_a_reference_argument_after_the_call_joins_what_the_callee_leaves_in_it() -> None:
    branch = _slot_branch("slot = slot + sg.get_local_linear_id();")
    assert branch is not None and branch.dependence == "strong"


def test_a_reference_argument_not_broadcast_still_varies_after_the_call() -> None:
    branch = _slot_branch("pool[0] = slot;", broadcast="")
    assert branch is not None and branch.dependence == "strong"
