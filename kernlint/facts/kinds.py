"""The closed vocabularies of the facts, as `Literal` types.

Rules branch on these words and the JSON evidence repeats them, so each set is written once, here, and a
type checker catches a producer that invents a word or a rule that tests for one no front-end produces.
Open sets (a directive's normalised name, a construct spelled as written) stay `str`.
"""

from __future__ import annotations

from typing import Literal

#: What a file is, as far as rule selection goes.
Language = Literal["sycl", "openmp-c", "cpp", "openmp-fortran"]
#: Which side of the offload boundary code runs on.
Side = Literal["host", "device"]
#: A loop's syntax: `for` is a counted loop (C `for`, Fortran `do i = …`), `do` is C's do-while.
LoopKind = Literal["for", "range-for", "while", "do"]

#: The member function that launches a kernel, and what it is called on.
LaunchApi = Literal["parallel_for", "single_task", "parallel_for_work_group"]
LaunchVia = Literal["handler", "queue"]
#: How a launch's range is written: `range<N>`, `nd_range<N>`, or a bare count.
RangeKind = Literal["range", "nd_range", "scalar"]
#: What the launch runs: a lambda, a functor's `operator()`, or a function that takes a SYCL index
#: (`void k(…, sycl::nd_item<1> it)`: device code wherever it is written).
KernelBodyKind = Literal["lambda", "functor", "function"]
#: How a launch's kernel was found. `inline`: written at the launch; `variable`: a lambda stored in a
#: variable the launch names; `factory`: the lambda (or functor) a function of the file returns
#: (`auto k = make_kernel(…)`); `functor`: a class of the file with an `operator()`; `wrapper`: the
#: argument a launch wrapper of the file is called with (`submit(q, r, [=](…){…})`, one call level);
#: `header`: a functor or factory defined in a quoted header (analysed with that header); `unlaunched`:
#: no launch was seen, the code is a kernel by what it is (its call operator takes a SYCL index).
KernelLink = Literal["inline", "variable", "factory", "functor", "wrapper", "header", "unlaunched"]
#: The declared type of the kernel's index parameter (`integral` for a plain integer, `auto` when deduced).
IndexType = Literal["nd_item", "item", "id", "group", "h_item", "integral", "auto"]

#: How a buffer is constructed: a typed declaration, `auto b = buffer(…)`, class template argument
#: deduction, or a temporary (including `new` and `make_unique`).
BufferForm = Literal["declaration", "auto", "ctad", "temporary"]
#: An accessor's mode (the SYCL 2020 tags `read_only` / `write_only` mean `read` / `write`).
AccessMode = Literal["read", "write", "read_write", "discard_write", "discard_read_write", "atomic"]
#: How an accessor is created.
AccessorForm = Literal["constructor", "get_access", "host_accessor", "get_host_access"]
#: Where an accessor's data lives.
AccessTarget = Literal["device", "host", "local", "constant"]
#: How a kernel uses an accessor's data at one place.
AccessorUseKind = Literal["read", "write", "read_modify_write", "atomic", "escape"]
#: How an accessor's creation spells its mode (see `ModeSyntax`).
ModeSyntaxForm = Literal["tag", "enum", "default-ctad", "default-get-access", "default-typed", "default-other", "other"]
#: What one argument of a queue constructor supplies: an existing context (or a queue to copy, which
#: shares its context), something that is not a context, or something kernlint cannot classify.
QueueArgument = Literal["context", "queue", "selector", "device", "property", "handler", "unknown"]

#: Which lanes a barrier synchronises.
BarrierScope = Literal["work-group", "sub-group"]
IdScope = Literal["global", "local", "lane"]
#: A sub-group block access moves data in or out.
BlockDirection = Literal["load", "store"]

#: The syntax of a divergent conditional.
BranchKind = Literal["if", "else-if", "ternary", "switch", "loop"]
#: `strong`: lanes of (nearly) every sub-group disagree; `boundary`: only where the id crosses a bound;
#: `sub-group`: the same in each sub-group but different between them (no lane diverges, the sub-groups
#: of a work-group do: a work-group barrier under it is still divergent).
Dependence = Literal["strong", "boundary", "sub-group"]
#: Why a condition diverges, as `kernlint.analysis.dependence` grades it:
#: parity, modulo, bit-test  the id's low bits decide (`i % 2`, `i % 4`, `i & 1`)
#: lane-range         the sub-group lane id is compared with a bound inside the sub-group
#: loop-bound         the id is compared with a bound that changes each iteration of an enclosing loop
#: sub-group-aligned  as loop-bound, but the bound stays a multiple of the sub-group size
#: data               data loaded at an id-derived index is tested
#: arithmetic         non-monotone arithmetic of the id is tested
#: leader, all-but-one  one work-item is selected or excluded (`lid == 0`, `lid != 0`)
#: tail-guard, range  the id is bounded (`i < n`) or checked against a range
#: sub-group          a value uniform within each sub-group (sub-group id, `lid / 32`) is tested
#: rows               a value uniform along each row of a collapsed OpenMP nest (an outer index) is
#:                    tested: only a sub-group that straddles two rows diverges
#: unknown-block      an id shifted right by an amount kernlint cannot evaluate (`tid >> LG`) is
#:                    tested: its lanes share the value in blocks that may hold whole sub-groups, so
#:                    whether it splits one is not known
BranchReason = Literal[
    "parity",
    "modulo",
    "bit-test",
    "lane-range",
    "loop-bound",
    "sub-group-aligned",
    "data",
    "arithmetic",
    "leader",
    "all-but-one",
    "tail-guard",
    "range",
    "sub-group",
    "rows",
    "unknown-block",
]
#: How guarded code jumps out early.
BranchExit = Literal["return", "break", "continue"]
#: The shape of a divergent sub-group's active lanes (see `LaneEstimate`).
LaneKind = Literal["split", "fraction", "single", "all-but-one", "shrinking", "growing", "staggered", "edge"]

#: How an OpenMP loop runs: shared out by a worksharing/distribute construct, vectorised by a simd
#: construct, both, or one iteration after another.
LoopRole = Literal["sequential", "parallel", "simd", "parallel-simd"]
#: A relational operator of a condition's bound test.
Comparison = Literal["<", "<=", ">", ">="]
#: The base language an OpenMP directive is written in.
OmpLanguage = Literal["c", "fortran"]
#: What a `map` list item names, as its declaration shows it: a scalar or contiguous array, a bare
#: pointer (the map copies the pointer), a pointer to pointers or an array of pointers (rows elsewhere),
#: a struct whose members include pointers, a Fortran assumed-size array (`dimension(*)`: no extent),
#: or a declaration kernlint did not find or read.
MapStorage = Literal[
    "scalar", "array", "pointer", "pointer-to-pointer", "pointer-array", "struct-pointers", "assumed-size", "unknown"
]

#: Where a memory access lands: global (device) memory or work-group local (shared) memory.
MemorySpace = Literal["global", "local"]
#: What an access does to its element: reads it, writes it, or both (`a[i] += x`).
AccessKind = Literal["load", "store", "update"]
#: How neighbouring lanes' elements lie (see `kernlint.facts.memory.LaneStride`).
StrideForm = Literal["uniform", "unit", "constant", "row-pitch", "chunk"]
