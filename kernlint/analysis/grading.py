"""Taints and grades of expressions in one evaluation context: the arithmetic of work-item dependence.

`Evaluator` is given how to read a variable (`lookup`) and what a call into another unit returns
(`call`); `kernlint.analysis.dependence` supplies both from a unit instance. A condition's grade:

* strong    parity `i % 2`, modulo, bit tests `i & 1`, other non-monotone arithmetic of the id, tests
            on data loaded with an id-derived index, a comparison of the id with a bound that changes
            from one iteration of an enclosing loop to the next (tree reductions `lid < s`; unless the
            loop keeps the bound at or above `SUB_GROUP_MAX`, so whole sub-groups drop out together),
            and a comparison of the sub-group lane id with a bound inside the sub-group (`lane < 8`);
* boundary  a comparison of the id (or a monotone function of it) with a uniform bound: tail guards
            `i < n`, leaders `lid == 0`, halo checks `i > 0 && i < n - 1`;
* sub-group a condition on values that are the same in every lane of a sub-group (`sg.get_group_id()`,
            `lid / 32`, a sub-group vote): sub-groups take different paths, lanes of one never do.

A condition whose dependent parts are all an id shifted right by an
amount kernlint cannot evaluate (`tid >> LG`), is graded `boundary` for the reason `unknown-block`: the
lanes share such a value in blocks that may hold whole sub-groups, so the split is not proven.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from kernlint.analysis.blocks import block_of, clears_lane_bits, mask_block, power_of_two, sub_group_multiple
from kernlint.analysis.expressions import (
    COMPARISONS,
    LOGICAL,
    MIRROR,
    SUB_GROUP_MAX,
    Binary,
    Broadcast,
    Call,
    Component,
    Const,
    Expr,
    Grade,
    Load,
    Phi,
    Seed,
    Select,
    SubGroupUniform,
    Taint,
    Unary,
    Uniform,
    Var,
    Varying,
    flag_of,
    join,
    names_in,
    retaint,
    strongest,
    unknown_block,
    unproven,
)
from kernlint.analysis.names import Name
from kernlint.analysis.trips import Resolve, uniform_quotient
from kernlint.facts.device import LaneEstimate
from kernlint.facts.kinds import BranchReason, LaneKind

Lookup = Callable[[Name], "Taint | None"]
CallResult = Callable[[Call, "tuple[Taint | None, ...]"], "Taint | None"]


def _const(expr: Expr) -> int | float | None:
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Unary) and expr.op in ("-", "~") and isinstance(expr.operand, Const):
        value = expr.operand.value
        if value is None or (expr.op == "~" and not isinstance(value, int)):
            return None
        return -value if expr.op == "-" else ~value  # type: ignore[operator]
    return None


class Evaluator:
    """Evaluates taints and grades in one context: variables read through `lookup`, results of calls
    into units through `call`, under one loop context (`loop_varying`, `floors`)."""

    def __init__(
        self,
        lookup: Lookup,
        call: CallResult,
        loop_varying: frozenset[Name] = frozenset(),
        floors: Mapping[Name, int] | None = None,
        resolve: Resolve | None = None,
        geometric: frozenset[Name] | None = None,
        sizes: tuple[int | None, int | None] = (None, None),
        doubling: frozenset[Name] = frozenset(),
    ) -> None:
        self.lookup = lookup
        self.call = call
        self.resolve = resolve  # a variable's single definition, for strided indices
        self.loop_varying = loop_varying
        self.floors = floors or {}
        # loop-varying names that enclosing loops halve or double each step (`s >>= 1`); None: not known
        self.geometric = geometric
        self.doubling = doubling  # those of them the loops only double (`d *= 2`): the lanes grow
        self.group_size, self.sub_group = sizes  # the launch's work-group and required sub-group size

    # -- taint ----------------------------------------------------------------------------------

    def taint(self, expr: Expr | None) -> Taint | None:
        if expr is None:
            return None
        # one dict look-up by the node's class instead of a chain of isinstance tests: this is the
        # solver's innermost call (the expression classes are final, so the class alone decides)
        handler = _TAINT_OF.get(type(expr))
        return handler(self, expr) if handler is not None else None

    def _var_taint(self, expr: Var) -> Taint | None:
        return self.lookup(expr.name)

    def _phi_taint(self, expr: Phi) -> Taint | None:
        return join(*(self.taint(option) for option in expr.options))

    def _load_taint(self, expr: Load) -> Taint | None:
        inner = join(self.taint(expr.base), self.taint(expr.index))
        if inner is None or inner.kind == "sub-group":
            return inner  # every lane of a sub-group reads the same element
        return Taint("data", inner.origin, unknown_block=inner.unknown_block)

    def _component_taint(self, expr: Component) -> Taint | None:
        base, index = self.taint(expr.base), self.taint(expr.index)
        return join(base, Taint("mixed", index.origin) if index is not None else None)

    def _unary_taint(self, expr: Unary) -> Taint | None:
        inner = self.taint(expr.operand)
        if inner is None or inner.kind == "sub-group":
            return inner
        if expr.op == "!":
            grade = self.grade(expr)
            return Taint("flag", inner.origin, grade, unknown_block=inner.unknown_block) if grade else inner
        if expr.op in ("-", "+") or inner.kind in ("data", "mixed"):
            return inner
        return Taint("mixed", inner.origin, unknown_block=inner.unknown_block)  # ~id

    def _select_taint(self, expr: Select) -> Taint | None:
        condition = self.taint(expr.cond)
        grade = self.grade(expr.cond) if condition is not None and condition.kind != "sub-group" else None
        return join(self.taint(expr.then), self.taint(expr.other), flag_of(grade))

    def _broadcast_taint(self, expr: Broadcast) -> Taint | None:
        value, index = self.taint(expr.value), self.taint(expr.index)
        if index is not None and index.kind != "sub-group":  # each lane reads another lane's value
            worst = join(value, index)
            return Taint("data" if worst is not None and worst.kind == "data" else "mixed", (worst or index).origin)
        if expr.scope == "work-group" and (index is None or expr.index is None):
            return None
        source = value if value is not None else index
        return Taint("sub-group", source.origin) if source is not None else None

    def _binary_taint(self, expr: Binary) -> Taint | None:
        left, right = self.taint(expr.left), self.taint(expr.right)
        found = self._binary_of(expr, left, right)
        if found is not None and found.kind != "sub-group" and not found.unknown_block and unknown_block(left, right):
            return retaint(found, unknown_block=True)  # computed from blocks of unknown size alone
        return found

    def _binary_of(self, expr: Binary, left: Taint | None, right: Taint | None) -> Taint | None:
        if left is None and right is None:
            return None
        if all(t is None or t.kind == "sub-group" for t in (left, right)):
            return join(left, right)  # the same in every lane of a sub-group
        if (
            expr.op == "/"
            and left is not None
            and right is None
            and self.resolve is not None
            and uniform_quotient(expr.left, expr.right, self.resolve, lambda e: self.taint(e) is None)
        ):
            return None  # (lid + k * wg) / wg: the pass number of a work-group-strided index
        if (
            expr.op == "/"
            and left is not None
            and left.kind == "id"
            and not left.lane
            and self._sub_group_size(expr.right)
        ):
            # `gid / sg.get_max_local_range()[0]`: the sub-group's number, as `gid / 32` is for sub-groups of 32
            return Taint("sub-group", left.origin)
        block = block_of(self._constant(expr.right), expr.op) if left is not None and right is None else None
        if (
            block
            and self.group_size
            and block % self.group_size == 0
            and self._plain_id(expr.left, 0) in ("local", "global")
        ):
            # `lid / 64`, `gid / 64` in work-groups of 64: work-groups are aligned blocks of ids, so the
            # quotient is the same for the whole work-group (0 for a local id, the group's number)
            return None
        if block and self.sub_group and block % self.sub_group == 0 and left is not None and left.kind == "id":
            return Taint("sub-group", left.origin)  # blocks of the kernel's own sub-group size
        if (
            expr.op in ("/", ">>")
            and left is not None
            and left.kind == "id"
            and not left.lane
            and sub_group_multiple(self._constant(expr.right), expr.op)
        ):
            # `lid / 32`, `gid >> 5`: consecutive ids in blocks of 32 share the value, and a sub-group is
            # at most 32 consecutive ids starting at a multiple of its size
            return Taint("sub-group", left.origin)
        if (
            expr.op == ">>"
            and left is not None
            and left.kind == "id"
            and not left.lane
            and right is None
            and self._constant(expr.right) is None
        ):
            # `tid >> LG`: blocks of consecutive ids share the value, of a size not known here (not `tid / w`,
            # which may be a float quotient, the lane's own)
            return Taint("id", left.origin, shared=True, unknown_block=True)
        if (
            expr.op == "&"
            and left is not None
            and left.kind == "id"
            and not left.lane
            and right is None
            and clears_lane_bits(self._constant(expr.right))
        ):
            # `lid & ~31`, `gid & 0xFFFFFFE0`: the base of the id's block of 32, the same in a sub-group
            return Taint("sub-group", left.origin)
        if (
            expr.op in ("%", "&")
            and left is not None
            and left.kind == "id"
            and right is None
            and sub_group_multiple(mask_block(self._constant(expr.right), expr.op), "/")
        ):
            # `lid % 32`, `lid & 63`: rises by one from lane to lane inside every sub-group
            return Taint("id", left.origin, lane=True)
        if (
            expr.op == "%"
            and left is not None
            and left.kind == "id"
            and right is None
            and self._constant(expr.right) is None
        ):
            # `tid % block_x`: a column index of a 2-D decomposition, rising along each row (a sub-group may
            # span several rows, whose lanes then share each column index)
            return Taint("id", left.origin, shared=True)
        left = None if left is not None and left.kind == "sub-group" else left
        right = None if right is not None and right.kind == "sub-group" else right
        if expr.op in COMPARISONS or expr.op in LOGICAL:
            grade = self.grade(expr)
            origin = (left or right).origin  # type: ignore[union-attr]
            return Taint("flag", origin, grade) if grade is not None else None
        worst = join(left, right)
        assert worst is not None
        if worst.kind == "data":
            return worst
        if worst.kind == "flag":
            # arithmetic on a truth value, or on a value set under a condition: a boundary condition
            # still splits only where it did (the edge sub-group, the leader's)
            return (
                worst
                if worst.grade is not None and worst.grade.dependence == "boundary"
                else Taint("mixed", worst.origin)
            )
        if left is not None and right is not None and left.kind == right.kind == "id" and expr.op in ("+", "-"):
            # row * w + col: monotone along the sub-group, and one lane's own unless both parts are shared
            return retaint(worst, shared=left.shared and right.shared)
        if worst.kind == "id":
            one_sided = (left is None) != (right is None)
            other = expr.right if left is not None else expr.left
            if one_sided and (expr.op in ("+", "-", "*") or (left is not None and expr.op in ("/", ">>", "<<"))):
                # lane + 1 is still a lane; lane + 32 and sg_base + lane are positions beyond the sub-group
                offset = self._constant(other)
                small = offset is not None and expr.op in ("+", "-") and abs(offset) < SUB_GROUP_MAX
                # a quotient or shift of an id is shared by the lanes it maps together (`tid / 4`)
                shared = worst.shared or (expr.op in ("/", ">>") and offset not in (1, 0))
                if worst.lane and not small:
                    return Taint("id", worst.origin, shared=shared)
                return retaint(worst, shared=shared)
        return Taint("mixed", worst.origin)

    def _constant(self, expr: Expr | None, depth: int = 0) -> int | float | None:
        """The value of a literal, or of a variable whose single definition is one (`const unsigned
        LGZ = 5;` reads as 5 wherever it reaches)."""
        value = _const(expr) if expr is not None else None
        if value is not None or depth > 8:
            return value
        if isinstance(expr, Phi) and len(expr.options) == 1:
            return self._constant(expr.options[0], depth + 1)
        if isinstance(expr, Var) and self.resolve is not None:
            return self._constant(self.resolve(expr.name), depth + 1)
        return None

    def _sub_group_size(self, expr: Expr | None, depth: int = 0) -> bool:
        """Whether `expr` is the sub-group's size (through single definitions and a component read)."""
        if isinstance(expr, Load) and depth < 8:
            return self._sub_group_size(expr.base, depth + 1)
        if isinstance(expr, Var) and self.resolve is not None and depth < 8:
            return self._sub_group_size(self.resolve(expr.name), depth + 1)
        return isinstance(expr, Uniform) and expr.sub_group_size

    def _call_taint(self, expr: Call) -> Taint | None:
        taints = [self.taint(arg) for arg in expr.args]
        if expr.unit is not None:
            return self.call(expr, tuple(taints))
        worst = join(*taints)
        if worst is None or worst.kind == "sub-group":
            return worst
        if worst.kind == "data":
            return worst
        if expr.monotone and all(t is None or t.kind == "id" for t in taints):
            if any(t is None for t in taints) and len(taints) > 1:  # min(n - i, K): K but near the bound
                return Taint("id", worst.origin, lane=worst.lane, clamped=True, unknown_block=worst.unknown_block)
            return worst
        return Taint("mixed", worst.origin, unknown_block=worst.unknown_block)

    # -- grade ----------------------------------------------------------------------------------

    def grade(self, expr: Expr) -> Grade | None:
        """How the condition `expr` diverges, or None when it is uniform."""
        if isinstance(expr, Binary) and expr.op in LOGICAL:
            left, right = self.grade(expr.left), self.grade(expr.right)
            if left is not None and right is not None and left.dependence == right.dependence == "boundary":
                leader = next((g for g in (left, right) if g.reason == "leader"), None)
                if expr.op == "&&" and leader is not None:
                    # `lx == 0 && ly == 0`, `lid == 0 && gid < n`: no more lanes than the leader test's one
                    return Grade("boundary", "leader", LaneEstimate("single"), leader.origin)
                return Grade("boundary", "range", LaneEstimate("edge"), left.origin)
            return strongest(left, right)
        if isinstance(expr, Unary) and expr.op == "!":
            return unproven(self._truth(expr.operand, negated=True), self.taint(expr.operand))
        if isinstance(expr, Binary) and expr.op in COMPARISONS:
            return unproven(self._comparison(expr), self.taint(expr.left), self.taint(expr.right))
        return unproven(self._truth(expr), self.taint(expr))

    def _truth(self, expr: Expr, negated: bool = False) -> Grade | None:
        """A value used as a truth value (`if (x)`, `if (!x)`)."""
        if (isinstance(expr, Binary) and (expr.op in COMPARISONS or expr.op in LOGICAL)) or (
            isinstance(expr, Unary) and expr.op == "!"
        ):
            grade = self.grade(expr)
            if grade is not None and negated and grade.lanes is not None:
                return replace(grade, lanes=_complement(grade.lanes))
            return grade
        taint = self.taint(expr)
        if taint is None:
            return None
        pattern = self._pattern(expr, "==" if negated else "!=", Const(0))
        if pattern is not None:
            return pattern
        if taint.kind == "flag" and taint.grade is not None:
            grade = taint.grade
            if negated and grade.lanes is not None:
                return replace(grade, lanes=_complement(grade.lanes))
            return grade
        if taint.kind == "id":
            if taint.shared:
                return Grade("boundary", "range", LaneEstimate("edge"), taint.origin)
            if negated:
                return Grade("boundary", "leader", LaneEstimate("single"), taint.origin)
            return Grade("boundary", "all-but-one", LaneEstimate("all-but-one"), taint.origin)
        return self._strong_for(taint)

    def _strong_for(self, taint: Taint) -> Grade:
        if taint.kind == "sub-group":
            return _level(taint)
        if taint.kind == "data":
            return Grade("strong", "data", None, taint.origin)
        if taint.kind == "flag" and taint.grade is not None:
            return taint.grade
        return Grade("strong", "arithmetic", None, taint.origin)

    def _comparison(self, expr: Binary) -> Grade | None:
        grade = self._compare(expr)
        if grade is not None and grade.reason == "loop-bound":
            # `k <= lid`: whose id the trip counts follow (the plain id, or it plus a constant)
            left = self.taint(expr.left)
            dependent = expr.left if left is not None and left.kind == "id" else expr.right
            return replace(grade, id_scope=self._plain_id(dependent, 0, offsets=True))
        if grade is None or grade.dependence == "strong" or grade.reason not in _BOUNDED:
            return grade
        left = self.taint(expr.left)
        dependent, other, op = (
            (expr.left, expr.right, expr.op)
            if left is not None and left.kind != "sub-group"
            else (expr.right, expr.left, MIRROR[expr.op])
        )
        scope = self._plain_id(dependent, 0)
        if scope is None or self.taint(other) is not None:
            return grade
        value = self._constant(other)
        bound = value + (op in ("<=", ">")) if isinstance(value, int) else None
        return replace(grade, id_scope=scope, bound=bound)

    def _plain_id(self, expr: Expr | None, depth: int, offsets: bool = False) -> str | None:
        """global | local | lane when `expr` is the work-item id itself (through single definitions and
        component reads; with `offsets`, plus or minus a constant too), None for anything else."""
        if isinstance(expr, Seed):
            return None if expr.shared else expr.scope
        if isinstance(expr, Component):
            return self._plain_id(expr.base, depth + 1, offsets)
        if depth > 8:
            return None
        if isinstance(expr, Phi) and len(expr.options) == 1:
            return self._plain_id(expr.options[0], depth + 1, offsets)
        if isinstance(expr, Var) and self.resolve is not None:
            return self._plain_id(self.resolve(expr.name), depth + 1, offsets)
        if offsets and isinstance(expr, Binary) and expr.op in ("+", "-") and self._constant(expr.right) is not None:
            return self._plain_id(expr.left, depth + 1, offsets)
        return None

    def _compare(self, expr: Binary) -> Grade | None:
        left, right = self.taint(expr.left), self.taint(expr.right)
        if all(t is None or t.kind == "sub-group" for t in (left, right)):
            level = join(left, right)
            return _level(level) if level is not None else None
        left = None if left is not None and left.kind == "sub-group" else left
        right = None if right is not None and right.kind == "sub-group" else right
        dependent, other, op = (
            (expr.left, expr.right, expr.op) if left is not None else (expr.right, expr.left, MIRROR[expr.op])
        )
        taint, other_taint = (left, right) if left is not None else (right, left)
        assert taint is not None
        pattern = self._pattern(dependent, op, other)
        if pattern is not None and (other_taint is None or other_taint.kind == "id"):
            return pattern
        worst = join(taint, other_taint)
        assert worst is not None
        if worst.kind in ("data", "mixed") or (worst.kind == "flag" and other_taint is not None):
            return self._strong_for(worst)
        if worst.kind == "flag":
            return self._strong_for(worst) if worst.grade is None else worst.grade
        # Both sides are ids or uniform: a monotone split of the lanes.
        varying = names_in(other) & (self.loop_varying - names_in(dependent)) if other_taint is None else set()
        if (
            varying
            and op in ("<", "<=", ">", ">=")
            and all(self.floors.get(name, 0) >= SUB_GROUP_MAX for name in varying)
        ):
            # `for (s = wg / 2; s >= 32; s >>= 1) if (lid < s)`: whole sub-groups drop out together.
            return Grade("boundary", "sub-group-aligned", LaneEstimate("edge"), taint.origin)
        if varying and taint.clamped:
            # `for (k = 0; k < min(n - i, K); ++k)`: K iterations except near the bound
            return Grade("boundary", "tail-guard", LaneEstimate("edge"), taint.origin)
        if varying:
            stepped = self.geometric is not None and not varying <= self.geometric
            if not stepped and (op in (">", ">=") or (op in ("<", "<=") and not _scaled(other))):
                # `tid >= offset`, `tid < n - offset` with `offset` doubling (a scan): the lanes past a
                # doubling offset idle, a prefix or suffix of the work-group, so at most one sub-group splits
                return Grade("boundary", "loop-bound", LaneEstimate("edge"), taint.origin)
            # a bound halved each step (`lid < s`, `s >>= 1`) shrinks the active lanes geometrically, one
            # doubled (`d *= 2`) grows them; one moved by a constant step (`k <= lid`, `++k`) staggers them
            moving: LaneKind = "staggered" if stepped else "growing" if varying <= self.doubling else "shrinking"
            lanes = LaneEstimate("single" if op == "==" else "all-but-one" if op == "!=" else moving)
            return Grade("strong", "loop-bound", lanes, taint.origin)
        if other_taint is not None:
            return Grade("boundary", "range", LaneEstimate("edge"), taint.origin)
        bound = self._constant(other)
        if (
            op in ("<", "<=", ">", ">=")
            and isinstance(bound, int)
            and (bound + (1 if op in ("<=", ">") else 0)) % SUB_GROUP_MAX == 0
        ):
            # `lid % 128 < 32`, `lid >= 64`: the bound falls between sub-groups, whole ones drop out
            return Grade("sub-group", "sub-group-aligned", None, taint.origin)
        if taint.lane and op in ("<", "<=", ">", ">=") and isinstance(bound, int):
            # every sub-group holds every lane id: `lane < 8` splits all of them (`lane < len`, a
            # length the lanes share, is a row's tail guard: it splits only the sub-groups of short rows)
            return Grade("strong", "lane-range", LaneEstimate("split"), taint.origin)
        if op in ("==", "!=") and taint.shared:
            # `row == 0`, `tid / 4 == k`: the lanes that share the value, a band rather than one lane
            return Grade("boundary", "range", LaneEstimate("edge"), taint.origin)
        if op == "==":
            return Grade("boundary", "leader", LaneEstimate("single"), taint.origin)
        if op == "!=":
            return Grade("boundary", "all-but-one", LaneEstimate("all-but-one"), taint.origin)
        return Grade("boundary", "tail-guard", LaneEstimate("edge"), taint.origin)

    def grade_switch(self, expr: Expr) -> Grade | None:
        """A `switch` on `expr`: every case takes the lanes whose value matches it."""
        return unproven(self._switch_grade(expr), self.taint(expr))

    def _switch_grade(self, expr: Expr) -> Grade | None:
        taint = self.taint(expr)
        if taint is None:
            return None
        if taint.kind == "sub-group":
            return _level(taint)
        if isinstance(expr, Binary) and expr.op in ("%", "&") and taint.kind in ("id", "mixed"):
            k = self._constant(expr.right)
            cases = k if expr.op == "%" else (k + 1 if isinstance(k, int) else None)
            lanes = LaneEstimate("fraction", 1 / cases) if isinstance(cases, int) and cases > 1 else None
            return Grade("strong", "modulo" if expr.op == "%" else "bit-test", lanes, taint.origin)
        if taint.kind == "id":
            return Grade("boundary", "leader", LaneEstimate("single"), taint.origin)
        return self._strong_for(taint)

    def _pattern(self, dependent: Expr, op: str, other: Expr) -> Grade | None:
        """Parity, modulo and bit tests: `x % k <op> c`, `x & m <op> c` with a dependent `x`."""
        if not isinstance(dependent, Binary) or dependent.op not in ("%", "&"):
            return None
        operand_taint = self.taint(dependent.left)
        modulus = dependent.right
        if operand_taint is None or self.taint(dependent.right) is not None:
            operand_taint = self.taint(dependent.right)
            modulus = dependent.left
            if operand_taint is None or self.taint(dependent.left) is not None:
                return None
        if operand_taint.kind not in ("id", "mixed"):
            return None
        k = self._constant(modulus)
        c = self._constant(other)
        if dependent.op == "%":
            reason: BranchReason = "parity" if k == 2 else "modulo"
            if k == 2 and op in ("==", "!="):
                return Grade("strong", reason, LaneEstimate("split", 0.5), operand_taint.origin)
            if isinstance(k, int) and k > 1 and op in ("==", "!=") and c is not None:
                taken = 1 / k if op == "==" else (k - 1) / k
                return Grade("strong", reason, LaneEstimate("fraction", taken), operand_taint.origin)
            return Grade("strong", reason, None, operand_taint.origin)
        if power_of_two(k) and op in ("==", "!=") and c is not None:
            return Grade("strong", "bit-test", LaneEstimate("split", 0.5), operand_taint.origin)
        return Grade("strong", "bit-test", None, operand_taint.origin)


