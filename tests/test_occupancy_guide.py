"""The occupancy model against the figures the optimization guide states (chapters 01 and 02).

Where the guide and Intel's calculator disagree the model follows the calculator; those tests
pin both the calculator's number and the fact that the guide says otherwise.
"""

from __future__ import annotations

import math

import pytest

from kernlint.occupancy import IntelProfile, compute, load_device

# Guide 02, VectorAdd2<N>: N work-groups of 512 at SIMD 32 on Xe-LP, "threads / 672" as printed.
VECTORADD2 = {
    1: "2.4",
    2: "4.8",
    3: "7.1",
    4: "9.5",
    5: "11.9",
    6: "14.3",
    7: "16.7",
    8: "19",
    12: "28.6",
    16: "38.1",
    20: "47.7",
    24: "57.1",
    28: "66.7",
    32: "76.2",
    36: "85.7",
    40: "95.2",
    42: "100",
}


def _xe_lp() -> IntelProfile:
    dev = load_device("xe-lp")
    assert isinstance(dev, IntelProfile)
    return dev


def test_xe_lp_architecture_as_in_guide_02() -> None:
    dev = _xe_lp()
    assert dev.xves_per_xe_core == 16 and dev.threads_per_xve == 7
    assert dev.threads_per_xe_core == 112
    assert dev.unit_count * dev.threads_per_xe_core == 672
    assert dev.max_work_group_size == 512 and dev.max_work_group_size // 8 == 64
    assert set(dev.sub_group_sizes) == {8, 16, 32}


@pytest.mark.parametrize("groups", sorted(VECTORADD2))
def test_vectoradd2_single_wave(groups: int) -> None:
    rep = compute(_xe_lp(), wg=512, sg=32, global_size=512 * groups)
    assert rep.valid and rep.threads_per_work_group == 16
    assert rep.peak_occupancy_pct == pytest.approx(100 * 16 * groups / 672, rel=1e-12)
    printed = float(VECTORADD2[groups])
    assert rep.peak_occupancy_pct is not None
    if groups == 20:
        # The guide's 47.7 % is its own rounding slip: 320 / 672 = 47.62 %.
        assert round(rep.peak_occupancy_pct, 1) == 47.6 != printed
    else:
        assert round(rep.peak_occupancy_pct, len(VECTORADD2[groups].partition(".")[2])) == printed
    assert rep.waves is not None and rep.waves <= 1


@pytest.mark.parametrize(("groups", "second_wave"), [(44, "4.7"), (48, "14.3")])
def test_vectoradd2_two_waves(groups: int, second_wave: str) -> None:
    """ "100 % then 4.7 %" / "then 14.3 %": a full wave, then the remainder (4.76 %, 14.29 %)."""
    rep = compute(_xe_lp(), wg=512, sg=32, global_size=512 * groups)
    assert rep.valid and rep.peak_occupancy_pct == 100.0
    assert rep.waves is not None and 1 < rep.waves < 2
    last = (rep.waves - math.floor(rep.waves)) * rep.occupancy_pct
    assert last == pytest.approx(100 * 16 * (groups - 42) / 672, rel=1e-12)
    assert abs(last - float(second_wave)) < 0.1  # the guide truncates one and rounds the other


def test_vectoradd1_fills_the_gpu() -> None:
    """The table's 53760 groups of 512 ("27.5M" work-items), 860K threads: 100 % in 1280 waves."""
    rep = compute(_xe_lp(), wg=512, sg=32, global_size=53760 * 512)
    assert rep.total_work_groups == 53760
    assert rep.peak_occupancy_pct == rep.average_occupancy_pct == 100.0
    assert rep.threads_per_work_group is not None
    assert rep.waves == 1280 and rep.total_work_groups * rep.threads_per_work_group == 860160


def test_spec_example_peak() -> None:
    rep = compute(load_device("xe-lp"), wg=512, sg=32, global_size=16384)
    assert rep.peak_occupancy_pct == pytest.approx(76.190476190476, rel=1e-12)
    assert rep.occupancy_pct == 100.0 and rep.work_groups_per_unit == 7 and rep.limiter == "threads"


@pytest.mark.parametrize(
    ("groups", "calculator", "exact"),
    [(1, 2.43, 2.38), (44, 52.50, 52.38)],
)
def test_average_is_exact_where_the_calculator_rounds_waves(groups: int, calculator: float, exact: float) -> None:
    """The calculator derives the average from the wave count rounded to 2 decimals."""
    rep = compute(_xe_lp(), wg=512, sg=32, global_size=512 * groups)
    assert rep.average_occupancy_pct is not None and rep.calculator_average_occupancy_pct is not None
    assert rep.waves is not None
    assert round(rep.average_occupancy_pct, 2) == exact
    assert round(rep.calculator_average_occupancy_pct, 2) == calculator
    assert rep.calculator_waves == round(rep.waves, 2) != rep.waves


