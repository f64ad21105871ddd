"""Fact dataclasses. Each says what was found and where; `None` always means "not known"."""

from __future__ import annotations

from dataclasses import field
from functools import cached_property

from kernlint.facts.accessor_uses import AccessorUses
from kernlint.facts.base import Extent, Span
from kernlint.facts.coverage import Coverage
from kernlint.facts.device import Branch, Reach, SubGroupBlockAccess
from kernlint.facts.host import HostFlow, UsmAllocation
from kernlint.facts.kinds import (
    AccessMode,
    AccessorForm,
    AccessTarget,
    BarrierScope,
    BufferForm,
    IndexType,
    KernelBodyKind,
    KernelLink,
    Language,
    LaunchApi,
    LaunchVia,
    LoopKind,
    QueueArgument,
    RangeKind,
    Side,
)
from kernlint.facts.memory import MemoryAccess
from kernlint.facts.openmp import OmpConstruct
from kernlint.facts.span_index import SpanIndex
from kernlint.records import record


@record(slots=True)
class KernelAttributes:
    """Kernel attributes in either `[[intel::…]]` or `[[sycl::…]]` spelling."""

    reqd_sub_group_size: int | None = None
    reqd_sub_group_size_text: str | None = None
    reqd_work_group_size: Extent | None = None
    kernel_args_restrict: bool = False
    span: Span | None = None
    reqd_sub_group_size_span: Span | None = None  # the size argument as written, for a fix that changes it


@record(slots=True)
class KernelLaunch:
    """A `parallel_for` / `single_task` / `parallel_for_work_group` launch, or (`link` "unlaunched",
    `via` None) a kernel found by what it is, whose launch the file does not show: its sizes are unknown,
    and it is analysed for what needs none (divergence, memory access)."""

    api: LaunchApi
    via: LaunchVia | None  # None: no launch seen (`link` "unlaunched")
    span: Span
    name: str | None  # kernel name template argument or functor type
    range_kind: RangeKind | None  # None for single_task or when unknown
    global_range: Extent | None
    local_range: Extent | None
    attributes: KernelAttributes
    body: Span | None  # lambda body or functor operator() body
    body_kind: KernelBodyKind | None
    index_param: str | None  # the lambda/operator() parameter name (`it`, `i`, …)
    index_type: IndexType | None
    command_group: Span | None  # the enclosing `submit` lambda, when launched through a handler
    function: str | None  # the enclosing function's name
    # The kernel body plus the bodies of functions it calls (defined in the file): its device code.
    regions: tuple[Span, ...] = ()
    # The template instantiation this launch runs, as clang names it (`Reduce<32>`, `launch<1024>`),
    # when its sizes are that instantiation's template arguments; None otherwise (and from tree-sitter).
    instantiation: str | None = None
    # A launch written in a function template whose sizes differ per instantiation: the launch as each
    # instantiation runs it (its sizes known, `instantiation` set). Empty when not known per instantiation.
    instances: tuple[KernelLaunch, ...] = ()
    # Its device code holds a grid-stride loop (`for (i = gid; i < n; i += global size)`): written for
    # more data than the launch has work-items, so its size is a choice, not the problem's.
    grid_stride: bool = False
    # How the kernel was found (see `KernelLink`); None: it was not found (`link_note` says why).
    link: KernelLink | None = "inline"
    # For `header`, the header that defines the kernel; for a kernel not found, why not.
    link_note: str | None = None

    @property
    def launched(self) -> bool:
        """Whether this fact is a launch the file makes (not a kernel seen without its launch)."""
        return self.via is not None

    def covers(self, span: Span) -> bool:
        """Whether `span` lies in this kernel's device code (body or a function it calls)."""
        return any(region.contains(span) for region in self.code_spans())

    def code_spans(self) -> tuple[Span, ...]:
        """This kernel's device code: its regions, else its body (what `covers` tests)."""
        return _device_code(self)


