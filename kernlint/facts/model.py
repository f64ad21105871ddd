"""Fact dataclasses. Each says what was found and where; `None` always means "not known"."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # each analysis owns the module of its facts
    from kernlint.facts.accessor_uses import AccessorUses
    from kernlint.facts.device import Branch, SubGroupBlockAccess
    from kernlint.facts.openmp import OmpConstruct


@dataclass(frozen=True, slots=True)
class Span:
    """A source range: byte offsets for containment tests, 1-based lines and 0-based byte columns."""

    start_byte: int
    end_byte: int
    line: int
    column_byte: int
    end_line: int
    end_column_byte: int

    def contains(self, other: "Span") -> bool:
        return self.start_byte <= other.start_byte and other.end_byte <= self.end_byte

    def contains_byte(self, offset: int) -> bool:
        return self.start_byte <= offset < self.end_byte


@dataclass(frozen=True, slots=True)
class Extent:
    """An evaluated 1-3 dimensional size such as a `range<3>`; a dimension is None when not constant."""

    dims: tuple[int | None, ...]
    text: str

    @property
    def known(self) -> bool:
        return bool(self.dims) and all(d is not None for d in self.dims)

    @property
    def total(self) -> int | None:
        return prod(self.dims) if self.known else None  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class KernelAttributes:
    """Kernel attributes in either `[[intel::…]]` or `[[sycl::…]]` spelling."""

    reqd_sub_group_size: int | None = None
    reqd_sub_group_size_text: str | None = None
    reqd_work_group_size: Extent | None = None
    kernel_args_restrict: bool = False
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class KernelLaunch:
    """A `parallel_for` / `single_task` / `parallel_for_work_group` launch."""

    api: str  # parallel_for | single_task | parallel_for_work_group
    via: str  # handler | queue
    span: Span
    name: str | None  # kernel name template argument or functor type
    range_kind: str | None  # range | nd_range | scalar | None (single_task / unknown)
    global_range: Extent | None
    local_range: Extent | None
    attributes: KernelAttributes
    body: Span | None  # lambda body or functor operator() body
    body_kind: str | None  # lambda | functor | None
    index_param: str | None  # the lambda/operator() parameter name (`it`, `i`, …)
    index_type: str | None  # nd_item | item | id | group | h_item | integral | None
    command_group: Span | None  # the enclosing `submit` lambda, when launched through a handler
    function: str | None  # the enclosing function's name
    # The kernel body plus the bodies of functions it calls (defined in the file): its device code.
    regions: tuple[Span, ...] = ()

    def covers(self, span: Span) -> bool:
        """Whether `span` lies in this kernel's device code (body or a function it calls)."""
        return any(region.contains(span) for region in (self.regions or ((self.body,) if self.body else ())))


@dataclass(frozen=True, slots=True)
class Buffer:
    """A `sycl::buffer` construction (declaration, `auto b = buffer(…)`, CTAD or temporary)."""

    span: Span
    name: str | None
    form: str  # declaration | auto | ctad | temporary
    has_host_data: bool | None  # constructed over host memory (copy in/out) or from a range only
    in_device_code: bool
    extent: Extent | None = None  # the buffer's range, when it is written in the construction


@dataclass(frozen=True, slots=True)
class Accessor:
    """A buffer accessor as created in a command group or on the host."""

    span: Span
    name: str | None
    buffer: str | None
    mode: str | None  # read | write | read_write | discard_write | discard_read_write | atomic | None (default)
    mode_spelling: str | None  # as written, e.g. "sycl::access::mode::read_write" or "sycl::read_only"
    mode_span: Span | None  # where the mode is written, for fixes
    form: str  # constructor | get_access | host_accessor | get_host_access
    properties: tuple[str, ...]  # e.g. ("no_init",)
    target: str  # device | host | local | constant
    command_group: Span | None
    uses: AccessorUses | None = None  # how the kernel uses it; None when not analysed


@dataclass(frozen=True, slots=True)
class LocalAllocation:
    """Work-group local memory: `local_accessor`, target::local accessors, `group_local_memory`."""

    span: Span
    name: str | None
    element_type: str | None
    extent: Extent | None
    bytes: int | None
    form: str
    command_group: Span | None


@dataclass(frozen=True, slots=True)
class Barrier:
    """A work-group or sub-group barrier in device code."""

    span: Span
    form: str  # item.barrier | group_barrier | omp barrier | …
    scope: str  # work-group | sub-group | unknown


@dataclass(frozen=True, slots=True)
class Loop:
    """A loop with its kind and whether it runs on the host or inside a kernel."""

    span: Span
    kind: str  # for | range-for | while | do
    side: str  # host | device


@dataclass(frozen=True, slots=True)
class QueueConstruction:
    """A `sycl::queue` constructed in the file (a new context unless one is passed)."""

    span: Span
    name: str | None
    arguments: tuple[str, ...] = ()  # the constructor arguments as written
    # The declared type of each argument that names a variable of the file (None otherwise).
    argument_types: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Pragma:
    """A raw `#pragma` line (continuations included), parsed later by the OpenMP layer."""

    span: Span
    text: str  # the pragma's argument text, e.g. "omp target teams map(to: a[0:n])"


@dataclass(frozen=True)
class FileFacts:
    """All facts of one translation unit, plus the syntax-error regions the parser reported."""

    path: str
    language: str  # sycl | openmp-c | cpp | openmp-fortran
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
    omp: tuple[OmpConstruct, ...] = ()
    syntax_errors: tuple[Span, ...] = ()
    dependencies: tuple[str, ...] = field(default=())

    def launch_for(self, span: Span) -> KernelLaunch | None:
        """The kernel whose device code contains `span` (innermost body first)."""
        for launch in sorted(self.launches, key=lambda l: (l.body.end_byte - l.body.start_byte) if l.body else 1 << 62):
            if launch.covers(span):
                return launch
        return None

    def innermost_loop(self, span: Span, side: str = "host") -> Loop | None:
        """The innermost loop of the given side that contains `span`."""
        best: Loop | None = None
        for loop in self.loops:
            if loop.side == side and loop.span.contains(span) and loop.span != span:
                if best is None or best.span.contains(loop.span):
                    best = loop
        return best
