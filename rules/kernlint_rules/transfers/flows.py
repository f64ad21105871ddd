"""Walking a host flow as the rules of the family need it: the loop a step repeats in, the steps an
iteration runs after it (the rest of the body, the loop's condition, then the next iteration up to it),
what the host reads and writes there, and the words for a loop in a message."""

from __future__ import annotations

from collections.abc import Iterable

from kernlint.facts import FileFacts, HostFlow, HostLoop, HostStep

LOOP_WORDS = {
    "for": "`for` loop",
    "range-for": "range-based `for` loop",
    "while": "`while` loop",
    "do": "`do … while` loop",
}


def repeating_loop(flow: HostFlow, step: HostStep) -> int | None:
    """The index (in `flow.loops`) of the innermost loop around `step` whose body may run more than once."""
    return next((index for index in step.loops if flow.loops[index].repeats), None)


def cycle(flow: HostFlow, position: int, loop: int) -> list[int]:
    """The positions of the steps of `loop` that run after the step at `position`, in order: the rest
    of the iteration, then the next iteration's steps up to it."""
    inside = flow.in_loop(loop)
    return [p for p in inside if p > position] + [p for p in inside if p < position]


def host_access(steps: Iterable[HostStep], name: str) -> tuple[bool, bool]:
    """Whether the host reads and whether it writes `name` in `steps` (its uses and opaque calls)."""
    reads = writes = False
    for step in steps:
        if step.kind in ("use", "call"):
            reads = reads or name in step.reads
            writes = writes or name in step.writes
    return reads, writes


_FORTRAN_LOOP_WORDS = {"for": "`do` loop", "while": "`do while` loop", "range-for": "`do` loop", "do": "`do` loop"}


def loop_phrase(loop: HostLoop, language: str = "") -> str:
    """ "the `for` loop at line 12" (in Fortran, "the `do` loop …")."""
    words = _FORTRAN_LOOP_WORDS if language == "openmp-fortran" else LOOP_WORDS
    return f"the {words[loop.kind]} at line {loop.span.line}"


def directive(language: str, text: str) -> str:
    """An OpenMP directive as the language writes it: `#pragma omp …` or `!$omp …`."""
    return f"!$omp {text}" if language == "openmp-fortran" else f"#pragma omp {text}"


def iterations(loop: HostLoop) -> str:
    """ "100 iterations", "`repeat` iterations", or "every iteration"."""
    if loop.trip_count is not None:
        return f"{loop.trip_count} iterations"
    return f"`{loop.bound}` iterations" if loop.bound else "every iteration"


def loop_evidence(loop: HostLoop) -> dict[str, object]:
    return {"loop_line": loop.span.line, "loop_kind": loop.kind, "trip_count": loop.trip_count, "bound": loop.bound}


def mapped_by_callers(facts: FileFacts, flow: HostFlow, name: str) -> bool | None:
    """For a parameter `name` of `flow`'s function: whether every call of the function in the file
    (there is one at least) is inside a `target data` region mapping its argument, or a `target enter
    data` maps it (True); whether none is (False). None when the function is not called in the file
    (a caller elsewhere may map it) or `name` is no parameter."""
    if name not in flow.parameters or flow.function is None:
        return None
    position = flow.parameters.index(name)
    calls = [s for f in facts.host_flows for s in f.steps if s.callee == flow.function]
    if not calls:
        return None
    entered = {
        m.item.name
        for c in facts.omp
        if c.directive is not None and c.directive.kind == "target enter data"
        for m in c.directive.map_items
    }
    for call in calls:
        argument = call.arguments[position] if position < len(call.arguments) else None
        around = {
            m.item.name
            for outer in facts.constructs_around(call.span)
            if outer.directive is not None and "target data" in outer.leaves
            for m in outer.directive.map_items
        }
        if argument is None or (argument not in around and argument not in entered):
            return False
    return True
