"""A local-memory access whose lanes hit the same bank at different words, so they are served in turn.

What it does
    Flags a load or store of work-group local memory (a `local_accessor`, `group_local_memory`, a
    pointer parameter every call passes local memory) whose lanes, spread by the lane stride of its
    index, land on the same bank of the device's local memory at different words: a column of a tile
    read with the lane in the row index (`tile[lx][c]` of a `[32][32]` tile: every lane 32 words
    apart, all in one bank), a stride that shares a factor with the bank count. The degree is counted
    on the device's bank model (Intel Xe: 16 banks of 4 bytes; NVIDIA: 32 banks of 4 bytes) for the
    kernel's sub-group, across the rows a sub-group spans when the work-group's fastest dimension is
    narrower than it; when a test of the local id keeps fewer lanes than that (`if (lid < 8)`, or
    `lid < d` in `for (d = 8; d > 0; d >>= 1)`), only those lanes are counted. Never reported: every
    lane at one word (a broadcast), a stride the banks spread (a padded tile, `[32][33]`), a tile whose
    row length is not a known constant, and code one lane runs.

Why it matters
    Local memory is split into banks that serve one word each per cycle; the guide states that requests
    to the same bank, except reads of the same address, are serialised (a bank conflict), and that a
    stride-32 access on an NVIDIA GPU is a 32-way conflict that cuts local-memory bandwidth by 32.
    Tiles staged through local memory are read along columns in transposes, stencils and matrix
    products, which is where these conflicts come from.

Example
    sycl::local_accessor<float, 2> tile(sycl::range<2>(32, 32), h);
    …
    out[y * n + x] = tile[lx][ly];     // KL602: lanes 32 words apart, all in bank ly % 32

Fix
    Pad the tile's row by one element (`sycl::range<2>(32, 33)`, `float tile[32][33]`) so a column
    spreads over every bank, or swap the indices so that the lane's index is the last one.

Severity
    Warning when the access is on the kernel's hot path (inside a loop, or one of the accesses of a
    kernel without a loop) and its lanes' own stride takes at least four times the passes of a
    conflict-free access (a 4-way conflict or worse: on HeCBench no 2-way conflict was worth padding or
    re-indexing a tile for, a 16-way one was); info for a 2-way conflict, when the conflict only comes
    from the rows a sub-group spans (a work-group narrower than
    the sub-group, whose rows start on the same banks), when it runs once per work-item next to a loop
    that does the work, or when only the lanes past a bound run it. Never an error: the results are
    right, the access is only served in more passes.

Occupancy basis
    None: occupancy counts resident threads, this counts how often one access of theirs waits for a
    bank. The device profile's memory model gives the banks (`slm_banks` on Intel, `shared_memory_banks`
    on NVIDIA) and their width (`slm_bank_bytes`), and the sub-group sizes.

Cost
    Passes (NVIDIA's wavefronts) per sub-group access for the count without a conflict, on the target
    device's bank model: Nsight Compute's shared-memory wavefronts per request on an NVIDIA GPU.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, MemoryAccess
from kernlint.rule import Rule, RuleContext
from kernlint_rules.memory.accesses import (
    Finding,
    lane_words,
    once_each,
    reported,
    severity,
    sub_group_size,
    where,
    written,
)
from kernlint_rules.memory.costs import Layout, bank_cost, ideal_wavefronts, wavefronts

_MATERIAL_WAYS = 4  # a 2-way conflict costs one more pass on one access: not worth re-indexing a tile for


class SlmBankConflict(Rule):
    code = "KL602"
    name = "slm-bank-conflict"
    severity = Severity.WARNING
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        yield from reported(ctx, facts, self._findings(facts, ctx))

    def _findings(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Finding]:
        device = ctx.target_device
        banks, width = device.local_memory_banks, device.slm_bank_bytes
        for access in once_each(facts.memory_accesses):
            lanes, assumed = sub_group_size(facts, access, device)
            if access.active_lanes is not None and access.active_lanes < lanes:
                lanes, assumed = access.active_lanes, False  # `if (lid < 8)`: only these lanes share the banks
            layout = _layout(access, lanes, access.extents)
            if layout is None:
                continue
            passes = wavefronts(layout, banks, width)
            ideal = ideal_wavefronts(lanes, layout.element, banks, width)
            if passes <= ideal:
                continue
            in_row = _row_degree(layout, banks, width)
            launch = facts.launch_for(access.span)
            yield Finding(
                access,
                _message(access, lanes, assumed, passes, ideal, in_row, _padding(access, lanes, banks, width)),
                {
                    "stride_elements": access.stride.elements,
                    "element_bytes": access.element_bytes,
                    "extents": list(access.extents),
                    "sub_group_size": lanes,
                    "sub_group_size_assumed": assumed,
                    "wavefronts": passes,
                    "ideal_wavefronts": ideal,
                    "conflict_within_a_row": in_row > 1,
                    "banks": banks,
                    "bank_bytes": width,
                    "function": access.function,
                },
                severity(access, in_row > 1 and passes >= _MATERIAL_WAYS * ideal),
                bank_cost(passes, ideal, lanes, banks, width, device.id),
                launch.name if launch is not None else None,
            )


def _layout(access: MemoryAccess, lanes: int, extents: tuple[int | None, ...]) -> Layout | None:
    """Where the lanes' elements lie over `extents` (the declared ones, or a padded variant)."""
    stride = access.stride
    element = access.element_bytes
    pitch = access.pitch_bytes or element
    if (
        access.space != "local"
        or access.lanes == "single"
        or element is None
        or pitch is None
        or stride.form not in ("constant", "chunk", "unit")
    ):
        return None
    lane, row = stride.elements, stride.row_elements
    if stride.steps and len(stride.steps) == len(extents) and all(e is not None for e in extents[1:]):
        lane, row = _over(stride.steps, extents, 0), _over(stride.steps, extents, 1)
    if lane is None:
        return None
    rows = None
    if stride.row_width is not None and stride.row_width < lanes:
        if row is None:
            return None
        rows = int(row * pitch)
    return Layout(lanes, element, int(lane * pitch), stride.row_width, rows)


