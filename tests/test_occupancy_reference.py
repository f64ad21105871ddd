"""The occupancy model against the reference data in tests/data/.

Every case of Intel's calculator sample (numbers produced by the calculator page itself) and every
row of the H100 sample (``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` on real hardware) must be
reproduced. The samples are copies of the project's shared reference data (see tests/data/README.md),
so the suite is complete in any checkout.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kernlint.occupancy import IntelProfile, NvidiaProfile, compute, load_device
from kernlint.occupancy.model_nvidia import max_active_blocks, max_threads_per_block

DATA = Path(__file__).resolve().parent / "data"

#: The calculator's family codes and the kernlint profile taken from each.
FAMILY = {
    "gen9": "gen9",
    "gen11": "gen11",
    "gen12": "xe-lp",
    "xe_dg1": "dg1",
    "xe_hpg_dg2_arc": "xe-hpg",
    "xe_hp_ats": "flex-170",
    "xe_lpg": "xe-lpg",
    "xe_hpc_pvc": "xe-hpc",
    "xe2_hpg": "xe2-hpg",
    "xe2_lpg": "xe2-lpg",
}
HYPOTHETICAL = "custom:Gen9-params-with-max-WG-1024-HYPOTHETICAL"


def _load(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


INTEL = _load("intel-calculator-sample.json")
CUDA = _load("cuda-h100-sample.json")


def _params(data: dict[str, Any], key: str, ident: str) -> list[Any]:
    return [pytest.param(item, id=ident.format(i=i, item=item)) for i, item in enumerate(data[key])]


def _page_extent(text: str) -> tuple[int, ...] | None:
    """A size box of the page: empty means none; "a,b,c" (or "a*b*c" for the global size)."""
    if text.strip() == "":
        return None
    sep = "*" if "*" in text else ","
    return tuple(int(part) for part in text.split(sep))


def _device(gpu: str, xve_count: int) -> IntelProfile:
    dev = replace(load_device("gen9"), max_work_group_size=1024) if gpu == HYPOTHETICAL else load_device(FAMILY[gpu])
    assert isinstance(dev, IntelProfile)
    return replace(dev, xve_count=xve_count)


# --- Intel: the profiles hold the calculator's GPU table -------------------------------------------


@pytest.mark.parametrize("gpu", _params(INTEL, "gpus", "{item[id]}"))
def test_intel_profile_matches_calculator_table(gpu: dict[str, Any]) -> None:
    dev = load_device(FAMILY[gpu["id"]])
    p = gpu["params"]
    assert isinstance(dev, IntelProfile)
    assert dev.calculator_id == gpu["id"]
    assert dev.xves_per_xe_core == p["EU_Per_Sub_Slice"]
    assert dev.threads_per_xve == p["Threads_Per_EU"]
    assert dev.threads_per_xe_core == p["Max_Threads_Per_Sub_Slice"]
    assert dev.large_grf == p["Large_GRF_Mode"]
    assert list(dev.sub_group_sizes) == p["Subgroup_Sizes"]
    assert dev.slm_kb_per_xe_core == p["SLM_Size_Per_Sub_Slice"]
    assert dev.slm_kb_max_per_work_group == p["SLM_Size_Per_Work_Group"]
    assert list(dev.slm_kb_allowed_sizes) == p["TG_SLM_Sizes"]
    assert dev.max_work_group_size == p["Max_Work_Group_Size"]
    assert dev.max_work_groups_per_xe_core == p["Max_Num_Of_Workgroups"]
    assert dev.barrier_registers == p["Max_Num_Of_Barrier_Registers"]
    assert dev.xve_count in p["EU_Count"]


# --- Intel: every calculator case ------------------------------------------------------------------


@pytest.mark.parametrize("case", _params(INTEL, "cases", "{item[gpu]}-{item[id]}-{item[tag]}"))
def test_intel_calculator_case(case: dict[str, Any]) -> None:
    inp, out = case["inputs"], case["outputs"]
    dev = _device(case["gpu"], inp["xve_count"])
    wg = _page_extent(inp["work_group_size"])
    assert wg is not None  # every case sets a work-group size
    global_size = _page_extent(inp["global_size"])
    requested_kb = inp["slm_kb_requested"]
    # The page's SLM slider stops at the per-work-group maximum; kernlint refuses instead.
    slm_kb = min(requested_kb, dev.slm_kb_max_per_work_group)
    kwargs = dict(
        sg=inp["sub_group_size"],
        global_size=global_size,
        barrier=inp["barrier"],
        large_grf=inp["large_grf"],
    )
    if 0 in wg:
        # The page alerts "does not divide"; a zero-sized work-group is a usage error here.
        assert not out["valid"] and "does not divide" in out["error_alerts"][0]
        with pytest.raises(ValueError, match="wg"):
            compute(dev, wg=wg, slm_bytes=slm_kb * 1024, **kwargs)
        return
    if requested_kb > slm_kb:
        over = compute(dev, wg=wg, slm_bytes=requested_kb * 1024, **kwargs)
        assert not over.valid and over.limiter == "slm"

    if not out["valid"]:
        (alert,) = out["error_alerts"]
        rep = compute(dev, wg=wg, slm_bytes=slm_kb * 1024, **kwargs)
        assert not rep.valid and rep.error
        if alert.startswith("Max Work-Group size for device is "):
            assert rep.limiter == "work-group-size"
            assert str(dev.max_work_group_size) in rep.error
        else:
            assert "does not divide" in alert
            assert rep.limiter == "global-size"
        return

    rep = compute(dev, wg=wg, slm_bytes=slm_kb * 1024, **kwargs)
    assert rep.threads_per_work_group == out["threads_per_work_group"]
    assert rep.slm_bytes_used == out["slm_kb_used"] * 1024
    if out["work_groups_per_xe_core"] == 0:
        # The page prints a silent 0.00 %: the work-group does not fit an Xe-core at all.
        assert out["xe_core_occupancy_pct"] == 0
        assert not rep.valid and rep.limiter == "threads" and "does not fit" in (rep.error or "")
        return
    assert rep.valid, rep.error
    assert rep.work_groups_per_unit == out["work_groups_per_xe_core"]
    assert rep.occupancy_pct == pytest.approx(out["xe_core_occupancy_pct"], rel=1e-12, abs=1e-12)
    if "peak_gpu_occupancy_pct" not in out:
        assert rep.peak_occupancy_pct is None and rep.waves is None
        return
    assert rep.peak_occupancy_pct == pytest.approx(out["peak_gpu_occupancy_pct"], rel=1e-12, abs=1e-12)
    # The sample's average follows the page's rounded wave count: compare the calculator variant.
    assert rep.calculator_average_occupancy_pct == pytest.approx(out["average_gpu_occupancy_pct"], rel=1e-12, abs=1e-12)
    shown = out["gpu_waves_shown"]
    if isinstance(shown, str):
        assert f"{rep.calculator_waves:.2f}" == shown
    else:
        # Whole waves: nothing was rounded, so the exact figures equal the page's.
        assert rep.waves == rep.calculator_waves == shown
        assert rep.average_occupancy_pct == pytest.approx(out["average_gpu_occupancy_pct"], rel=1e-12)
    assert rep.waves is not None and rep.calculator_waves is not None
    assert abs(rep.waves - rep.calculator_waves) <= 0.005 + 1e-12


# --- NVIDIA: the H100 profile and every runtime answer ---------------------------------------------


def test_h100_profile_matches_measured_device() -> None:
    dev = load_device("h100")
    d = CUDA["device"]
    assert isinstance(dev, NvidiaProfile)
    assert dev.compute_capability == f"{d['major']}.{d['minor']}"
    assert dev.sm_count == d["multiProcessorCount"]
    assert dev.warp_size == d["warpSize"]
    assert dev.max_work_group_size == d["maxThreadsPerBlock"]
    assert dev.max_threads_per_sm == d["maxThreadsPerMultiProcessor"]
    assert dev.max_blocks_per_sm == d["maxBlocksPerMultiProcessor"]
    assert dev.registers_per_sm == d["regsPerMultiprocessor"]
    assert dev.registers_per_block == d["regsPerBlock"]
    assert dev.shared_memory_per_sm == d["sharedMemPerMultiprocessor"]
    assert dev.shared_memory_per_block == d["sharedMemPerBlock"]
    assert dev.shared_memory_per_block_optin == d["sharedMemPerBlockOptin"]
    assert dev.reserved_shared_memory_per_block == d["reservedSharedMemPerBlock"]


@pytest.mark.parametrize("kernel", _params({"k": sorted(CUDA["kernels"].items())}, "k", "{item[0]}"))
def test_h100_kernel_thread_limit_from_registers(kernel: tuple[str, dict[str, int]]) -> None:
    name, k = kernel
    limit = max_threads_per_block(load_device("h100"), k["numRegs"])  # type: ignore[arg-type]
    if name.startswith("k_lb"):  # __launch_bounds__ may lower it further
        assert k["maxThreadsPerBlock"] <= limit
    else:
        assert k["maxThreadsPerBlock"] == limit


@pytest.mark.parametrize("row", _params(CUDA, "rows", "{item[0]}-b{item[1]}-d{item[2]}"))
def test_h100_runtime_row(row: list[Any]) -> None:
    cols = dict(zip(CUDA["columns"], row))
    k = CUDA["kernels"][cols["kernel"]]
    dev = load_device("h100")
    assert isinstance(dev, NvidiaProfile)
    block, dyn = cols["blockSize"], cols["dynSmem"]
    # The measurements set MaxDynamicSharedMemorySize to the request.
    api = max_active_blocks(dev, block, k["numRegs"], k["staticSharedBytes"], dyn, max_dynamic_smem=dyn)
    assert api.active_blocks == cols["activeBlocks"]
    warps = math.ceil(block / 32)
    assert api.active_blocks * warps == cols["activeWarps"]

    rep = compute(
        dev,
        wg=block,
        regs=k["numRegs"],
        slm_bytes=dyn,
        static_slm_bytes=k["staticSharedBytes"],
        kernel_max_threads=k["maxThreadsPerBlock"],
    )
    launchable = cols["activeBlocks"] > 0 and block <= k["maxThreadsPerBlock"]
    assert rep.valid is launchable, rep.error
    if launchable:
        assert rep.work_groups_per_unit == cols["activeBlocks"]
        assert rep.occupancy_pct == pytest.approx(100 * cols["occupancy"], rel=1e-12)
        assert rep.threads_per_work_group == warps * 32
    else:
        # Refused by the runtime, or accepted by the API but failing at launch (launch bounds).
        assert rep.error and rep.work_groups_per_unit == 0