@record(slots=True)
class Buffer:
    """A `sycl::buffer` construction (declaration, `auto b = buffer(…)`, CTAD or temporary)."""

    span: Span
    name: str | None
    form: BufferForm
    has_host_data: bool | None  # constructed over host memory (copy in/out) or from a range only
    in_device_code: bool
    extent: Extent | None = None  # the buffer's range, when it is written in the construction
    function: str | None = None  # the enclosing function's name
    # it outlives the loop iteration it is built in: stored in a container or an outer variable, or
    # allocated with `new` and not deleted there (a setup loop building one buffer per item)
    kept: bool = False


@record(slots=True)
class Accessor:
    """A buffer accessor as created in a command group or on the host."""

    span: Span
    name: str | None
    buffer: str | None
    mode: AccessMode | None  # None: not written (the default)
    mode_spelling: str | None  # as written, e.g. "sycl::access::mode::read_write" or "sycl::read_only"
    mode_span: Span | None  # where the mode is written, for fixes
    form: AccessorForm
    properties: tuple[str, ...]  # e.g. ("no_init",)
    target: AccessTarget
    command_group: Span | None
    uses: AccessorUses | None = None  # how the kernel uses it; None when not analysed
    # Where the mode's spelling names the SYCL 1.2.1 enumeration `access::mode` (renamed `access_mode`
    # in SYCL 2020), within `mode_span`; None when it does not.
    mode_enum_span: Span | None = None
    # The namespace a SYCL 2020 tag is qualified with as written (`sycl::`, `cl::sycl::`, "" when
    # unqualified); None when the mode is not a plain tag (`access::mode::read`, `access_mode::read`).
    mode_namespace: str | None = None


@record(slots=True)
class LocalAllocation:
    """Work-group local memory: a `local_accessor`, or an accessor with the `target::local` target."""

    span: Span
    name: str | None
    element_type: str | None
    extent: Extent | None
    bytes: int | None
    form: str  # the class constructed: `local_accessor`, or `accessor` for a target::local accessor
    command_group: Span | None


@record(slots=True)
class Barrier:
    """A work-group or sub-group barrier in device code, or a group collective (`reduce_over_group`,
    `group_broadcast`, `joint_*`…), which every member of its group must reach as it must a barrier."""

    span: Span
    form: str  # as called: `item.barrier`, `sg.barrier`, `group_barrier`, `reduce_over_group`
    scope: BarrierScope
    collective: bool = False  # a group algorithm rather than a barrier


@record(slots=True)
class Loop:
    """A loop with its kind and whether it runs on the host or inside a kernel."""

    span: Span
    kind: LoopKind
    side: Side
    # How many times the body runs, when constant (`for (i = 0; i < 1; ++i)` and `do … while (0)` run
    # once); read only for host loops around a buffer, a queue or a call the loop rules look at.
    trip_count: int | None = None

    @property
    def repeats(self) -> bool:
        """Whether the body may run more than once (what a cost per iteration needs)."""
        return self.trip_count is None or self.trip_count > 1


@record(slots=True)
class QueueConstruction:
    """A `sycl::queue` constructed in the file (a new context unless one is passed)."""

    span: Span
    name: str | None
    arguments: tuple[str, ...] = ()  # the constructor arguments as written
    # What each argument supplies, read from its text and, for a variable of the file, its declared type.
    argument_kinds: tuple[QueueArgument, ...] = ()
    # Where it is stored, when one of an array or container of queues (`qs[i] = queue(…)`,
    # `qs.push_back(queue(…))`, `new queue[n]`): `qs[i]`, `qs`. None for a queue of its own.
    element_of: str | None = None

    @property
    def creates_context(self) -> bool:
        """Whether the construction certainly creates a context of its own: every argument is known
        and none supplies a context (or a queue whose context it would share)."""
        return all(kind in ("selector", "device", "property", "handler") for kind in self.argument_kinds)


@record(slots=True)
class FunctionCall:
    """A call, on the host, of a function the file defines (for rules that follow one call level)."""

    span: Span
    callee: str


