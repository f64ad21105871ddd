"""Work-item dependence: which values differ between the work-items (lanes) of a sub-group, and how a
condition built from them splits the lanes.

Language-neutral. A front-end lowers the device code it parsed into the small expression language
below and describes each kernel, device function or nested lambda as a `Unit`:

    program = Program()
    kernel = program.unit("k", params=())
    kernel.assign("lid", Seed("local", "it.get_local_id(0)"))          # size_t lid = it.get_local_id(0);
    kernel.assign("s", Binary("/", Var("wg"), Const(2)))                # for (s = wg / 2; …; s >>= 1)
    kernel.condition("c1", Binary("<", Var("lid"), Var("s")), loop_varying=frozenset({"s"}))
    program.solve()
    program.grade("k", "c1")   # Grade(dependence='strong', reason='loop-bound', lanes=shrinking, …)

An OpenMP front-end (C or Fortran) seeds the index of a `parallel for` / `parallel do` loop instead:

    body = program.unit("loop")
    body.assign("i", Seed("global", "i"))                               # the worksharing loop index
    body.condition("c", Binary("==", Binary("%", Var("i"), Const(2)), Const(0)))  # if (mod(i, 2) == 0)

API: `Program.unit(key, params, parent)` makes a `Unit`; `Unit.assign`, `Unit.give_return`,
`Unit.bind_call` and `Unit.condition` describe it; `Program.solve()` propagates; then
`Program.taint(unit, expr)` gives a `Taint` (None: uniform) and `Program.grade(unit, condition)` or
`Program.grade_expr(unit, expr)` a `Grade` (None: uniform) with a `kernlint.facts.device.LaneEstimate`.
Keys of units and conditions are any hashable values the front-end chooses.

What the front-end decides (it knows the language): which expressions are work-item id sources
(`Seed`: SYCL `get_local_id`, an OpenMP `parallel for` loop index, …), which are opaque but uniform
(`Uniform`: group ids, ranges, group collectives), which vary per work-item without being an id
(`Varying`: atomic fetch results), which names vary from one iteration of an enclosing loop to the next
(`loop_varying`), which conditions an assignment is control dependent on (`guards`) and which calls
reach other units of the program (`Call(unit=…)` for the value, `Unit.bind_call` for the arguments).
Operators are C's spelling (`<`, `==`, `&&`, `!`, `%`, `&`, `<<`, …); a Fortran front-end maps
`.lt.`/`mod`/`iand`/`btest` onto them.

What this module decides: dependence through assignments (every assignment of a name counts: a
flow-insensitive may-analysis, so a reassignment from an id makes the name dependent), arithmetic,
loads indexed by dependent values, calls between units (parameters take their arguments' dependence,
results their callee's returns, reference parameters flow back), control dependence on guarding
conditions; and the grading of a condition:

* strong   parity `i % 2`, modulo, bit tests `i & 1`, other non-monotone arithmetic of the id, tests on
           data loaded with an id-derived index, and a comparison of the id with a bound that changes
           from one iteration of an enclosing loop to the next (tree reductions `lid < s`; unless the
           loop keeps the bound at or above `SUB_GROUP_MAX`, so whole sub-groups drop out together),
           and a comparison of the sub-group lane id with a bound inside the sub-group (`lane < 8`);
* boundary a comparison of the id (or a monotone function of it: `gid + 1`, `row * w + col`) with a
           uniform bound: tail guards `i < n`, leaders `lid == 0`, halo checks `i > 0 && i < n - 1`.
           These split at most the one sub-group that straddles the bound.

Unknown stays unknown: a name the front-end never assigned is uniform (a kernel argument, a capture),
and a call to a function the program does not hold is as dependent as its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Iterator, Mapping, Sequence, Union

from kernlint.facts.device import LaneEstimate

# -- expressions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Const:
    """A literal or compile-time constant; `value` is None when constant but not evaluated."""

    value: int | float | None = None


@dataclass(frozen=True, slots=True)
class Var:
    """A read of a named variable or parameter (a name no unit assigns is uniform)."""

    name: str


@dataclass(frozen=True, slots=True)
class Seed:
    """A work-item id source. `scope`: global | local | lane (sub-group local id); `text` as written."""

    scope: str
    text: str


@dataclass(frozen=True, slots=True)
class Uniform:
    """An opaque value that is the same in every work-item (group id, range, group collective)."""

    text: str = ""


@dataclass(frozen=True, slots=True)
class Varying:
    """An opaque value that differs per work-item without being an id (atomic fetch, block load)."""

    text: str = ""


@dataclass(frozen=True, slots=True)
class Load:
    """A memory read `base[index]` (`index` None for `*base`): dependent when either part is."""

    base: "Expr"
    index: "Expr | None" = None


@dataclass(frozen=True, slots=True)
class Component:
    """A component of a small value such as an id (`gid[0]`): as dependent as the value itself."""

    base: "Expr"
    index: "Expr | None" = None


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # - + ! ~
    operand: "Expr"


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * / % & | ^ << >> < <= > >= == != && ||
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True, slots=True)
class Select:
    """`cond ? then : other`."""

    cond: "Expr"
    then: "Expr"
    other: "Expr"


@dataclass(frozen=True, slots=True)
class Call:
    """A call. With `unit` set its value is that unit's return value; otherwise it is as dependent as
    its arguments (`monotone`: min/max-like, keeps an id an id; otherwise an id becomes arithmetic)."""

    name: str
    args: tuple["Expr", ...] = ()
    unit: Hashable | None = None
    monotone: bool = False


Expr = Union[Const, Var, Seed, Uniform, Varying, Load, Component, Unary, Binary, Select, Call]

SUB_GROUP_MAX = 32  # the widest sub-group of any supported device
COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
LOGICAL = frozenset({"&&", "||"})
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def sub_expressions(expressions: Iterable[Expr | None]) -> Iterator[Expr]:
    """Every node of the expression trees, each tree walked once (iteratively: no recursion limit)."""
    stack = list(expressions)
    while stack:
        node = stack.pop()
        if node is None:
            continue
        yield node
        if isinstance(node, (Load, Component)):
            stack += [node.base, node.index]
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack += [node.left, node.right]
        elif isinstance(node, Select):
            stack += [node.cond, node.then, node.other]
        elif isinstance(node, Call):
            stack += list(node.args)


def names_in(expr: Expr | None) -> set[str]:
    """Every variable name an expression reads."""
    return {node.name for node in sub_expressions((expr,)) if isinstance(node, Var)}


# -- dependence and grades -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grade:
    """How a condition diverges: `dependence` strong | boundary, a `reason` (see `Branch.reason`), the
    lanes it leaves active and the id source it depends on (as written)."""

    dependence: str
    reason: str
    lanes: LaneEstimate | None
    origin: str

    @property
    def strong(self) -> bool:
        return self.dependence == "strong"


@dataclass(frozen=True, slots=True)
class Taint:
    """How a value depends on the work-item id.

    kind: id    a monotone function of an id (`gid`, `base + lid`, `row * w + col`)
          flag  a truth value of a dependent condition (`bool ok = i < n;`, or set under one)
          mixed non-monotone arithmetic of an id (`i % 2`, `i & 1`, `i * i`, unknown calls)
          data  a value loaded with an id-derived index, or otherwise varying per work-item
    """

    kind: str
    origin: str
    grade: Grade | None = None  # for flags: the grade of the condition they encode
    lane: bool = False  # for ids: the sub-group lane id itself (up to constant arithmetic), which
                        # every sub-group spans in full, so any bound inside it splits every sub-group


_RANK = {"id": 1, "flag": 2, "mixed": 3, "data": 4}


def join(*taints: Taint | None) -> Taint | None:
    """The least upper bound: the strongest kind wins; flags keep their strongest grade."""
    best: Taint | None = None
    for taint in taints:
        if taint is None:
            continue
        if best is None or _RANK[taint.kind] > _RANK[best.kind]:
            best = taint
        elif taint.kind == "flag" == best.kind and taint.grade and best.grade \
                and taint.grade.strong and not best.grade.strong:
            best = taint
    return best


def _strongest(*grades: Grade | None) -> Grade | None:
    present = [g for g in grades if g is not None]
    if not present:
        return None
    strong = [g for g in present if g.strong]
    return strong[0] if strong else present[0]


# -- units and the program -----------------------------------------------------------------------


@dataclass
class _Condition:
    expr: Expr
    guards: tuple[Hashable, ...]
    loop_varying: frozenset[str]
    kind: str
    floors: dict[str, int]


@dataclass
class _Binding:
    callee: Hashable
    args: tuple[Expr | None, ...]
    guards: tuple[Hashable, ...]
    outputs: tuple[tuple[int, str], ...]  # (parameter index, caller variable) for reference parameters


@dataclass
class Unit:
    """A kernel, device function or nested lambda: its parameters, assignments, returns, calls and
    conditions. Names a unit does not assign are looked up in its `parent` (a lambda's enclosing code)."""

    key: Hashable
    params: tuple[str, ...] = ()
    parent: Hashable | None = None
    _assignments: list[tuple[str, Expr, tuple[Hashable, ...], bool, Hashable | None]] = field(default_factory=list)
    _returns: list[tuple[Expr, tuple[Hashable, ...]]] = field(default_factory=list)
    _bindings: list[_Binding] = field(default_factory=list)
    conditions: dict[Hashable, _Condition] = field(default_factory=dict)
    env: dict[str, Taint] = field(default_factory=dict)
    result: Taint | None = None

    def assign(self, name: str, expr: Expr, guards: Sequence[Hashable] = (), compound: bool = False,
               into: Hashable | None = None) -> None:
        """`name = expr` (`compound`: `name op= expr`, which keeps the old value's dependence).
        `into`: the enclosing unit that owns `name`, when a lambda assigns a variable it captured."""
        self._assignments.append((name, expr, tuple(guards), compound, into))

    def give_return(self, expr: Expr, guards: Sequence[Hashable] = ()) -> None:
        self._returns.append((expr, tuple(guards)))

    def bind_call(self, callee: Hashable, args: Sequence[Expr | None], guards: Sequence[Hashable] = (),
                  outputs: Sequence[tuple[int, str]] = ()) -> None:
        """A call site: argument i flows into the callee's parameter i (None: not analysable);
        `outputs` (parameter index, caller variable) flow back for reference parameters."""
        self._bindings.append(_Binding(callee, tuple(args), tuple(guards), tuple(outputs)))

    def condition(self, key: Hashable, expr: Expr, guards: Sequence[Hashable] = (),
                  loop_varying: Iterable[str] = (), kind: str = "if",
                  floors: Mapping[str, int] | None = None) -> None:
        """A condition to grade. `loop_varying`: names that change between iterations of the loops
        around it (for a loop's own condition, that loop included); `floors`: for some of them, a
        value the loop keeps them at or above (`for (s = 256; s >= 32; s >>= 1)`: 32); `kind` is
        "if", "ternary", "switch" (graded as a multi-way split) or "loop"."""
        self.conditions[key] = _Condition(expr, tuple(guards), frozenset(loop_varying), kind, dict(floors or {}))


class Program:
    """All units of a translation unit's device code; `solve()` then query `taint` and `grade`."""

    def __init__(self) -> None:
        self.units: dict[Hashable, Unit] = {}

    def unit(self, key: Hashable, params: Sequence[str] = (), parent: Hashable | None = None) -> Unit:
        if key not in self.units:
            self.units[key] = Unit(key, tuple(params), parent)
        return self.units[key]

    # -- fixed point ------------------------------------------------------------------------------

    def solve(self, max_rounds: int = 64) -> None:
        """Propagate dependence until nothing changes (the lattice is finite, so this terminates).

        A worklist: a unit is re-evaluated only when something it reads changed (its own variables,
        its enclosing units', its callees' results or parameters)."""
        readers = self._readers()
        dirty = dict.fromkeys(self.units)
        for _ in range(max_rounds):
            if not dirty:
                return
            current, dirty = dirty, {}
            for key in current:
                unit = self.units[key]
                for changed in self._evaluate(unit):
                    dirty[changed] = None
                    dirty.update(dict.fromkeys(readers.get(changed, ())))

    def _readers(self) -> dict[Hashable, set[Hashable]]:
        """For each unit, the units whose evaluation reads its variables or its result."""
        readers: dict[Hashable, set[Hashable]] = {}
        for unit in self.units.values():
            ancestor, depth = unit.parent, 0
            while ancestor is not None and ancestor in self.units and depth < 16:
                readers.setdefault(ancestor, set()).add(unit.key)
                ancestor, depth = self.units[ancestor].parent, depth + 1
            expressions = [e for _n, e, _g, _c, _i in unit._assignments] + [e for e, _g in unit._returns]
            expressions += [a for b in unit._bindings for a in b.args if a is not None]
            expressions += [c.expr for c in unit.conditions.values()]
            for callee in _called_units(expressions) | {b.callee for b in unit._bindings if b.outputs}:
                readers.setdefault(callee, set()).add(unit.key)
        return readers

    def _evaluate(self, unit: Unit) -> set[Hashable]:
        """One pass over a unit's assignments, returns and call sites; the units whose state changed."""
        changed: set[Hashable] = set()
        for name, expr, guards, compound, into in unit._assignments:
            target = self.units.get(into, unit) if into is not None else unit
            value = join(self.taint(unit.key, expr), self._control(unit, guards),
                         self._lookup(unit, name) if compound else None)
            if self._update(target, name, value):
                changed.add(target.key)
        for expr, guards in unit._returns:
            value = join(unit.result, self.taint(unit.key, expr), self._control(unit, guards))
            if value != unit.result:
                unit.result = value
                changed.add(unit.key)
        for binding in unit._bindings:
            callee = self.units.get(binding.callee)
            if callee is None:
                continue
            control = self._control(unit, binding.guards)
            for index, arg in enumerate(binding.args):
                if index < len(callee.params) and arg is not None and \
                        self._update(callee, callee.params[index], join(self.taint(unit.key, arg), control)):
                    changed.add(callee.key)
            for index, variable in binding.outputs:
                if index < len(callee.params) and \
                        self._update(unit, variable, callee.env.get(callee.params[index])):
                    changed.add(unit.key)
        return changed

    @staticmethod
    def _update(unit: Unit, name: str, value: Taint | None) -> bool:
        merged = join(unit.env.get(name), value)
        if merged is None or merged == unit.env.get(name):
            return False
        unit.env[name] = merged
        return True

    def _lookup(self, unit: Unit | None, name: str) -> Taint | None:
        seen = 0
        while unit is not None and seen < 16:
            if name in unit.env:
                return unit.env[name]
            unit = self.units.get(unit.parent) if unit.parent is not None else None
            seen += 1
        return None

    def _control(self, unit: Unit, guards: tuple[Hashable, ...]) -> Taint | None:
        grades = [self.grade(unit.key, guard) for guard in guards]
        grade = _strongest(*grades)
        return Taint("flag", grade.origin, grade) if grade is not None else None

    # -- queries ------------------------------------------------------------------------------------

    def taint(self, unit_key: Hashable, expr: Expr | None) -> Taint | None:
        """How `expr`, evaluated in `unit_key`, depends on the work-item id (None: uniform)."""
        return _Evaluator(self, self.units[unit_key]).taint(expr)

    def grade(self, unit_key: Hashable, condition_key: Hashable) -> Grade | None:
        """The grade of a registered condition (None: uniform, or not registered)."""
        unit = self.units[unit_key]
        condition = unit.conditions.get(condition_key)
        if condition is None:
            return None
        evaluator = _Evaluator(self, unit, condition.loop_varying, condition.floors)
        return evaluator.grade_switch(condition.expr) if condition.kind == "switch" else evaluator.grade(condition.expr)

    def grade_expr(self, unit_key: Hashable, expr: Expr, loop_varying: Iterable[str] = (),
                   floors: Mapping[str, int] | None = None) -> Grade | None:
        """The grade of an ad-hoc condition evaluated in `unit_key`."""
        return _Evaluator(self, self.units[unit_key], frozenset(loop_varying), floors).grade(expr)


# -- evaluation and grading ----------------------------------------------------------------------


def _const(expr: Expr) -> int | float | None:
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Unary) and expr.op == "-" and isinstance(expr.operand, Const) and expr.operand.value is not None:
        return -expr.operand.value
    return None


