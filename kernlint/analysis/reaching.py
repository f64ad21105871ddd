"""Reaching definitions over structured code, for the work-item dependence analysis.

Language-neutral: a front-end walks its syntax in evaluation order and tells a `Flow` what happens
(`define`, `use`, `barrier`), where control forks and joins (`fork` / `merge`), where loops are
(`loop`, which runs the walker of the body again until the definitions reaching its head stop
changing) and where jumps leave (`jump`). `Flow.uses` then holds, for every use, the definitions
that may reach it. Reading a variable through the definitions that reach the read, rather than
through every assignment of its name, keeps a value assigned under a divergent branch from
tainting reads that the assignment never reaches (`k` of `for (k = 0; k < 16; ++k)` after a
`k = lid` elsewhere in the kernel).

`ENTRY` stands for the value a variable has on entry (a parameter, a capture, an uninitialised
local); `BARRIER` for the value of shared memory right after a work-group barrier (every store
before it is complete and visible to the whole group).

    flow = Flow(shared={"next"})
    first, step = DefinitionKey("i", 1), DefinitionKey("i", 3)
    flow.define("i", first)                      # int i = lid;
    flow.loop(lambda: (flow.use("i", "use@2"),   # while (i < n) { … i += wg; }
                       flow.define("i", step)))
    flow.uses["use@2"]                           # {first, step}

Variables and definitions are whatever the front-end names them with (`kernlint.analysis.names`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, field
from typing import Any

from kernlint.analysis.names import DefinitionKey

ENTRY = "<entry>"
BARRIER = "<barrier>"
_MAX_ITERATIONS = 8
_ENTRY_ONLY: frozenset[Hashable] = frozenset({ENTRY})  # a variable no definition reached: made once

State = dict[Hashable, frozenset[Hashable]]  # variable -> the definitions that may reach here
# A walk of nested code that never recurses: it yields each nested walk it needs run, `drive` runs that
# one to its end and resumes it with the result. However deep the code nests, the Python stack does not.
Steps = Generator["Steps", Any, Any]
Stepper = Callable[[], Steps]


def drive(walk: Steps) -> Any:
    """Run `walk` and every walk it yields, depth first, with a stack of our own; its result."""
    stack = [walk]
    result: Any = None
    while stack:
        try:
            nested = stack[-1].send(result)
        except StopIteration as done:
            stack.pop()
            result = done.value
            continue
        stack.append(nested)
        result = None
    return result


def _walk_of(callback: Callable[[], None]) -> Stepper:
    """A walker that runs a plain callback (which may recurse on its own)."""

    def walk() -> Steps:
        callback()
        yield from ()

    return walk


def source_order(definition: Hashable) -> tuple[int, int, str]:
    """Sort key of the definitions reaching a read: shared memory after a barrier, the value on entry,
    then each `DefinitionKey` where it is made. The read's `Phi` lists them so, and of equally
    dependent options the first names the origin."""
    if isinstance(definition, DefinitionKey):
        return (2, definition.at, definition.how)
    return (0 if definition == BARRIER else 1, 0, "")


def _merge(a: State | None, b: State | None) -> State | None:
    """The definitions reaching a join of two paths (None: a path that never gets there)."""
    if a is None:
        return None if b is None else dict(b)
    if b is None:
        return dict(a)
    merged: State = {}
    theirs_of = b.get
    for name, mine in a.items():
        theirs = theirs_of(name, _ENTRY_ONLY)
        merged[name] = mine if mine is theirs else mine | theirs  # the same set on both paths: itself
    for name, theirs in b.items():
        if name not in a:  # on entry along the other path
            merged[name] = theirs if theirs is _ENTRY_ONLY else _ENTRY_ONLY | theirs
    return merged


@dataclass
class _Loop:
    breaks: list[State] = field(default_factory=list)
    continues: list[State] = field(default_factory=list)
    switch: bool = False  # a `switch`: `break` leaves it, `continue` goes to the loop around it


@dataclass
class Flow:
    """The definitions reaching the current point of a walk, and those that reached each use."""

    shared: set[Hashable] = field(default_factory=set)  # variables that name shared (work-group) memory
    state: State | None = field(default_factory=dict)
    uses: dict[Hashable, frozenset[Hashable]] = field(default_factory=dict)
    _loops: list[_Loop] = field(default_factory=list)
    _returns: list[State] = field(default_factory=list)
    _heads: dict[Hashable, State] = field(default_factory=dict)  # a loop's key -> the state at its head, last time

    # -- straight-line code ---------------------------------------------------------------------

    def define(self, name: Hashable, definition: Hashable, strong: bool = True) -> None:
        """`name` gets a new value here (`strong` False: it may, as through a reference argument)."""
        if self.state is None:
            return
        old = self.state.get(name, _ENTRY_ONLY) if not strong else frozenset()
        self.state[name] = old | {definition}

    def use(self, name: Hashable, at: Hashable) -> frozenset[Hashable]:
        """`name` is read at `at`: record (and return) the definitions that may reach it."""
        reaching = _ENTRY_ONLY if self.state is None else self.state.get(name, _ENTRY_ONLY)
        self.uses[at] = self.uses.get(at, frozenset()) | reaching
        return reaching

    def barrier(self) -> None:
        """A work-group barrier: shared memory holds what was stored before it, for every work-item."""
        if self.state is None:
            return
        for name in self.shared:
            self.state[name] = frozenset({BARRIER})

    # -- control flow ---------------------------------------------------------------------------

    def fork(self) -> State | None:
        """The state at a fork, to restore for each alternative path."""
        return dict(self.state) if self.state is not None else None

    def restore(self, state: State | None) -> None:
        self.state = dict(state) if state is not None else None

    def merge(self, *others: State | None) -> None:
        """Join the current path with other paths that reach the same point."""
        for other in others:
            self.state = _merge(self.state, other)

    def jump(self, kind: str) -> None:
        """`break`, `continue` or `return`: the current path leaves; code after it is unreachable."""
        if self.state is None:
            return
        if kind == "return" or not self._loops:
            self._returns.append(self.state)
        elif kind == "break":
            self._loops[-1].breaks.append(self.state)
        else:
            loops = [frame for frame in self._loops if not frame.switch]
            (loops[-1].continues if loops else self._returns).append(self.state)
        self.state = None

    def block(self, body: Callable[[], None]) -> None:
        """A `switch` body: a `break` in it leaves it, to the code right after it."""
        drive(self.blocking(_walk_of(body)))

    def blocking(self, body: Stepper) -> Steps:
        """`block` for a walker that yields the walks it needs run (see `drive`)."""
        frame = _Loop(switch=True)
        self._loops.append(frame)
        yield body()
        self._loops.pop()
        self.merge(*frame.breaks)

    def loop(
        self,
        body: Callable[[], None],
        test: Callable[[], None] | None = None,
        update: Callable[[], None] | None = None,
        test_first: bool = True,
    ) -> None:
        """A loop: `test` (evaluated before the body when `test_first`, else after it, as in
        do-while), `body`, `update` (a `for` loop's increment). The walkers run until the state at
        the loop head is stable; afterwards the state is the one that leaves the loop."""
        drive(
            self.looping(
                _walk_of(body),
                _walk_of(test) if test is not None else None,
                _walk_of(update) if update is not None else None,
                test_first,
            )
        )

    def looping(
        self,
        body: Stepper,
        test: Stepper | None = None,
        update: Stepper | None = None,
        test_first: bool = True,
        key: Hashable | None = None,
    ) -> Steps:
        """`loop` for walkers that yield the walks they need run (see `drive`). A loop inside another is
        walked again for each round of the outer one; given its `key`, it starts from the state its
        head reached last time (joined with the new entry) rather than from scratch. The states only
        grow from round to round, so that start is still below the fixpoint, and the answer is the same,
        but a nest of loops costs rounds in proportion to its depth, not 2 to the power of it."""
        entry = self.state
        head = entry
        if key is not None and entry is not None and key in self._heads:
            head = _merge(entry, self._heads[key])
        leaving: State | None = None
        for _ in range(_MAX_ITERATIONS):
            self.restore(head)
            frame = _Loop()
            self._loops.append(frame)
            if test_first and test is not None:
                yield test()
            after_test = self.fork() if test is not None else None  # `for (;;)` leaves by `break` only
            yield body()
            self.merge(*frame.continues)
            if not test_first and test is not None:
                yield test()
                after_test = self.fork()
            if update is not None:
                yield update()
            self._loops.pop()
            leaving = _merge(after_test, None)
            for state in frame.breaks:
                leaving = _merge(leaving, state)
            following = _merge(entry, self.state)
            if following == head:
                break
            head = following
        if key is not None and head is not None:
            self._heads[key] = head
        self.state = leaving

    def finish(self) -> State | None:
        """The state at the end of the walked code, every `return` included."""
        state = self.state
        for other in self._returns:
            state = _merge(state, other)
        return state
