"""The memory model's arithmetic (KL601–KL603), written out: sectors a sub-group's access touches,
bank passes of a local-memory access."""

from __future__ import annotations

import pytest

from kernlint.facts import LaneStride
from kernlint_rules.memory.costs import (
    Layout,
    access_cost,
    bank_cost,
    footprint,
    ideal_wavefronts,
    sectors_needed,
    sectors_touched,
    wavefronts,
)


@pytest.mark.parametrize(
    ("stride", "sectors"),
    [
        (1, 4),  # 32 floats side by side: 128 bytes, 4 sectors of 32
        (2, 8),  # 256 bytes spanned
        (4, 16),
        (8, 32),  # 32 bytes apart: a sector per lane
        (1024, 32),
    ],
)
def test_sectors_of_a_warp_of_floats_on_32_byte_sectors(stride: int, sectors: int) -> None:
    assert sectors_touched(Layout(32, 4, 4 * stride), 32) == sectors
    assert sectors_needed(32, 4, 32) == 4


def test_lines_of_intel_sub_groups() -> None:
    assert sectors_touched(Layout(16, 4, 4), 64) == 1  # 16 floats fill one 64-byte line
    assert sectors_touched(Layout(16, 4, 8), 64) == 2
    assert sectors_touched(Layout(16, 4, 64), 64) == 16
    assert sectors_touched(Layout(32, 8, 8), 64) == 4  # 32 doubles: 256 bytes
    assert sectors_touched(Layout(32, 4, 20), 32) == 20  # a 20-byte struct's float: 31 × 20 + 4 = 624 bytes


def test_a_negative_stride_counts_from_the_lowest_address() -> None:
    assert sectors_touched(Layout(32, 4, -4), 32) == 4


def test_rows_of_a_narrow_work_group() -> None:
    # 16 lanes per row, rows 4 bytes apart, lanes 16 bytes apart: two interleaved rows over 256 bytes
    layout = Layout(32, 4, 16, row_width=16, row_bytes=4)
    assert sorted(layout.offsets())[:4] == [0, 4, 16, 20]
    assert sectors_touched(layout, 32) == 8


@pytest.mark.parametrize(
    ("banks", "lanes", "element", "stride", "passes", "ideal"),
    [
        (32, 32, 4, 4, 1, 1),  # unit stride: one pass
        (32, 32, 4, 128, 32, 1),  # a column of a [32][32] tile: every lane in one bank
        (32, 32, 4, 132, 1, 1),  # a column of a [32][33] tile: every bank once
        (32, 32, 4, 8, 2, 1),  # stride 2: two words per bank
        (32, 32, 4, 0, 1, 1),  # a broadcast: one word
        (32, 32, 8, 8, 2, 2),  # doubles side by side: 256 bytes take two passes anyway
        (16, 32, 4, 4, 2, 2),  # Intel: 32 floats over 16 banks of 4 bytes
        (16, 16, 4, 64, 16, 1),  # Intel: 16 lanes 16 words apart, all in one bank
        (16, 32, 4, 132, 2, 2),  # Intel: the padded column, two words per bank
    ],
)
def test_bank_passes(banks: int, lanes: int, element: int, stride: int, passes: int, ideal: int) -> None:
    layout = Layout(lanes, element, stride)
    assert wavefronts(layout, banks, 4) == passes
    assert ideal_wavefronts(lanes, element, banks, 4) == ideal


def test_a_constant_stride_is_priced_in_sectors_per_access() -> None:
    found = footprint(LaneStride("constant", elements=2), 4, 4, 32, 32)
    assert found is not None and (found.touched, found.needed) == (8, 4)
    cost = access_cost(found, "sectors", "h100", None)
    assert cost.value == 8.0 and cost.unit == "sectors"
    assert cost.phrase() == "8 sectors per sub-group access for 4 useful (h100)"
    assert "2× the traffic" in cost.basis


def test_a_symbolic_row_pitch_is_priced_as_a_range_never_a_guess() -> None:
    found = footprint(LaneStride("row-pitch", symbol="n"), 4, 4, 32, 32)
    assert found is not None and found.touched is None
    # n ≥ 2: 32 lanes 8 bytes apart span 252 bytes, 8 sectors; from n ≥ 8 (32 bytes) one sector a lane
    assert (found.at_least, found.spread, found.spread_from) == (8, 32, 8)
    cost = access_cost(found, "sectors", "h100", "n")
    assert cost.value is None
    assert cost.basis == "at least 8 for 4 useful (with n ≥ 2), 32 once n ≥ 8"


def test_a_symbolic_pitch_over_rows_is_wider_than_the_rows() -> None:
    # 16 lanes a row, 2 rows a row apart: a pitch of 2 would make the rows tile the same 128 bytes
    found = footprint(LaneStride("row-pitch", symbol="n", row_width=16, row_elements=1), 4, 4, 32, 32)
    assert found is not None and found.least == 3
    # n = 3: lanes 12 bytes apart, rows 4 apart: 16 × 12 = 192 bytes, 6 sectors
    assert found.at_least == 6


def test_bank_cost_states_the_degree() -> None:
    cost = bank_cost(32, 2, 32, 16, 4, "xe-hpc")
    assert cost.value == 32.0 and "32 passes where 2 would do (16× the passes)" in cost.basis
    assert cost.phrase() == "32 wavefronts per sub-group access of local memory for 2 without conflict (xe-hpc)"