def _over(
    steps: tuple[tuple[float | None, float | None], ...], extents: tuple[int | None, ...], which: int
) -> float | None:
    """The step of the flattened index, row-major over `extents`, from each subscript's step."""
    total = 0.0
    for dimension, step in enumerate(steps):
        value = step[which]
        if value is None:
            return None
        pitch = 1
        for extent in extents[dimension + 1 :]:
            pitch *= extent or 0
        total += value * pitch
    return total


def _row_degree(layout: Layout, banks: int, width: int) -> int:
    """The conflict degree among the lanes of one row (the stride's own, without the rows a sub-group spans)."""
    lanes = layout.row_width if layout.row_width is not None and layout.row_width < layout.lanes else layout.lanes
    one_row = Layout(lanes, layout.element, layout.stride)
    return wavefronts(one_row, banks, width) // max(1, ideal_wavefronts(lanes, layout.element, banks, width))


def _padding(access: MemoryAccess, lanes: int, banks: int, width: int) -> tuple[int, ...] | None:
    """The smallest padding of the tile's last extent (by 1 to 4 elements) that removes the conflict."""
    extents = access.extents
    if len(extents) < 2 or any(e is None for e in extents[1:]):
        return None
    for pad in range(1, 5):
        padded = extents[:-1] + ((extents[-1] or 0) + pad,)
        layout = _layout(access, lanes, padded)
        if (
            layout is not None
            and access.element_bytes is not None
            and wavefronts(layout, banks, width) <= ideal_wavefronts(lanes, access.element_bytes, banks, width)
        ):
            return tuple(e or 0 for e in padded)
    return None


def _message(
    access: MemoryAccess,
    lanes: int,
    assumed: bool,
    passes: int,
    ideal: int,
    in_row: int,
    padded: tuple[int, ...] | None,
) -> str:
    stride = access.stride
    verb = {"load": "load", "store": "store", "update": "read-modify-write"}[access.kind]
    degree = f"{passes // ideal}-way" if passes % ideal == 0 else f"{passes}-pass (where {ideal} would do)"
    head = f"{degree} local-memory bank conflict at {verb} `{written(access)}` ({where(access)})"
    who = lane_words(lanes, assumed)
    if access.active_lanes is not None and access.active_lanes == lanes:
        who = f"a sub-group ({lanes} of its lanes pass the test around it)"
    if in_row > 1:
        why = f"the lanes of {who} are {stride.elements:g} elements apart, so several land on one bank"
    else:
        why = (
            f"{who} spans rows of {stride.row_width} lanes whose elements fall on the same banks"
            if stride.row_width is not None
            else f"the lanes of {who} share banks"
        )
    fixes = []
    if padded is not None:
        fixes.append(f"pad the tile to {''.join(f'[{e}]' for e in padded)}")
    lane_last = bool(stride.steps) and (stride.steps[-1][0] or 0) != 0
    if stride.steps and not lane_last:
        fixes.append("swap the subscripts so the lane's index is the last one")
    if not stride.steps and len(access.extents) < 2 and stride.elements is not None and stride.elements % 2 == 0:
        fixes.append(
            f"give each lane's group of {stride.elements:g} elements an odd stride (pad it to {stride.elements + 1:g}) "
            "or keep the fields in separate arrays"
        )
    fix = " or ".join(fixes) if fixes else "change the layout so neighbouring lanes use neighbouring words"
    return f"{head}: {why}; {fix}"
