"""The one-call API: input handling, both models' special cases, and the report's outputs."""

from __future__ import annotations

import pytest

from kernlint.occupancy import IntelProfile, NvidiaProfile, compute, load_device
from kernlint.occupancy.model_nvidia import max_active_blocks

KB = 1024


def _h100() -> NvidiaProfile:
    dev = load_device("h100")
    assert isinstance(dev, NvidiaProfile)
    return dev


# --- inputs ----------------------------------------------------------------------------------------


def test_multi_dimensional_work_group_is_multiplied() -> None:
    dev = load_device("xe-hpg")
    assert compute(dev, wg=(8, 8, 4), sg=16) == compute(dev, wg=(8, 8, 4), sg=16)  # pure
    rep = compute(dev, wg=(8, 8, 4), sg=16)
    assert rep.inputs.wg == 256 and rep.threads_per_work_group == 16
    assert rep.to_json()["inputs"]["wg"] == 256


def test_default_sub_group_is_reported_as_assumed() -> None:
    rep = compute(load_device("xe-lp"), wg=512)
    assert rep.inputs.sg == 32 and rep.sg_assumed and rep.to_json()["inputs"]["sg_assumed"] is True
    assert not compute(load_device("xe-lp"), wg=512, sg=32).sg_assumed


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"wg": 0}, "wg must be"),
        ({"wg": (1, 2, 3, 4)}, "wg must be"),
        ({"wg": True}, "wg must be"),
        ({"wg": 64, "slm_bytes": -1}, "slm_bytes must be"),
        ({"wg": 64, "global_size": 0}, "global_size must be"),
        ({"wg": 64, "sg": 0}, "sg must be"),
        ({"wg": 64, "regs": 32}, "regs applies to NVIDIA devices only"),
        ({"wg": 64, "large_grf": True}, "large GRF mode is not available on xe-lp"),
    ],
)
def test_malformed_inputs_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compute(load_device("xe-lp"), **kwargs)


def test_unsupported_sub_group_is_an_invalid_launch() -> None:
    rep = compute(load_device("xe-hpc"), wg=256, sg=8)
    assert not rep.valid and rep.limiter == "sub-group-size" and "32, 16" in (rep.error or "")
    nv = compute(_h100(), wg=256, sg=16)
    assert not nv.valid and nv.limiter == "sub-group-size"


# --- Intel specifics --------------------------------------------------------------------------------


def test_large_grf_halves_threads_but_not_the_denominator() -> None:
    pvc = load_device("xe-hpc")
    normal = compute(pvc, wg=512, sg=16)
    large = compute(pvc, wg=512, sg=16, large_grf=True)
    assert (normal.work_groups_per_unit, normal.occupancy_pct) == (2, 100.0)
    assert (large.work_groups_per_unit, large.occupancy_pct) == (1, 50.0)


def test_slm_round_up_and_limiter() -> None:
    """Calculator write-up: gen12 WG 64 SG 16 SLM 5 KB -> 8 KB used, 8 work-groups, 28.57 %."""
    rep = compute(load_device("xe-lp"), wg=64, sg=16, slm_bytes=5 * KB)
    assert rep.slm_bytes_used == 8 * KB and rep.work_groups_per_unit == 8 and rep.limiter == "slm"
    assert rep.occupancy_pct == pytest.approx(200 / 7)
    # A byte over a whole KB needs the next KB first, then the next allowed size.
    assert compute(load_device("xe-hpc"), wg=64, slm_bytes=16 * KB + 1).slm_bytes_used == 24 * KB


def test_few_work_groups_limit_the_xe_core() -> None:
    """Calculator write-up: one 512-item group at SG 32 on TGL is 14.29 %; seven fill the Xe-core."""
    one = compute(load_device("xe-lp"), wg=512, sg=32, global_size=512)
    assert one.work_groups_per_unit == 1 and one.limiter == "too-few-work-groups"
    assert one.occupancy_pct == pytest.approx(100 / 7)
    seven = compute(load_device("xe-lp"), wg=512, sg=32, global_size=7 * 512)
    assert seven.occupancy_pct == 100.0 and seven.limiters == ("threads", "too-few-work-groups")


