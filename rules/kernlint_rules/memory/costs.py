"""What a sub-group's memory access costs on the device's memory model (KL601–KL603).

Global memory: the lanes' elements are laid out from the lowest address, which is taken to start a
sector (Intel: a 64-byte line; NVIDIA: a 32-byte sector of the 128-byte line); the access moves every
sector any lane's element overlaps. A sub-group that reads S neighbouring elements of E bytes needs
⌈S × E ÷ sector⌉; lanes s elements apart touch up to S (one each once s × E ≥ sector). Local memory:
consecutive words of `slm_bank_bytes` sit in consecutive banks; lanes that hit one bank at different
words are served one after the other, the same word is broadcast. The access takes as many passes
(NVIDIA's wavefronts) as the busiest bank has distinct words, and ⌈S × E ÷ (banks × bank width)⌉
without a conflict.

These are the figures Nsight Compute reports on an NVIDIA GPU: sectors per request
(`l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` ÷ `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`)
and shared-memory wavefronts per request (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum` ÷
`smsp__inst_executed_op_shared_ld.sum`); benchmarks/gpu checks them.
"""

from __future__ import annotations

from math import ceil

from kernlint.cost import Cost
from kernlint.facts.memory import LaneStride
from kernlint.records import record


@record
class Layout:
    """Where a sub-group's lanes put their elements: `stride` bytes apart along a row of `row_width`
    lanes (None: every lane in one row), rows `row_bytes` apart, `element` bytes each."""

    lanes: int
    element: int
    stride: int
    row_width: int | None = None
    row_bytes: int | None = None

    def offsets(self) -> list[int]:
        """Each lane's first byte, the lowest at 0."""
        width = self.row_width if self.row_width is not None and self.row_width < self.lanes else self.lanes
        rows = self.row_bytes or 0
        found = [(j % width) * self.stride + (j // width) * rows for j in range(self.lanes)]
        low = min(found)
        return [offset - low for offset in found]


def sectors_touched(layout: Layout, sector: int) -> int:
    """The distinct sectors the lanes' elements overlap."""
    touched: set[int] = set()
    for offset in layout.offsets():
        touched.update(range(offset // sector, (offset + layout.element - 1) // sector + 1))
    return len(touched)


def sectors_needed(lanes: int, element: int, sector: int) -> int:
    """The sectors the same bytes would fill side by side."""
    return ceil(lanes * element / sector)


def wavefronts(layout: Layout, banks: int, bank_bytes: int) -> int:
    """Passes a local-memory access takes: the most distinct words any one bank holds among the lanes'."""
    words: dict[int, set[int]] = {}
    for offset in layout.offsets():
        for word in range(offset // bank_bytes, (offset + layout.element - 1) // bank_bytes + 1):
            words.setdefault(word % banks, set()).add(word)
    return max((len(w) for w in words.values()), default=1)


def ideal_wavefronts(lanes: int, element: int, banks: int, bank_bytes: int) -> int:
    return ceil(lanes * element / (banks * bank_bytes))


@record
class Footprint:
    """A global access's sectors: `touched` (None when the stride is a symbol: then `at_least`, and
    `spread` once the stride reaches `spread_from` elements) against `needed`."""

    lanes: int
    element: int
    sector: int
    needed: int
    touched: int | None
    at_least: int | None = None
    spread: int | None = None
    spread_from: int | None = None
    least: int = 2  # the smallest value the symbolic stride is taken to have


def footprint(stride: LaneStride, element: int, pitch: int, lanes: int, sector: int) -> Footprint | None:
    """The sectors of one sub-group access of `element` bytes, elements `pitch` bytes apart, lanes
    `stride.elements` elements apart (or a symbol of at least 2)."""
    needed = sectors_needed(lanes, element, sector)
    rows = None
    if stride.row_width is not None and stride.row_width < lanes:
        if stride.row_elements is None:
            return None  # the rows of a sub-group lie a symbol apart: not a number
        rows = int(stride.row_elements * pitch)
    if stride.elements is not None:
        step = int(stride.elements * pitch)
        touched = sectors_touched(Layout(lanes, element, step, stride.row_width, rows), sector)
        return Footprint(lanes, element, sector, needed, touched)
    # a symbolic stride is taken to be at least 2, and wider than the rows a sub-group spans (at that
    # width the rows of a narrow work-group would tile the same bytes)
    least = ceil(lanes / stride.row_width) + 1 if rows is not None and stride.row_width else 2
    at_least = sectors_touched(Layout(lanes, element, least * pitch, stride.row_width, rows), sector)
    spread_from = max(least, ceil(sector / pitch))
    spread = sectors_touched(Layout(lanes, element, spread_from * pitch, stride.row_width, rows), sector)
    return Footprint(lanes, element, sector, needed, None, at_least, spread, spread_from, least)


def access_cost(found: Footprint, unit: str, device: str, symbol: str | None) -> Cost:
    """KL601/KL603: sectors per sub-group access against the sectors its bytes need. No score: the share
    of the kernel's time the access takes is not known."""
    quantity = f"per sub-group access for {found.needed} useful ({device})"
    formula = "distinct sectors the lanes' elements overlap ÷ ⌈lanes × element bytes ÷ sector bytes⌉"
    figures: dict[str, int | None] = {
        "lanes": found.lanes,
        "element_bytes": found.element,
        "sector_bytes": found.sector,
        "sectors_needed": found.needed,
    }
    if found.touched is not None:
        figures["sectors_touched"] = found.touched
        basis = (
            f"{found.lanes} lanes × {found.element} bytes span {found.touched} {unit} of {found.sector} bytes; "
            f"side by side they fill {found.needed}: {found.touched / found.needed:.3g}× the traffic"
        )
        return Cost(float(found.touched), unit, quantity, formula, basis, device=device, figures=figures)
    figures.update({"at_least": found.at_least, "spread": found.spread, "spread_from": found.spread_from})
    basis = (
        f"at least {found.at_least} for {found.needed} useful (with {symbol or 'the stride'} ≥ {found.least}), "
        f"{found.spread} once {symbol or 'the stride'} ≥ {found.spread_from}"
    )
    return Cost(
        None,
        unit,
        f"{unit} per sub-group access ({device})",  # with no value, the phrase is the quantity and the basis
        formula,
        basis,
        assumptions=(
            f"{symbol or 'the stride'} ≥ {found.least} (a narrower row would leave the elements side by side)",
        ),
        device=device,
        figures=figures,
    )


def bank_cost(passes: int, ideal: int, lanes: int, banks: int, bank_bytes: int, device: str) -> Cost:
    """KL602: passes (wavefronts) per sub-group access of local memory against the conflict-free count."""
    return Cost(
        float(passes),
        "wavefronts",
        f"per sub-group access of local memory for {ideal} without conflict ({device})",
        "the most distinct words one bank holds among the lanes' (the same word is broadcast)",
        f"{lanes} lanes over {banks} banks of {bank_bytes} bytes: the busiest bank holds {passes} distinct "
        f"words, so the access takes {passes} passes where {ideal} would do ({passes / ideal:.3g}× the passes)",
        device=device,
        figures={"lanes": lanes, "banks": banks, "bank_bytes": bank_bytes, "wavefronts": passes, "ideal": ideal},
    )
