"""The host side of offload: what a host function does around its device work, step by step.

A rule about transfers and waits asks questions of the host program's order: does the host read what a
kernel wrote before the next wait? does it change an array between copying it back and copying it out
again? The front-ends answer with a `HostFlow` per function that holds device work: its host loops and
its steps in the order they run, each saying which data (by variable name) it reads and writes.

Steps are device work (`launch`: a kernel submission, an OpenMP target region or a call of a function
of the file that submits device work; `copy`: an explicit copy, fill or OpenMP data motion), blocking
waits, host code touching data a device step also touches (`use`), clock reads (`timer`) and calls of
functions of the file whose effect the model does not follow (`call`). Host code that touches no data
any device step touches is left out: it cannot make a wait needed or a copy stale, and so are uses
outside the loops that hold device work, except of data a copy moves (what happens before or after
a loop matters only to a copy made there). What a SYCL launch outside every host loop reads and
writes is not read either: no rule asks of work that does not repeat. Names are the variables as
written (Fortran: lower-cased); `None` always means "not known".
"""

from __future__ import annotations

from typing import Literal

from kernlint.facts.base import Span
from kernlint.facts.kinds import LoopKind
from kernlint.records import record

#: What one step of a host flow is.
HostStepKind = Literal["launch", "copy", "wait", "use", "timer", "call"]
#: Which way a copy moves data: host to device, device to host, within the device, or not known. A
#: side the file does not show as device memory (a pointer parameter) counts as the host's.
CopyDirection = Literal["to-device", "to-host", "on-device", "unknown"]
#: What a USM allocation returns: memory the host and device share, device memory, or pinned host memory.
UsmKind = Literal["shared", "device", "host"]


@record(slots=True)
class HostStep:
    """One thing a host function does that matters to data movement, in the order it runs.

    `reads`/`writes` are the data the step reads and writes: for a launch the arrays its device code
    reads and writes (both when unknown), for a copy its source and destination, for a use what the
    host reads and writes, for a call the names it is passed (both). `form` is how it is written, for
    messages (`q.wait()`, `q.memcpy`, `#pragma omp taskwait`). `loops` are indices into the flow's
    `loops` of the host loops around the step, innermost first; `conditional` says an `if`, `switch`
    or `?:` inside the innermost of them (or the function) guards it. A use step of a loop's condition
    is placed after the loop's body: that is when the condition decides whether to go round again.
    """

    span: Span
    kind: HostStepKind
    form: str
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    loops: tuple[int, ...] = ()
    conditional: bool = False
    direction: CopyDirection | None = None  # copies
    bytes: int | None = None  # copies: what one copy moves, when known
    size_text: str | None = None  # copies: the size as written (`n * sizeof(float)`)
    construct: int | None = None  # the OpenMP construct this step is: an index into FileFacts.omp
    callee: str | None = None  # launch through a call, or call: the function of the file called
    # A launch through a call, or a call: each argument's variable when it is one (`a`; None for `a + k`).
    arguments: tuple[str | None, ...] = ()
    # A launch or copy: the host values it takes when submitted (scalars a kernel captures, a copy's
    # size), read by the host then: a wait before it is needed when the device wrote one of them.
    values: tuple[str, ...] = ()
    reduces: bool = False  # a use that folds the array it reads into a value (`s += p[i]` in a loop)
    per_group: tuple[str, ...] = ()  # a launch: arrays it writes one element of per work-group (`p[g.get_group(0)]`)
    blocking: bool = False  # a copy that waits for itself (`q.memcpy(…).wait()`, an OpenMP `target update`)
    # A wait for all the work submitted before it (a queue's `wait()`, a wait on an in-order queue's
    # operation, `taskwait`), not for one operation or one buffer.
    waits_all: bool = False

    def touches(self, name: str) -> bool:
        return name in self.reads or name in self.writes


@record(slots=True)
class HostLoop:
    """A host loop of a flow: its trip count when constant, else its bound as written (`repeat`)."""

    span: Span
    kind: LoopKind
    trip_count: int | None = None
    bound: str | None = None

    @property
    def repeats(self) -> bool:
        """Whether the body may run more than once."""
        return self.trip_count is None or self.trip_count > 1


@record(slots=True)
class HostFlow:
    """A function that holds device work: its parameters, its host loops and its steps in order."""

    function: str | None
    span: Span
    parameters: tuple[str, ...] = ()
    loops: tuple[HostLoop, ...] = ()
    steps: tuple[HostStep, ...] = ()

    def innermost_loop(self, step: HostStep) -> HostLoop | None:
        """The innermost loop around `step` whose body may run more than once."""
        return next((self.loops[i] for i in step.loops if self.loops[i].repeats), None)

    def in_loop(self, loop: int) -> list[int]:
        """The positions (in `steps`) of the steps inside loop `loop`, in order."""
        return [position for position, step in enumerate(self.steps) if loop in step.loops]


@record(slots=True)
class UsmAllocation:
    """A SYCL USM allocation (`sycl::malloc_shared<float>(n, q)`, `malloc_device(bytes, q)`)."""

    span: Span
    name: str | None  # the variable it is stored in
    kind: UsmKind
    element_bytes: int | None = None
    count: int | None = None  # elements, when constant
    bytes: int | None = None
    function: str | None = None