def test_fractional_xe_cores() -> None:
    """The calculator's 24-XVE gen12 has 1.5 Xe-cores; one wave is then 1.5 x 7 groups."""
    from dataclasses import replace

    xe_lp = load_device("xe-lp")
    assert isinstance(xe_lp, IntelProfile)
    dev = replace(xe_lp, xve_count=24)
    rep = compute(dev, wg=512, sg=32, global_size=512 * 21)
    assert rep.waves == 2.0 and rep.peak_occupancy_pct == 100.0


def test_product_divisibility_when_ranks_differ() -> None:
    dev = load_device("xe-lp")
    assert compute(dev, wg=(8, 8), sg=16, global_size=4096).valid
    rep = compute(dev, wg=(8, 8), sg=16, global_size=4000)
    assert not rep.valid and rep.limiter == "global-size" and "4000" in (rep.error or "")


# --- NVIDIA specifics (worked examples of nvidia-occupancy-model.md) --------------------------------


@pytest.mark.parametrize(
    ("block", "regs", "static", "dynamic", "carveout", "blocks"),
    [
        (64, 37, 0, 0, None, 24),  # registers per quarter: 12 warps each; pooling would say 25
        (32, 80, 0, 0, None, 24),  # 1-warp blocks at 80 registers held 24 blocks on hardware
        (128, 11, 12300, 4 * KB, None, 13),  # 12300 + 1024 + 4096 -> 17536 B per block
        (256, 80, 16 * KB, 32 * KB, None, 3),  # registers 3, shared memory 4
        (1000, 10, 0, 0, None, 2),  # warps: 32 per block
        (256, 10, 0, 16 * KB, 25, 3),  # carveout 25 % -> 64 KB configuration
        (32, 10, 0, 0, 0, 8),  # carveout 0 is raised to 8 KB so one block (the 1 KB reserve) fits
        (32, 10, 0, 2 * KB, 5, 5),  # 5 % of 228 KB -> 16 KB configuration, 3 KB per block
        (32, 10, 0, 6272, None, 32),  # 128-byte unit + 1 KB reserve, measured on hardware
        (32, 10, 0, 6273, None, 31),
        (32, 10, 0, 7000, None, 28),
    ],
)
def test_h100_worked_examples(
    block: int, regs: int, static: int, dynamic: int, carveout: int | None, blocks: int
) -> None:
    api = max_active_blocks(_h100(), block, regs, static, dynamic, max_dynamic_smem=dynamic, carveout_pct=carveout)
    assert api.active_blocks == blocks
    rep = compute(_h100(), wg=block, regs=regs, slm_bytes=dynamic, static_slm_bytes=static, carveout_pct=carveout)
    assert rep.valid and rep.work_groups_per_unit == blocks
    assert rep.occupancy_pct == pytest.approx(100 * blocks * -(-block // 32) / 64)


def test_h100_limiters() -> None:
    regs = compute(_h100(), wg=256, regs=80, slm_bytes=32 * KB, static_slm_bytes=16 * KB)
    assert regs.limiter == "registers" and dict(regs.bounds)["slm"] == 4
    assert compute(_h100(), wg=1000, regs=10).limiter == "threads"
    assert compute(_h100(), wg=32, regs=10).limiter == "work-group-cap"


def test_runtime_ignores_small_attribute_but_the_launch_fails() -> None:
    """Not opted in and dynamic > attribute: the API answers 13 blocks, the launch is refused."""
    assert max_active_blocks(_h100(), 64, 10, 0, 16 * KB, max_dynamic_smem=0).active_blocks == 13
    rep = compute(_h100(), wg=64, regs=10, slm_bytes=16 * KB, max_dynamic_slm_bytes=0)
    assert not rep.valid and rep.limiter == "slm" and "MaxDynamicSharedMemorySize" in (rep.error or "")


def test_h100_refused_launches() -> None:
    dev = _h100()
    over = compute(dev, wg=1025)
    assert not over.valid and over.limiter == "work-group-size" and "1024" in (over.error or "")
    bound = compute(dev, wg=256, regs=32, kernel_max_threads=128)
    assert max_active_blocks(dev, 256, 32).active_blocks == 8  # the API still answers
    assert not bound.valid and "launch bound of 128" in (bound.error or "")
    regs = compute(dev, wg=800, regs=80)
    assert not regs.valid and regs.limiter == "registers" and "at most 768 threads" in (regs.error or "")
    assert compute(dev, wg=32, slm_bytes=232448).valid
    smem = compute(dev, wg=32, slm_bytes=232449)
    assert not smem.valid and smem.limiter == "slm"
    with pytest.raises(ValueError, match="regs must be an integer from 1 to 255"):
        compute(dev, wg=64, regs=256)


def test_h100_default_registers_are_an_assumption() -> None:
    rep = compute(_h100(), wg=256)
    assert rep.inputs.regs == 32 and rep.inputs.regs_assumed
    assert rep.to_json()["inputs"]["regs"] == 32 and rep.occupancy_pct == 100.0
    assert not compute(_h100(), wg=256, regs=32).inputs.regs_assumed


def test_h100_gpu_level_figures() -> None:
    rep = compute(_h100(), wg=256, regs=32, global_size=256 * 8 * 132 * 3 // 2)
    assert rep.total_work_groups == 8 * 132 * 3 // 2
    assert rep.waves == 1.5 and rep.peak_occupancy_pct == 100.0
    assert rep.average_occupancy_pct == 75.0 and rep.calculator_waves is None


def test_a100_shared_memory() -> None:
    a100 = load_device("a100")
    assert compute(a100, wg=1024, regs=32).work_groups_per_unit == 2
    rep = compute(a100, wg=128, slm_bytes=100 * KB)
    assert rep.work_groups_per_unit == 1 and rep.slm_bytes_used == 101 * KB
    assert compute(a100, wg=128, slm_bytes=163 * KB).valid
    assert not compute(a100, wg=128, slm_bytes=163 * KB + 1).valid
    assert compute(a100, wg=128, slm_bytes=40 * KB).work_groups_per_unit == 4  # 164 KB / (40 + 1) KB


# --- report ------------------------------------------------------------------------------------------


def test_summary_sentences() -> None:
    xe = compute(load_device("xe-lp"), wg=512, sg=8)
    assert xe.summary() == (
        "64 threads per work-group: 1 work-group fits an Xe-core, 57% occupancy (limited by thread contexts)"
    )
    full = compute(load_device("xe-lp"), wg=512, sg=32, global_size=16384)
    assert full.summary() == (
        "16 threads per work-group: 7 work-groups fit an Xe-core, 100% occupancy; "
        "the 32 work-groups fill only 76% of the GPU"
    )
    nv = compute(_h100(), wg=256, regs=80, slm_bytes=32 * KB)
    assert nv.summary() == "256 threads per block (8 warps): 3 blocks fit an SM, 38% occupancy (limited by registers)"
    bad = compute(load_device("xe-lp"), wg=1024)
    assert bad.summary() == bad.error == "work-group size 1024 exceeds the maximum of 512 on xe-lp"


def test_invalid_report_shape() -> None:
    data = compute(load_device("xe-lp"), wg=1024, global_size=4096).to_json()
    assert data["valid"] is False and data["work_groups_per_unit"] == 0 and data["occupancy_pct"] == 0.0
    assert data["peak_occupancy_pct"] is None and data["waves"] is None
