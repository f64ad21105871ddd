"""A global-memory access whose sub-group spreads over more sectors than the bytes it uses need.

What it does
    Flags a load or store of global memory in device code (SYCL kernels and the device functions they
    call, OpenMP offload regions in C, C++ and Fortran) whose neighbouring lanes read elements that are
    not neighbours, from the lane stride of its index: the fastest-varying work-item id (the last
    dimension of an `nd_item`, the innermost loop shared out by `parallel for`/`parallel do` after
    `collapse`) steps the address by

    * a constant of two elements or more (`a[2 * i]`, `a[i * 8 + c]`);
    * a row pitch (`a[gid * n + k]`: the lanes walk down a column of a row-major matrix; Fortran's
      `a(k, i)` with the lane in the second index strides by the leading dimension);
    * a per-work-item chunk (`a[i * CH + k]` in a loop over `k`: each work-item walks its own run of
      consecutive elements, so at every step the lanes are `CH` apart).

    The sectors (NVIDIA: 32 bytes of a 128-byte line) or lines (Intel: 64 bytes) one access of a
    sub-group touches are counted from the stride, the element size (from the declared type) and the
    device's memory model, against the sectors its bytes would fill side by side. Never reported: a
    uniform index (every lane reads one element: a broadcast), unit stride, sub-group block loads, an
    index loaded from memory (a gather: the analysis cannot see the addresses), code only one lane
    runs (`if (lid == 0)`), and a stride that is a bare symbol (`x[i * incx]`, which may be 1). A struct
    member read at unit stride is KL603's.

Why it matters
    The memory system moves whole sectors: when the lanes of a sub-group read neighbouring elements,
    one access fills a few sectors completely; when they are a row apart, every lane pulls in its own
    sector and uses 4 of its 32 or 64 bytes. The guide tells to access contiguous blocks so that a
    fetched block is used in full, and describes coalescing on NVIDIA GPUs: the addresses a sub-group
    issues in one load should fall in the same cache lines.

Example
    for (int k = 0; k < n; ++k)
      sum += a[row * n + k] * x[k];      // KL601: lanes n elements apart (row = the lane's id)

Fix
    Make the lane index the fastest-varying one: swap the index order (`a[k * m + row]`, or `a(i, k)`
    in Fortran) and transpose the data to match, stage a tile through local memory with coalesced
    loads and read it there, or, for per-work-item chunks, interleave them (`a[k * n_items + i]`) so
    that at every step neighbouring lanes read neighbouring elements.

Severity
    Warning when the access is on the kernel's hot path (inside a loop of device code, or one of the
    accesses of a kernel that has no loop, which are its work) and touches at least twice the sectors
    its bytes need; the message names the stride, the sectors and the change. Info when it runs once
    per work-item next to a loop that does the work, when only the lanes past a bound run it (the
    tail a vectorised kernel leaves to a scalar loop, the `else` of a bound test), when it wastes less
    than half, when a per-work-item chunk loaded fits in one sector (line) of the device (measured on an H100:
    chunks of 8 floats ran 0.77x the interleaved time, chunks of 64 floats 2.95x), or when the lane's
    other loads of the same loop read the rest of its run (`p[2 * i]` and
    `p[2 * i + 1]`): the sub-group then uses every sector it fetches, the cache serves the second load,
    and measured on an H100 the pair ran as fast as one vector load (benchmarks/gpu, KL601 stride 2).
    A row pitch that is a symbol is priced honestly: at least the sectors of a stride of 2 (wider than
    the rows a narrow work-group's sub-group spans), "at least 8 sectors for 4 useful", and every lane
    apart once it reaches a sector; never a number the source does not give. Never an error: the
    kernel computes the right results, only more slowly.

Occupancy basis
    None: occupancy counts resident threads, this counts the memory traffic each of their accesses
    makes. The device profile's memory model gives the sector (`sector_bytes`: 64-byte lines on Intel
    GPUs, 32-byte sectors on NVIDIA GPUs) and the sub-group sizes.

Cost
    Sectors (lines) per sub-group access for the sectors its bytes need, on the target device: what
    Nsight Compute calls sectors per request on an NVIDIA GPU. The sub-group size is the kernel's
    required one, else the device's default (said when assumed).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, MemoryAccess
from kernlint.rule import Rule, RuleContext
from kernlint_rules.memory.accesses import (
    Finding,
    kernel_of,
    lane_words,
    once_each,
    reported,
    severity,
    sub_group_size,
    where,
    written,
)
from kernlint_rules.memory.costs import access_cost, footprint

_FORMS = frozenset({"constant", "row-pitch", "chunk"})
_MATERIAL = 2.0  # warn from twice the sectors the bytes need
_MAX_RUN = 32  # the longest run of neighbouring elements one lane's loads are matched over


class UncoalescedAccess(Rule):
    code = "KL601"
    name = "uncoalesced-access"
    severity = Severity.WARNING
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        unit = "sectors" if device.sector_bytes < device.cache_line_bytes else "lines"
        covered = _covered_loads(facts)
        yield from reported(ctx, facts, self._findings(facts, ctx, covered, unit))

    def _findings(
        self, facts: FileFacts, ctx: RuleContext, covered: set[tuple[object, ...]], unit: str
    ) -> Iterator[Finding]:
        device = ctx.target_device
        for access in once_each(facts.memory_accesses):
            if not _candidate(access):
                continue
            lanes, assumed = sub_group_size(facts, access, device)
            pitch = access.pitch_bytes or access.element_bytes
            found = footprint(access.stride, access.element_bytes, pitch, lanes, device.sector_bytes)  # type: ignore[arg-type]
            if found is None:
                continue
            worst = found.touched if found.touched is not None else found.at_least
            if worst is None or worst <= found.needed:
                continue
            sibling = access.kind == "load" and _group_key(facts, access) in covered
            short = access.kind == "load" and _short_run(access, device.sector_bytes)
            material = worst >= _MATERIAL * found.needed and not sibling and not short
            cost = access_cost(found, unit, device.id, access.stride.symbol)
            launch = facts.launch_for(access.span)
            yield Finding(
                access,
                _message(access, lanes, assumed, ctx.language, sibling, short),
                _evidence(access, lanes, assumed, found.needed, found.touched, found.at_least)
                | {"siblings_cover": sibling},
                severity(access, material),
                cost,
                launch.name if launch is not None else None,
            )


def _candidate(access: MemoryAccess) -> bool:
    return (
        access.space == "global"
        and access.stride.form in _FORMS
        and access.lanes != "single"
        and access.element_bytes is not None
        and not (access.member is not None and access.stride.form == "unit")
    )


def _group_key(facts: FileFacts, access: MemoryAccess) -> tuple[object, ...]:
    """Accesses that differ only in their constant offset, in the same loop (or straight-line code) of one
    kernel or device function: the same lane reads them one after the other."""
    stride = access.stride
    return (
        access.array,
        access.space,
        kernel_of(facts, access),
        access.function,
        access.loop,
        stride.shape,
        stride.elements,
    )


def _covered_loads(facts: FileFacts) -> set[tuple[object, ...]]:
    """Groups of constant-stride loads whose offsets cover every element of the stride (`p[2 * i]` and
    `p[2 * i + 1]`): each lane reads a whole run of neighbouring elements, so the sub-group uses every
    sector the first load brings in and the cache serves the others. Measured on an H100 (the KL601
    pairs of benchmarks/gpu): 8 sectors per request for 4 useful, yet the same time as one vector load."""
    residues: dict[tuple[object, ...], set[int]] = {}
    for access in facts.memory_accesses:
        stride = access.stride
        if access.kind != "load" or stride.form != "constant" or stride.shape is None or stride.offset is None:
            continue
        if stride.elements is None or not float(stride.elements).is_integer() or not 2 <= stride.elements <= _MAX_RUN:
            continue
        if not float(stride.offset).is_integer():
            continue
        residues.setdefault(_group_key(facts, access), set()).add(int(stride.offset) % int(stride.elements))
    return {key for key, found in residues.items() if len(found) == int(key[-1])}  # type: ignore[call-overload]


def _short_run(access: MemoryAccess, sector_bytes: int) -> bool:
    """A per-work-item chunk whose whole run fits in one sector (line) of the device: the sector the first
    step fetches holds every later step's elements, so the cache serves them. Measured on an H100
    (benchmarks/gpu, KL601 chunks of one sector: 8 floats a lane): the chunked kernel was no slower than
    the interleaved one (0.77x), where runs of 64 floats were 2.95x slower."""
    stride = access.stride
    if stride.form != "chunk" or stride.elements is None or access.element_bytes is None:
        return False
    return stride.elements * access.element_bytes <= sector_bytes


def _message(
    access: MemoryAccess, lanes: int, assumed: bool, language: str, sibling: bool = False, short: bool = False
) -> str:
    stride = access.stride
    verb = {"load": "load", "store": "store", "update": "read-modify-write"}[access.kind]
    head = f"uncoalesced {verb} `{written(access)}` ({where(access)})"
    who = lane_words(lanes, assumed)
    if stride.form == "chunk":
        size = f"{stride.elements:g}" if stride.elements is not None else f"`{stride.symbol}`"
        why = (
            f"each work-item walks its own {size} consecutive elements (loop over `{stride.counter}`), so at "
            f"every step the lanes of {who} are {size} elements apart"
        )
        fix = (
            f"interleave the chunks (index `{stride.counter} * <work-items> + <id>`) so neighbouring lanes read "
            "neighbouring elements"
        )
        if short:
            run_bytes = (stride.elements or 0) * (access.element_bytes or 0)
            fix = (
                f"but each lane's run of {size} elements ({run_bytes:g} bytes) "
                "fits in one sector, so the later steps find it in the cache: interleaving would save lookups, "
                "not traffic"
            )
    elif stride.form == "row-pitch" and stride.counter:
        why = (
            f"neighbouring lanes of {who} are a row of `{stride.symbol}` elements apart "
            f"(each walks its own row along `{stride.counter}`)"
        )
        fix = _row_fix(language)
    elif stride.form == "row-pitch":
        why = f"neighbouring lanes of {who} are `{stride.symbol}` elements apart"
        fix = _row_fix(language)
    elif sibling:
        run = f"{stride.elements:g}"
        why = (
            f"neighbouring lanes of {who} are {run} elements apart, but each lane also loads the other "
            f"elements of its run of {run}, so every sector is used and the cache serves the later loads"
        )
        fix = f"one vector load of {run} elements per lane would issue one access instead of {run}"
    else:
        why = f"neighbouring lanes of {who} are {stride.elements:g} elements apart"
        fix = (
            "have neighbouring lanes take neighbouring elements (let the lane's index move fastest) or change the "
            "layout so the elements used together are adjacent"
        )
    return f"{head}: {why}; {fix}"


def _row_fix(language: str) -> str:
    if language == "openmp-fortran":
        return (
            "Fortran is column-major: put the parallel index first (`a(i, k)`), transposing the array to match, "
            "or stage a tile through a team-local array"
        )
    return (
        "make the lane's index the fastest-varying one (swap the index order and transpose the data to match), or "
        "stage a tile through local memory with coalesced loads"
    )


def _evidence(
    access: MemoryAccess, lanes: int, assumed: bool, needed: int, touched: int | None, at_least: int | None
) -> dict:
    stride = access.stride
    return {
        "form": stride.form,
        "stride_elements": stride.elements,
        "stride_symbol": stride.symbol,
        "counter": stride.counter,
        "element_bytes": access.element_bytes,
        "pitch_bytes": access.pitch_bytes,
        "sub_group_size": lanes,
        "sub_group_size_assumed": assumed,
        "sectors_touched": touched,
        "sectors_at_least": at_least,
        "sectors_needed": needed,
        "kind": access.kind,
        "in_loop": access.loop is not None,
        "function": access.function,
    }