def _level(taint: Taint) -> Grade:
    """The grade of a condition on values the same in each sub-group: none of its lanes diverge; or,
    for values the same along each row of a collapsed nest (`straddle`), only a sub-group that
    straddles two rows does."""
    if taint.straddle:
        return Grade("boundary", "rows", LaneEstimate("edge"), taint.origin)
    return Grade("sub-group", "sub-group", None, taint.origin)


def _scaled(bound: Expr) -> bool:
    """Whether a loop-varying bound is the varying value itself, or it scaled by a constant (`s`, `2 * s`,
    `s >> 1`): a halving one then halves the active lanes; `n - offset` does not."""
    if isinstance(bound, (Var, Phi)):
        return True
    if isinstance(bound, Binary) and bound.op in ("*", "/", ">>", "<<"):
        return (_const(bound.right) is not None and _scaled(bound.left)) or (
            bound.op == "*" and _const(bound.left) is not None and _scaled(bound.right)
        )
    return False


_BOUNDED = frozenset({"tail-guard", "leader", "all-but-one", "sub-group-aligned"})


def _complement(lanes: LaneEstimate) -> LaneEstimate:
    if lanes.kind == "single":
        return LaneEstimate("all-but-one")
    if lanes.kind == "all-but-one":
        return LaneEstimate("single")
    if lanes.kind == "fraction" and lanes.taken is not None:
        return LaneEstimate("fraction", 1 - lanes.taken)
    return lanes


_TAINT_OF: dict[type, Callable[[Evaluator, Any], Taint | None]] = {
    Const: lambda evaluator, expr: None,
    Uniform: lambda evaluator, expr: None,
    Var: Evaluator._var_taint,
    Phi: Evaluator._phi_taint,
    SubGroupUniform: lambda evaluator, expr: Taint("sub-group", expr.text, straddle=expr.straddle),
    Broadcast: Evaluator._broadcast_taint,
    Seed: lambda evaluator, expr: Taint("id", expr.text, lane=expr.scope == "lane", shared=expr.shared),
    Varying: lambda evaluator, expr: Taint("data", expr.text),
    Load: Evaluator._load_taint,
    Component: Evaluator._component_taint,
    Unary: Evaluator._unary_taint,
    Binary: Evaluator._binary_taint,
    Select: Evaluator._select_taint,
    Call: Evaluator._call_taint,
}