@record(slots=True)
class Pragma:
    """A raw `#pragma` line (continuations included), parsed later by the OpenMP layer."""

    span: Span
    text: str  # the pragma's argument text, e.g. "omp target teams map(to: a[0:n])"


@record(slots=True)
class Preprocessor:
    """What code written into a C/C++ file must fit, as the preprocessor sees it."""

    macros: frozenset[str] = frozenset()  # the names the file and its quoted includes #define (any kind)
    includes: tuple[str, ...] = ()  # what it #includes, as written: `<algorithm>`, `"kernels.h"`
    include_line: int = 1  # a new `#include` line inserted before this line is compiled by every build


@record(slots=True)
class LimitReached:
    """A place where an analysis stopped at one of its bounds (an expression nested deeper than it
    reads, calls deeper than it follows): findings that depend on what it did not read may be missing.
    The engine reports each as a KL000 info, so that nothing is dropped without a word."""

    span: Span
    message: str  # what was not read and the bound, e.g. "an expression nested more than 120 levels deep …"


@record
class FileFacts:
    """All facts of one translation unit, plus the syntax-error regions the parser reported."""

    path: str
    language: Language
    launches: tuple[KernelLaunch, ...] = ()
    buffers: tuple[Buffer, ...] = ()
    accessors: tuple[Accessor, ...] = ()
    local_allocations: tuple[LocalAllocation, ...] = ()
    barriers: tuple[Barrier, ...] = ()
    loops: tuple[Loop, ...] = ()
    queues: tuple[QueueConstruction, ...] = ()
    pragmas: tuple[Pragma, ...] = ()
    branches: tuple[Branch, ...] = ()
    block_accesses: tuple[SubGroupBlockAccess, ...] = ()
    memory_accesses: tuple[MemoryAccess, ...] = ()
    omp: tuple[OmpConstruct, ...] = ()
    syntax_errors: tuple[Span, ...] = ()
    dependencies: tuple[str, ...] = field(default=())
    calls: tuple[FunctionCall, ...] = ()  # host calls of the file's own functions, made inside host loops
    coverage: Coverage = field(default_factory=Coverage)  # what the front-end saw of the file's kernels
    limits: tuple[LimitReached, ...] = ()  # where an analysis stopped at one of its bounds
    preprocessor: Preprocessor = Preprocessor()  # C/C++: its includes and macros
    compiled_as_c: bool = False  # C/C++: a C compiler reads it (a `.c` file, or a header one includes)
    host_flows: tuple[HostFlow, ...] = ()  # functions that hold device work, step by step (facts.host)
    usm: tuple[UsmAllocation, ...] = ()  # SYCL USM allocations

    def enclosing_loops(self, span: Span, side: Side = "host") -> list[Loop]:
        """The loops of the given side that contain `span`, innermost first."""
        around = [loop for loop in self._loop_index.containing(span) if loop.side == side and loop.span != span]
        return sorted(around, key=lambda loop: loop.span.end_byte - loop.span.start_byte)

    def repeating_loop(self, span: Span, side: Side = "host") -> Loop | None:
        """The innermost loop around `span` whose body may run more than once."""
        return next((loop for loop in self.enclosing_loops(span, side) if loop.repeats), None)

    def launch_for(self, span: Span) -> KernelLaunch | None:
        """The kernel whose device code contains `span` (innermost body first)."""
        candidates = set(self._launch_index.containing(span))
        if not candidates:
            return None
        return self.launches[min(candidates, key=lambda k: (_body_size(self.launches[k]), k))]

    def barriers_in(self, launch: KernelLaunch) -> list[Barrier]:
        """The barriers in the launch's device code (its body and the functions it calls), in file order."""
        found = {k for region in _device_code(launch) for k in self._barrier_index.inside(region)}
        return [self.barriers[k] for k in sorted(found)]

    def local_allocations_of(self, command_group: Span) -> list[LocalAllocation]:
        """The local allocations made in the command group `command_group`."""
        return self._allocations_by_group.get(command_group, [])

    def buffers_in(self, function: str) -> list[Buffer]:
        """The buffers constructed in the function named `function`, in file order."""
        return self._buffers_by_function.get(function, [])

    def accessors_over(self, buffer: str) -> list[Accessor]:
        """The accessors whose buffer is written `buffer`, in file order."""
        return self._accessors_by_buffer.get(buffer, [])

    def constructs_around(self, span: Span) -> list[OmpConstruct]:
        """The OpenMP constructs whose region contains `span` (the construct at `span` itself excepted),
        outermost first."""
        found = [c for c in self._region_index.containing(span) if c.span != span]
        return sorted(found, key=lambda c: (c.region.start_byte, -c.region.end_byte))  # type: ignore[union-attr]

    def constructs_inside(self, region: Span) -> list[OmpConstruct]:
        """The OpenMP constructs (directives) written inside `region`, in file order."""
        return self._construct_index.inside(region)

    def guarding(self, span: Span) -> list[tuple[Branch, Reach]]:
        """Each branch with each of its reaches (the code it guards and the device functions called
        from there) that contains `span`, in the order of the branches and their reaches."""
        return self._reach_index.containing(span)

    def skipping(self, span: Span) -> list[tuple[Branch, Reach]]:
        """Each branch with an early exit, with each part of the code the exit skips that contains
        `span`, in the order of the branches and their skipped parts."""
        return self._skip_index.containing(span)

    # Indexes for the questions above, built on first use: a scan of every fact for every question
    # would cost the square of the file's size.

    @cached_property
    def _loop_index(self) -> SpanIndex[Loop]:
        return SpanIndex((loop.span, loop) for loop in self.loops)

    @cached_property
    def _launch_index(self) -> SpanIndex[int]:
        return SpanIndex((region, k) for k, launch in enumerate(self.launches) for region in _device_code(launch))

    @cached_property
    def _barrier_index(self) -> SpanIndex[int]:
        return SpanIndex((barrier.span, k) for k, barrier in enumerate(self.barriers))

    @cached_property
    def _reach_index(self) -> SpanIndex[tuple[Branch, Reach]]:
        return SpanIndex((reach.region, (branch, reach)) for branch in self.branches for reach in branch.reaches)

    @cached_property
    def _skip_index(self) -> SpanIndex[tuple[Branch, Reach]]:
        return SpanIndex(
            (reach.region, (branch, reach)) for branch in self.branches if branch.exit for reach in branch.skipped
        )

    @cached_property
    def _region_index(self) -> SpanIndex[OmpConstruct]:
        return SpanIndex((c.region, c) for c in self.omp if c.region is not None)

    @cached_property
    def _construct_index(self) -> SpanIndex[OmpConstruct]:
        return SpanIndex((c.span, c) for c in self.omp)

    @cached_property
    def _buffers_by_function(self) -> dict[str, list[Buffer]]:
        found: dict[str, list[Buffer]] = {}
        for buffer in self.buffers:
            if buffer.function is not None:
                found.setdefault(buffer.function, []).append(buffer)
        return found

    @cached_property
    def _accessors_by_buffer(self) -> dict[str, list[Accessor]]:
        found: dict[str, list[Accessor]] = {}
        for accessor in self.accessors:
            if accessor.buffer is not None:
                found.setdefault(accessor.buffer, []).append(accessor)
        return found

    @cached_property
    def _allocations_by_group(self) -> dict[Span, list[LocalAllocation]]:
        groups: dict[Span, list[LocalAllocation]] = {}
        for allocation in self.local_allocations:
            if allocation.command_group is not None:
                groups.setdefault(allocation.command_group, []).append(allocation)
        return groups


def _device_code(launch: KernelLaunch) -> tuple[Span, ...]:
    """What `KernelLaunch.covers` tests: the launch's regions, else its body."""
    return launch.regions or ((launch.body,) if launch.body else ())


def _body_size(launch: KernelLaunch) -> int:
    return (launch.body.end_byte - launch.body.start_byte) if launch.body else 1 << 62