@pytest.mark.parametrize(
    ("r", "groups", "threads", "occupancy"),
    [(1, 7, 16, 100.0), (2, 3, 32, 600 / 7), (3, 2, 48, 600 / 7), (4, 1, 64, 400 / 7)],
)
def test_r_table_local_range_1_r_128(r: int, groups: int, threads: int, occupancy: float) -> None:
    """Guide 02: local range (1, R, 128) at sub-group 8 with a barrier: 7, 3, 2, 1 work-groups."""
    rep = compute(_xe_lp(), wg=(1, r, 128), sg=8, barrier=True)
    assert rep.valid
    assert (rep.work_groups_per_unit, rep.threads_per_work_group) == (groups, threads)
    assert rep.occupancy_pct == pytest.approx(occupancy, rel=1e-12)
    assert rep.limiter == "threads"


def test_r_table_r4_is_57_percent() -> None:
    rep = compute(_xe_lp(), wg=(1, 4, 128), sg=8, barrier=True)
    assert f"{rep.occupancy_pct:.0f}" == "57"
    assert rep.summary().startswith("64 threads per work-group: 1 work-group fits an Xe-core, 57% occupancy")


@pytest.mark.parametrize("r", [5, 6, 8])
def test_r_table_above_4_fails_to_launch(r: int) -> None:
    rep = compute(_xe_lp(), wg=(1, r, 128), sg=8, barrier=True)
    assert not rep.valid and rep.limiter == "work-group-size"
    assert "512" in (rep.error or "")


def test_r_table_with_the_guides_global_range() -> None:
    """With global (64, 64, 128), R = 3 cannot split the 64 rows; R = 4 runs 170.67 waves."""
    bad = compute(_xe_lp(), wg=(1, 3, 128), sg=8, barrier=True, global_size=(64, 64, 128))
    assert not bad.valid and bad.limiter == "global-size" and "dimension 1" in (bad.error or "")
    good = compute(_xe_lp(), wg=(1, 4, 128), sg=8, barrier=True, global_size=(64, 64, 128))
    assert good.valid and good.calculator_waves == 170.67


# --- Gen9 (guide 01) --------------------------------------------------------------------------------


def _gen9() -> IntelProfile:
    dev = load_device("gen9")
    assert isinstance(dev, IntelProfile)
    return dev


def test_gen9_subslice_as_in_guide_01() -> None:
    dev = _gen9()
    assert dev.xves_per_xe_core == 8 and dev.threads_per_xve == 7 and dev.threads_per_xe_core == 56
    assert dev.slm_capacity_bytes_per_unit == 64 * 1024
    assert dev.threads_per_xe_core * 8 == 448  # concurrent work-items at SIMD 8
    rep = compute(dev, wg=(1, 4, 64), sg=8)
    assert rep.work_groups_per_unit == 1 and rep.occupancy_pct == pytest.approx(400 / 7)


def test_gen9_max_work_group_size_follows_the_calculator() -> None:
    """Guide 01 has a 448-item group (and says only R > 7 fails); the calculator's maximum is 256."""
    dev = _gen9()
    assert dev.max_work_group_size == 256
    assert any("448" in note for note in dev.notes)
    rep = compute(dev, wg=448, sg=8)
    assert not rep.valid and rep.limiter == "work-group-size"
    for r in (5, 6, 7):
        assert not compute(dev, wg=(1, r, 64), sg=8).valid
    assert compute(dev, wg=(1, 4, 64), sg=8).valid


def test_gen9_work_group_cap_follows_the_calculator() -> None:
    """Guide 01: at most 16 work-groups per subslice; the calculator: 56, or 32 with barriers."""
    dev = _gen9()
    assert any("16 work-groups" in note for note in dev.notes)
    free = compute(dev, wg=8, sg=8)
    assert (free.work_groups_per_unit, free.occupancy_pct) == (56, 100.0)
    synced = compute(dev, wg=8, sg=8, barrier=True)
    assert synced.work_groups_per_unit == 32 and synced.limiter == "barrier-registers"
    assert synced.occupancy_pct == pytest.approx(400 / 7)
    # Full occupancy does not need one 56-thread group: seven groups of 8 threads do it.
    assert compute(dev, wg=64, sg=8).occupancy_pct == 100.0


def test_xe_lp_slm_follows_the_calculator() -> None:
    """Guide 02 speaks of "an Xe-core's 128KB SLM"; the calculator gives Xe-LP 64 KB."""
    dev = _xe_lp()
    assert dev.slm_capacity_bytes_per_unit == 64 * 1024 == dev.slm_bytes_per_unit
    assert any("128KB" in note for note in dev.notes)
    assert not compute(dev, wg=256, sg=16, slm_bytes=96 * 1024).valid
    rep = compute(dev, wg=64, sg=16, slm_bytes=33 * 1024)
    assert rep.slm_bytes_used == 64 * 1024 and rep.work_groups_per_unit == 1 and rep.limiter == "slm"
