"""Work-item dependence: which values differ between the work-items (lanes) of a group, and how a
condition built from them splits the lanes.

Language-neutral. A front-end lowers the device code it parsed into the expression language of
`kernlint.analysis.expressions` and describes each kernel, device function or nested lambda as a `Unit`:

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
(`Seed`), which are opaque but uniform (`Uniform`: group ids, ranges, work-group collectives, loads
of shared memory a barrier separates from every store), which are the same within a sub-group only
(`SubGroupUniform`: sub-group ids and collectives), which vary per work-item without being an id
(`Varying`: atomic fetch results), which names vary from one iteration of an enclosing loop to the
next (`loop_varying`), which conditions an assignment is control dependent on where it is read
(`guards`), which calls reach other units (`Call(unit=…)` for the value, `Unit.bind_call` for the
arguments). Names are the front-end's too (`kernlint.analysis.names`): with reaching definitions it
names every definition of a variable apart and reads a variable as the `Phi` of the definitions that
reach the read, so a name reassigned under a divergent branch does not taint reads the reassignment
never reaches. Operators
are C's spelling (`<`, `==`, `&&`, `!`, `%`, `&`, `<<`, …); a Fortran front-end maps `.lt.`/`mod`/
`iand`/`btest` onto them.

What this module decides: dependence through assignments (all assignments to one name are joined),
arithmetic, loads indexed by dependent values, calls between units, control dependence on guarding
conditions; and the grade of a condition (`kernlint.analysis.grading`). Calls are context
sensitive: a unit is evaluated once per distinct tuple of argument taints it is called with (its
*instances*), so a helper called once with the id and elsewhere with uniform values returns a
uniform result at the uniform calls. A condition's grade is the strongest over the unit's instances.

Unknown stays unknown: a name the front-end never assigned is uniform (a kernel argument, a capture),
and a call to a function the program does not hold is as dependent as its arguments.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from kernlint.analysis.expressions import (  # noqa: F401  (re-exported: the front-ends' vocabulary)
    COMPARISONS,
    LOGICAL,
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
    strongest,
    sub_expressions,
)
from kernlint.analysis.grading import Evaluator
from kernlint.analysis.names import Name
from kernlint.analysis.trips import offset_trip_count, uniform_trip_count

_MAX_INSTANCES = 8  # contexts per unit; further call contexts share one widened instance
_WIDENED = "widened"
_OWN_RESULT = "<result>"  # stands for an instance's own result among the names its evaluation read


@dataclass
class _Condition:
    expr: Expr
    guards: tuple[Hashable, ...]
    loop_varying: frozenset[Name]
    kind: str
    floors: dict[Name, int]
    geometric: frozenset[Name] | None = None
    doubling: frozenset[Name] = frozenset()


@dataclass
class _Binding:
    callee: Hashable
    args: tuple[Expr | None, ...]
    guards: tuple[Hashable, ...]
    outputs: tuple[tuple[int, Name], ...]  # (parameter index, caller variable) for reference parameters


@dataclass
class Unit:
    """A kernel, device function or nested lambda: its parameters, assignments, returns, calls and
    conditions. Names a unit does not assign are looked up in its `parent` (a lambda's enclosing code).
    `env` and `result` join every instance's (after `Program.solve`)."""

    key: Hashable
    params: tuple[str, ...] = ()
    parent: Hashable | None = None
    _assignments: list[tuple[Name, Expr, tuple[Hashable, ...], bool, Hashable | None]] = field(default_factory=list)
    _returns: list[tuple[Expr, tuple[Hashable, ...]]] = field(default_factory=list)
    _bindings: list[_Binding] = field(default_factory=list)
    conditions: dict[Hashable, _Condition] = field(default_factory=dict)
    env: dict[Name, Taint] = field(default_factory=dict)
    external: dict[Name, Taint] = field(default_factory=dict)  # written by nested lambdas (`into`)
    result: Taint | None = None
    names: set[Name] = field(default_factory=set)
    group_size: int | None = None  # the work-group extent along the fastest dimension, when constant
    sub_group: int | None = None  # the sub-group size it requires, when it requires one

    def assign(
        self,
        name: Name,
        expr: Expr,
        guards: Sequence[Hashable] = (),
        compound: bool = False,
        into: Hashable | None = None,
    ) -> None:
        """`name = expr` (`compound`: `name op= expr`, which keeps the old value's dependence).
        `into`: the enclosing unit that owns `name`, when a lambda assigns a variable it captured.
        `guards`: conditions the value depends on wherever `name` is read."""
        self._assignments.append((name, expr, tuple(guards), compound, into))
        if into is None:
            self.names.add(name)

    def give_return(self, expr: Expr, guards: Sequence[Hashable] = ()) -> None:
        self._returns.append((expr, tuple(guards)))

    def bind_call(
        self,
        callee: Hashable,
        args: Sequence[Expr | None],
        guards: Sequence[Hashable] = (),
        outputs: Sequence[tuple[int, Name]] = (),
    ) -> None:
        """A call site: argument i flows into the callee's parameter i (None: not analysable);
        `outputs` (parameter index, caller variable) flow back for reference parameters."""
        self._bindings.append(_Binding(callee, tuple(args), tuple(guards), tuple(outputs)))
        self.names.update(variable for _index, variable in outputs)

    def condition(
        self,
        key: Hashable,
        expr: Expr,
        guards: Sequence[Hashable] = (),
        loop_varying: Iterable[Name] = (),
        kind: str = "if",
        floors: Mapping[Name, int] | None = None,
        geometric: Iterable[Name] | None = None,
        doubling: Iterable[Name] = (),
    ) -> None:
        """A condition to grade. `loop_varying`: names that change between iterations of the loops
        around it (for a loop's own condition, that loop included); `floors`: for some of them, a
        value the loop keeps them at or above (`for (s = 256; s >= 32; s >>= 1)`: 32); `kind` is
        "if", "ternary", "switch" (graded as a multi-way split) or "loop"; `geometric`: the loop-varying
        names the loops halve or double each step (`s >>= 1`), so that a bound of them shrinks the lanes
        geometrically and any other lets them leave one step apart (None: not known, read as halving);
        `doubling`: those of them the loops only double (`d *= 2`), so that the lanes grow instead."""
        self.conditions[key] = _Condition(
            expr,
            tuple(guards),
            frozenset(loop_varying),
            kind,
            dict(floors or {}),
            frozenset(geometric) if geometric is not None else None,
            frozenset(doubling),
        )


@dataclass
class _Instance:
    """A unit evaluated with one tuple of parameter taints."""

    unit: Unit
    context: tuple[Taint | None, ...]
    env: dict[Name, Taint] = field(default_factory=dict)
    result: Taint | None = None
    evaluated_at: int = -1  # the program's clock when its last evaluation began (-1: never evaluated)


class Program:
    """All units of a translation unit's device code; `solve()` then query `taint` and `grade`."""

    def __init__(self) -> None:
        self.units: dict[Hashable, Unit] = {}
        self._instances: dict[tuple[Hashable, Hashable], _Instance] = {}
        self._by_unit: dict[Hashable, list[_Instance]] = {}
        self._solving = False
        self._grown = False
        # grades of conditions per instance, with the generation they were graded in: valid while
        # nothing the instance reads grows (see `_grew`)
        self._grades: dict[tuple[int, Hashable], tuple[_Instance, Grade | None, int, frozenset[Name]]] = {}
        self._watchers: dict[Hashable, set[Hashable]] | None = None  # while solving: who reads each unit
        self._generation = 0  # how many times something grew
        # unit -> the last generation in which a unit it reads (see `_watched`) grew, while solving
        self._stale_at: dict[Hashable, int] = {}
        # what a remembered grade checks instead: the last growth of a unit a unit reads other than an
        # instance of its own setting a name, and when each instance last set each name
        self._foreign_at: dict[Hashable, int] = {}
        self._set_at: dict[tuple[int, Name], int] = {}
        self._grading: _Instance | None = None  # the instance whose condition is being graded
        self._grade_reads: set[Name] = set()  # the names its grading has read so far
        self._single: dict[Hashable, dict[Name, Expr | None]] = {}  # unit -> its singly assigned names
        self._controls: dict[tuple[int, tuple[Hashable, ...]], tuple[_Instance, int, Taint | None]] = {}
        # the instance being evaluated, the names its evaluation has read so far, and whether anything it
        # reads has grown since it began but the names it set before reading them (`_evaluate_fresh`)
        self._current: _Instance | None = None
        self._reads: set[Name] = set()
        self._fresh = False

    def unit(
        self,
        key: Hashable,
        params: Sequence[str] = (),
        parent: Hashable | None = None,
        group_size: int | None = None,
        sub_group: int | None = None,
    ) -> Unit:
        """The unit `key` (made on first use). `group_size`, `sub_group`: the constant work-group and
        required sub-group sizes it runs with, when known (`lid / 64` is then uniform in work-groups of 64)."""
        if key not in self.units:
            self.units[key] = Unit(key, tuple(params), parent, group_size=group_size, sub_group=sub_group)
        return self.units[key]

    # -- fixed point ------------------------------------------------------------------------------

    def solve(self, max_rounds: int = 64) -> None:
        """Propagate dependence until nothing changes (the lattice is finite, so this terminates).

        Units nobody calls (kernels, lambdas handed to library code) start with uniform parameters;
        the others get an instance per calling context as their callers are evaluated."""
        callees = self._callees()
        called = {key for keys in callees.values() for key in keys}
        self._solving = True
        self._grew()  # calls are answered differently while solving
        for unit in self.units.values():
            if unit.key not in called:
                self._instance(unit, ())
        self._watchers = {key: set() for key in self.units}
        for reader, keys in self._watched(callees).items():
            for key in keys:
                self._watchers.setdefault(key, set()).add(reader)
        for _ in range(max_rounds):
            self._grown = False
            for instance in list(self._instances.values()):
                # An instance whose inputs (its own unit, the units it reads names from, those it
                # calls) have not grown since its last evaluation would only repeat it: skipped.
                if instance.evaluated_at < 0 or self._stale_at.get(instance.unit.key, -1) > instance.evaluated_at:
                    instance.evaluated_at = self._generation
                    if self._evaluate_fresh(instance):
                        instance.evaluated_at = self._generation
            if not self._grown:
                orphans = [u for u in self.units.values() if u.key not in self._by_unit]
                if not orphans:
                    break
                for unit in orphans:  # only reached through calls from code outside the program
                    self._instance(unit, ())
        self._solving = False
        self._watchers = None
        self._grew()

    def _callees(self) -> dict[Hashable, set[Hashable]]:
        """The units each unit calls: at its call sites, and in the expressions it evaluates."""
        return {
            unit.key: {b.callee for b in unit._bindings}
            | {n.unit for n in sub_expressions(_expressions(unit)) if isinstance(n, Call) and n.unit is not None}
            for unit in self.units.values()
        }

    def _watched(self, callees: dict[Hashable, set[Hashable]]) -> dict[Hashable, set[Hashable]]:
        """For each unit, the units whose growth can change its evaluation: itself, the units around
        it (it reads their names), and the units it calls (their results and reference outputs)."""
        watched: dict[Hashable, set[Hashable]] = {}
        for unit in self.units.values():
            keys = {unit.key, *callees[unit.key]}
            parent, depth = unit.parent, 0
            while parent is not None and parent in self.units and depth < 16:
                keys.add(parent)
                parent, depth = self.units[parent].parent, depth + 1
            watched[unit.key] = keys
        return watched

    def _instance(self, unit: Unit, context: tuple[Taint | None, ...]) -> _Instance:
        context = tuple(context[: len(unit.params)]) + (None,) * (len(unit.params) - len(context))
        found = self._instances.get((unit.key, context))
        if found is not None:
            return found
        instances = self._by_unit.setdefault(unit.key, [])
        if len(instances) >= _MAX_INSTANCES:
            widened = self._instances.get((unit.key, _WIDENED))
            if widened is None:
                widened = self._instances[(unit.key, _WIDENED)] = _Instance(unit, context)
                instances.append(widened)
            else:
                widened.context = tuple(join(a, b) for a, b in zip(widened.context, context))
            self._seed(widened)
            return widened
        instance = self._instances[(unit.key, context)] = _Instance(unit, context)
        instances.append(instance)
        unseen = self._unseen(unit.key)
        self._seed(instance, own=unseen)
        self._grew(unit.key, own=unseen)
        return instance

    def _seed(self, instance: _Instance, own: bool = False) -> None:
        for name, value in zip(instance.unit.params, instance.context):
            self._update(instance, name, value, own)

    def _unseen(self, key: Hashable) -> bool:
        """Whether the evaluation under way can have read nothing a new instance of unit `key` changes:
        it reads another unit's instances only through calls made after they exist, and that unit's
        names only when it encloses the evaluated one (or is it)."""
        current = self._current
        if current is None:
            return False
        unit: Unit | None = current.unit
        for _ in range(17):  # as deep as `_lookup` climbs
            if unit is None or unit.key == key:
                return unit is None
            unit = self.units.get(unit.parent) if unit.parent is not None else None
        return False

    def _evaluate_fresh(self, instance: _Instance) -> bool:
        """`_evaluate`, and whether its answers are already final for the state it leaves: true when
        the only growth it met was its own setting of names it had not read yet. Each part of the pass
        then saw the values it would see again, so another pass would only repeat it (and is skipped);
        every other growth leaves the instance stale as before."""
        self._current, self._reads, self._fresh = instance, set(), True
        try:
            self._evaluate(instance)
        finally:
            self._current = None
        return self._fresh

    def _evaluate(self, instance: _Instance) -> None:
        """One pass over a unit's assignments, returns and call sites in one instance."""
        unit = instance.unit
        evaluator = self._evaluator(instance)
        for name, expr, guards, compound, into in unit._assignments:
            value = join(
                evaluator.taint(expr),
                self._control(instance, guards),
                self._lookup(instance, name) if compound else None,
            )
            if into is not None and into in self.units:
                target = self.units[into]
                merged = join(target.external.get(name), value)
                if merged is not None and merged != target.external.get(name):
                    target.external[name] = merged
                    self._grew(into)
            else:
                self._update(instance, name, value)
        for expr, guards in unit._returns:
            value = join(instance.result, evaluator.taint(expr), self._control(instance, guards))
            if value != instance.result:
                instance.result = value
                unit.result = join(unit.result, value)
                self._grew(unit.key, own=instance is self._current and _OWN_RESULT not in self._reads)
        for binding in unit._bindings:
            callee = self.units.get(binding.callee)
            if callee is None:
                continue
            args = [evaluator.taint(arg) if arg is not None else None for arg in binding.args]
            called = self._instance(callee, tuple(args))
            for index, variable in binding.outputs:
                if index < len(callee.params):
                    if called is self._current:  # a recursive call's output reads this instance's own names
                        self._reads.add(callee.params[index])
                    self._update(instance, variable, called.env.get(callee.params[index]))

    def _update(self, instance: _Instance, name: Name, value: Taint | None, own: bool = False) -> None:
        merged = join(instance.env.get(name), value)
        if merged is None or merged == instance.env.get(name):
            return
        instance.env[name] = merged
        widened = join(instance.unit.env.get(name), merged)
        assert widened is not None  # a join with a taint (`merged`) is never None
        instance.unit.env[name] = widened
        own = own or (instance is self._current and name not in self._reads)
        self._grew(instance.unit.key, own=own, by=(instance, name))

    def _lookup(self, instance: _Instance, name: Name) -> Taint | None:
        if instance is self._current:
            self._reads.add(name)
        if instance is self._grading:
            self._grade_reads.add(name)
        unit = instance.unit
        if name in unit.names or name in unit.params:
            return join(instance.env.get(name), unit.external.get(name))
        seen = 0
        while unit.parent is not None and unit.parent in self.units and seen < 16:
            unit = self.units[unit.parent]
            if name in unit.names or name in unit.params or name in unit.external:
                return join(unit.env.get(name), unit.external.get(name))
            seen += 1
        return unit.external.get(name) if unit is not instance.unit else None

    def _call(self, call: Call, args: tuple[Taint | None, ...]) -> Taint | None:
        callee = self.units.get(call.unit)
        if callee is None:
            return None
        if self._solving:
            called = self._instance(callee, args)
            if called is self._current:  # a recursive call reads the result this pass is making
                self._reads.add(_OWN_RESULT)
            return called.result
        context = tuple(args[: len(callee.params)]) + (None,) * (len(callee.params) - len(args))
        found = self._instances.get((callee.key, context))
        return found.result if found is not None else callee.result

    def _control(self, instance: _Instance, guards: tuple[Hashable, ...]) -> Taint | None:
        """What `guards` add to a value set under them; kept while nothing grows (the statements of one
        block share their guards, and the grades they would read again are the remembered ones)."""
        if not guards:  # most assignments are unguarded
            return None
        generation, known = self._generation, self._controls.get((id(instance), guards))
        if known is not None and known[0] is instance and known[1] == generation:
            return known[2]
        grade = strongest(*(self._grade_in(instance, guard) for guard in guards))
        taint = flag_of(grade) if grade is None or grade.dependence != "sub-group" else Taint("sub-group", grade.origin)
        self._controls[(id(instance), guards)] = (instance, generation, taint)  # (read back only if nothing grew)
        return taint

    def _evaluator(
        self,
        instance: _Instance,
        loop_varying: frozenset[Name] = frozenset(),
        floors: Mapping[Name, int] | None = None,
        geometric: frozenset[Name] | None = None,
        doubling: frozenset[Name] = frozenset(),
    ) -> Evaluator:
        return Evaluator(
            partial(self._lookup, instance),  # called for every variable read: no Python frame of its own
            self._call,
            loop_varying,
            floors,
            lambda name: self._definition(instance.unit, name),
            geometric,
            (instance.unit.group_size, instance.unit.sub_group),
            doubling,
        )

    def _grew(self, unit: Hashable | None = None, own: bool = False, by: tuple[_Instance, Name] | None = None) -> None:
        """Something the taints depend on changed (in `unit`, when given): another round is due, and
        the remembered grades that depend on it are stale (all of them, without a unit). `own`: the
        instance being evaluated set a name it has not read yet (see `_evaluate_fresh`); `by`: an
        instance of `unit` set this name (the unit's other grades did not read it: see `_still_valid`)."""
        self._grown = True
        self._generation += 1
        if unit is None or self._watchers is None:
            self._grades.clear()
            self._fresh = False
            return
        readers = self._watchers.get(unit, ())
        for reader in readers:
            self._stale_at[reader] = self._generation
            if by is None or reader != unit:
                self._foreign_at[reader] = self._generation
        if by is not None:
            self._set_at[(id(by[0]), by[1])] = self._generation
        if not own and self._current is not None and self._current.unit.key in readers:
            self._fresh = False

    def _grade_in(self, instance: _Instance, condition_key: Hashable) -> Grade | None:
        """The grade of a condition in one instance, remembered until a unit it reads grows: an
        assignment's guards are graded for every assignment they guard, in every round."""
        remembered = self._grades.get((id(instance), condition_key))
        if remembered is not None and remembered[0] is instance and self._still_valid(instance, *remembered[2:]):
            return remembered[1]
        generation = self._generation
        outer = self._grading, self._grade_reads
        self._grading, self._grade_reads = instance, set()
        try:
            grade = self._grade_now(instance, condition_key)
        finally:
            reads = self._grade_reads
            self._grading, self._grade_reads = outer
            if outer[0] is instance:
                outer[1].update(reads)
        if generation == self._generation:  # nothing grew while grading
            self._grades[(id(instance), condition_key)] = (instance, grade, generation, frozenset(reads))
        return grade

    def _still_valid(self, instance: _Instance, generation: int, reads: frozenset[Name]) -> bool:
        """Whether nothing the grade of `instance` read has grown since `generation`: no growth of a unit
        its unit reads but the setting of names by instances of its own unit, and none of the names
        it read set again by `instance` itself (outside `solve`, every growth clears the grades)."""
        if self._foreign_at.get(instance.unit.key, -1) > generation:
            return False
        key = id(instance)
        return all(self._set_at.get((key, name), -1) <= generation for name in reads)

    def _grade_now(self, instance: _Instance, condition_key: Hashable) -> Grade | None:
        condition = instance.unit.conditions.get(condition_key)
        if condition is None:
            return None
        evaluator = self._evaluator(
            instance, condition.loop_varying, condition.floors, condition.geometric, condition.doubling
        )
        if condition.kind == "switch":
            return evaluator.grade_switch(condition.expr)
        if condition.kind == "loop":
            resolve = lambda n: self._definition(instance.unit, n)  # noqa: E731
            uniform = lambda e: evaluator.taint(e) is None  # noqa: E731
            if uniform_trip_count(condition.expr, resolve, uniform) or offset_trip_count(
                condition.expr, resolve, uniform
            ):
                return None
        return evaluator.grade(condition.expr)

    def _definition(self, unit: Unit, name: Name) -> Expr | None:
        """The value of `name` when the unit assigns it exactly once (plainly)."""
        single = self._single.get(unit.key)
        if single is None:
            counts: dict[Name, int] = {}
            single = self._single[unit.key] = {}
            for n, e, _g, compound, into in unit._assignments:
                if into is None:
                    counts[n] = counts.get(n, 0) + 1
                    single[n] = None if compound else e
            for n, count in counts.items():
                if count > 1:
                    single[n] = None
        return single.get(name)

    def _instances_of(self, unit_key: Hashable) -> list[_Instance]:
        unit = self.units[unit_key]
        return self._by_unit.get(unit_key) or [_Instance(unit, (None,) * len(unit.params))]

    # -- queries ------------------------------------------------------------------------------------

    def taint(self, unit_key: Hashable, expr: Expr | None) -> Taint | None:
        """How `expr`, evaluated in `unit_key`, depends on the work-item id (None: uniform), in any
        of the unit's calling contexts."""
        return join(*(self._evaluator(i).taint(expr) for i in self._instances_of(unit_key)))

    def definition(self, unit_key: Hashable, name: Name) -> Expr | None:
        """The value a unit gives `name` when it assigns it exactly once, plainly (None otherwise): what
        later passes, such as the lane strides of `kernlint.analysis.strides`, follow a variable through."""
        unit = self.units.get(unit_key)
        return self._definition(unit, name) if unit is not None else None

    def returned(self, unit_key: Hashable) -> Expr | None:
        """What a unit returns when it has one unguarded `return` (a helper such as `idx(i, j)`)."""
        unit = self.units.get(unit_key)
        if unit is None or len(unit._returns) != 1 or unit._returns[0][1]:
            return None
        return unit._returns[0][0]

    def grade(self, unit_key: Hashable, condition_key: Hashable) -> Grade | None:
        """The grade of a registered condition (None: uniform, or not registered), the strongest over
        the unit's calling contexts."""
        if unit_key not in self.units:
            return None
        return strongest(*(self._grade_in(i, condition_key) for i in self._instances_of(unit_key)))

    def grade_expr(
        self,
        unit_key: Hashable,
        expr: Expr,
        loop_varying: Iterable[Name] = (),
        floors: Mapping[Name, int] | None = None,
    ) -> Grade | None:
        """The grade of an ad-hoc condition evaluated in `unit_key`."""
        return strongest(
            *(self._evaluator(i, frozenset(loop_varying), floors).grade(expr) for i in self._instances_of(unit_key))
        )


def _expressions(unit: Unit) -> list[Expr | None]:
    found: list[Expr | None] = [e for _n, e, _g, _c, _i in unit._assignments]
    found += [e for e, _g in unit._returns]
    found += [a for b in unit._bindings for a in b.args]
    return found + [c.expr for c in unit.conditions.values()]