def _power_of_two(value: int | float | None) -> bool:
    return isinstance(value, int) and value > 0 and value & (value - 1) == 0


class _Evaluator:
    """Evaluates taints and grades in one unit under one loop context."""

    def __init__(self, program: Program, unit: Unit, loop_varying: frozenset[str] = frozenset(),
                 floors: Mapping[str, int] | None = None) -> None:
        self.program = program
        self.unit = unit
        self.loop_varying = loop_varying
        self.floors = floors or {}

    # -- taint ----------------------------------------------------------------------------------

    def taint(self, expr: Expr | None) -> Taint | None:
        if expr is None or isinstance(expr, (Const, Uniform)):
            return None
        if isinstance(expr, Var):
            return self.program._lookup(self.unit, expr.name)
        if isinstance(expr, Seed):
            return Taint("id", expr.text, lane=expr.scope == "lane")
        if isinstance(expr, Varying):
            return Taint("data", expr.text)
        if isinstance(expr, Load):
            inner = join(self.taint(expr.base), self.taint(expr.index))
            return Taint("data", inner.origin) if inner is not None else None
        if isinstance(expr, Component):
            base, index = self.taint(expr.base), self.taint(expr.index)
            return join(base, Taint("mixed", index.origin) if index is not None else None)
        if isinstance(expr, Unary):
            inner = self.taint(expr.operand)
            if inner is None:
                return None
            if expr.op == "!":
                grade = self.grade(expr)
                return Taint("flag", inner.origin, grade) if grade is not None else inner
            if expr.op in ("-", "+") or inner.kind in ("data", "mixed"):
                return inner
            return Taint("mixed", inner.origin)  # ~id
        if isinstance(expr, Binary):
            return self._binary_taint(expr)
        if isinstance(expr, Select):
            condition = self.taint(expr.cond)
            grade = self.grade(expr.cond) if condition is not None else None
            return join(self.taint(expr.then), self.taint(expr.other),
                        Taint("flag", grade.origin, grade) if grade is not None else None)
        if isinstance(expr, Call):
            return self._call_taint(expr)
        return None  # pragma: no cover - every Expr is handled above

    def _binary_taint(self, expr: Binary) -> Taint | None:
        left, right = self.taint(expr.left), self.taint(expr.right)
        if left is None and right is None:
            return None
        if expr.op in COMPARISONS or expr.op in LOGICAL:
            grade = self.grade(expr)
            origin = (left or right).origin  # type: ignore[union-attr]
            return Taint("flag", origin, grade) if grade is not None else None
        worst = join(left, right)
        assert worst is not None
        if worst.kind == "data":
            return worst
        if worst.kind == "flag":  # arithmetic on a truth value
            return Taint("mixed", worst.origin)
        if left is not None and right is not None and left.kind == right.kind == "id" and expr.op in ("+", "-"):
            return worst  # row * w + col: monotone along the sub-group
        if worst.kind == "id":
            one_sided = (left is None) != (right is None)
            other = expr.right if left is not None else expr.left
            if one_sided and (expr.op in ("+", "-", "*") or left is not None and expr.op in ("/", ">>", "<<")):
                # lane + 1 is still a lane; sg_base + lane is a global position
                return worst if _const(other) is not None or not worst.lane else Taint("id", worst.origin)
        return Taint("mixed", worst.origin)

    def _call_taint(self, expr: Call) -> Taint | None:
        if expr.unit is not None and expr.unit in self.program.units:
            return self.program.units[expr.unit].result
        taints = [self.taint(arg) for arg in expr.args]
        worst = join(*taints)
        if worst is None:
            return None
        if worst.kind == "data" or (expr.monotone and all(t is None or t.kind == "id" for t in taints)):
            return worst
        return Taint("mixed", worst.origin)

    # -- grade ----------------------------------------------------------------------------------

    def grade(self, expr: Expr) -> Grade | None:
        """How the condition `expr` diverges, or None when it is uniform."""
        if isinstance(expr, Binary) and expr.op in LOGICAL:
            left, right = self.grade(expr.left), self.grade(expr.right)
            if left is not None and right is not None and not left.strong and not right.strong:
                return Grade("boundary", "range", LaneEstimate("edge"), left.origin)
            return _strongest(left, right)
        if isinstance(expr, Unary) and expr.op == "!":
            inner = self._truth(expr.operand, negated=True)
            return inner
        if isinstance(expr, Binary) and expr.op in COMPARISONS:
            return self._comparison(expr)
        return self._truth(expr)

    def _truth(self, expr: Expr, negated: bool = False) -> Grade | None:
        """A value used as a truth value (`if (x)`, `if (!x)`)."""
        if isinstance(expr, Binary) and (expr.op in COMPARISONS or expr.op in LOGICAL) or \
                isinstance(expr, Unary) and expr.op == "!":
            grade = self.grade(expr)
            if grade is not None and negated and grade.lanes is not None:
                return Grade(grade.dependence, grade.reason, _complement(grade.lanes), grade.origin)
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
                return Grade(grade.dependence, grade.reason, _complement(grade.lanes), grade.origin)
            return grade
        if taint.kind == "id":
            if negated:
                return Grade("boundary", "leader", LaneEstimate("single"), taint.origin)
            return Grade("boundary", "all-but-one", LaneEstimate("all-but-one"), taint.origin)
        return self._strong_for(taint)

    def _strong_for(self, taint: Taint) -> Grade:
        if taint.kind == "data":
            return Grade("strong", "data", None, taint.origin)
        if taint.kind == "flag" and taint.grade is not None:
            return taint.grade
        return Grade("strong", "arithmetic", None, taint.origin)

    def _comparison(self, expr: Binary) -> Grade | None:
        left, right = self.taint(expr.left), self.taint(expr.right)
        if left is None and right is None:
            return None
        dependent, other, op = (expr.left, expr.right, expr.op) if left is not None else \
            (expr.right, expr.left, _MIRROR[expr.op])
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
        if varying and op in ("<", "<=", ">", ">=") and all(self.floors.get(name, 0) >= SUB_GROUP_MAX for name in varying):
            # `for (s = wg / 2; s >= 32; s >>= 1) if (lid < s)`: whole sub-groups drop out together.
            return Grade("boundary", "sub-group-aligned", LaneEstimate("edge"), taint.origin)
        if varying:
            lanes = LaneEstimate("single") if op == "==" else (
                LaneEstimate("all-but-one") if op == "!=" else LaneEstimate("shrinking"))
            return Grade("strong", "loop-bound", lanes, taint.origin)
        if other_taint is not None:
            return Grade("boundary", "range", LaneEstimate("edge"), taint.origin)
        if taint.lane and op in ("<", "<=", ">", ">="):
            # every sub-group holds every lane id: `lane < 8` splits all of them
            return Grade("strong", "lane-range", LaneEstimate("split"), taint.origin)
        if op == "==":
            return Grade("boundary", "leader", LaneEstimate("single"), taint.origin)
        if op == "!=":
            return Grade("boundary", "all-but-one", LaneEstimate("all-but-one"), taint.origin)
        return Grade("boundary", "tail-guard", LaneEstimate("edge"), taint.origin)

    def grade_switch(self, expr: Expr) -> Grade | None:
        """A `switch` on `expr`: every case takes the lanes whose value matches it."""
        taint = self.taint(expr)
        if taint is None:
            return None
        if isinstance(expr, Binary) and expr.op in ("%", "&") and taint.kind in ("id", "mixed"):
            k = _const(expr.right)
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
        operand, modulus = dependent.left, dependent.right
        if operand_taint is None or self.taint(dependent.right) is not None:
            operand_taint = self.taint(dependent.right)
            operand, modulus = dependent.right, dependent.left
            if operand_taint is None or self.taint(dependent.left) is not None:
                return None
        if operand_taint.kind not in ("id", "mixed"):
            return None
        k = _const(modulus)
        c = _const(other)
        if dependent.op == "%":
            reason = "parity" if k == 2 else "modulo"
            if k == 2 and op in ("==", "!="):
                return Grade("strong", reason, LaneEstimate("split", 0.5), operand_taint.origin)
            if isinstance(k, int) and k > 1 and op in ("==", "!=") and c is not None:
                taken = 1 / k if op == "==" else (k - 1) / k
                return Grade("strong", reason, LaneEstimate("fraction", taken), operand_taint.origin)
            return Grade("strong", reason, None, operand_taint.origin)
        if _power_of_two(k) and op in ("==", "!=") and c is not None:
            return Grade("strong", "bit-test", LaneEstimate("split", 0.5), operand_taint.origin)
        return Grade("strong", "bit-test", None, operand_taint.origin)


def _called_units(expressions: Iterable[Expr | None]) -> set[Hashable]:
    """Units whose results the expressions read (`Call(unit=…)`)."""
    return {node.unit for node in sub_expressions(expressions) if isinstance(node, Call) and node.unit is not None}


def _complement(lanes: LaneEstimate) -> LaneEstimate:
    if lanes.kind == "single":
        return LaneEstimate("all-but-one")
    if lanes.kind == "all-but-one":
        return LaneEstimate("single")
    if lanes.kind == "fraction" and lanes.taken is not None:
        return LaneEstimate("fraction", 1 - lanes.taken)
    return lanes
