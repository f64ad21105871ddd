"""Facts about memory accesses in device code: how the lanes of a sub-group spread over memory.

Owned by the device-code analyses (SYCL kernels in `kernlint.frontends.cpp.device`, OpenMP regions in
`kernlint.frontends.openmp`); the lane strides come from `kernlint.analysis.strides`. One
`MemoryAccess` per element read or written in global or local memory whose index the analysis could
read: a gather (an index loaded from memory), a private array and an access it cannot follow produce
no fact at all. The rules of the `memory` family (KL601–KL603) price them with the device's memory model.
"""

from __future__ import annotations

from kernlint.facts.base import Span
from kernlint.facts.kinds import AccessKind, LaneKind, MemorySpace, StrideForm
from kernlint.records import record


@record(slots=True)
class LaneStride:
    """How far apart, in elements, neighbouring lanes' elements lie.

    form: uniform    every lane reads the same element (a broadcast)
          unit       neighbouring lanes read neighbouring elements (or share one: `lid / 2`)
          constant   a constant stride of two elements or more (`a[2 * gid]`, `tile[lx][c]` of a 32-wide tile)
          row-pitch  a stride that is a symbol: the row length of a matrix walked along its rows (`a[gid * n + k]`)
          chunk      each work-item walks its own run of consecutive elements (`a[i * CH + k]` in a loop over k)
    `elements` is the stride when it is a number, `symbol` when it is not (as written, `n`, `width + 1`);
    `counter` the loop counter a chunk is walked with. When the fastest dimension of the work-group is
    narrower than a sub-group, a sub-group spans several rows: `row_width` lanes per row, the rows
    `row_elements` apart (None when that step is not a number). For a multi-dimensional subscript of
    a tile (`tile[ly][lx]`), `steps` holds how far the lane, and the next row of lanes, move each
    subscript ((0, 1), (1, 0) for `[ly][lx]`; None when not a number), so that a rule can work out the
    strides of the same subscripts over other extents (a padded tile). `shape` is the flattened index
    without its constant term and `offset` that term in elements: accesses of one array with the same
    `shape` read elements `offset` apart in every lane (`p[2 * i]` and `p[2 * i + 1]`: both halves of each
    pair).
    """

    form: StrideForm
    elements: float | None = None
    symbol: str | None = None
    counter: str | None = None
    row_width: int | None = None
    row_elements: float | None = None
    steps: tuple[tuple[float | None, float | None], ...] = ()
    shape: str | None = None
    offset: float | None = None


@record(slots=True)
class MemoryAccess:
    """One element of global or local memory read or written by device code, as the lanes see it.

    `array` is the memory as written (`a`, `tile`, `p`) and `index` its subscript (`i * n + k`,
    `[ty][tx]`). Sizes are in bytes: `element_bytes` what one lane moves (the member's size for
    `p[i].x`), `pitch_bytes` from one element of the array to the next (the struct's size); None when
    the type is not known. For a struct member, `struct` names the type, `member` the member, and
    `members_used` / `used_bytes` the members the kernel reads or writes through this array and the
    bytes they cover of the struct's `pitch_bytes`. `extents` are a local tile's declared extents, in
    elements per dimension (`[32][33]` → (32, 33)).

    Where it runs: `loop` is the innermost loop around it in device code (None: it runs once per
    work-item), `main` marks a kernel whose device code holds no loop at all (its accesses are its
    work), and `lanes` is set when a condition keeps only some lanes of a sub-group on the access
    ("single": a leader `lid == 0`; "edge": a test of the local id against a bound inside the
    sub-group, such as a halo `lid < R`). `active_lanes` bounds how many lanes of a sub-group run it
    when a test of the local id against a known bound guards it (`if (lid < 8)`, or `lid < d` with d a
    loop counter that starts at 8 and only falls). `function` is the device function it is in, when
    not the kernel's body.
    """

    span: Span
    array: str
    index: str
    space: MemorySpace
    kind: AccessKind
    stride: LaneStride
    element_bytes: int | None = None
    pitch_bytes: int | None = None
    element_type: str | None = None
    struct: str | None = None
    member: str | None = None
    members_used: tuple[str, ...] = ()
    used_bytes: int | None = None
    extents: tuple[int | None, ...] = ()
    loop: Span | None = None
    main: bool = False
    lanes: LaneKind | None = None
    function: str | None = None
    active_lanes: int | None = None
