"""Device profiles: the built-in TOML files, and the errors a user's own file gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.occupancy import DeviceError, IntelProfile, NvidiaProfile, device_ids, load_device

SPEC_IDS = ("gen9", "xe-lp", "xe-hpg", "xe-hpc", "xe2-hpg", "a100", "h100")

GOOD_INTEL = """\
vendor = "intel"
name = "Test GPU"
source = "made up for a test"
calculator_id = "none"
xve_count = 32
xves_per_xe_core = 8
threads_per_xve = 8
threads_per_xe_core = 64
sub_group_sizes = [16, 32]
slm_kb_per_xe_core = 128
slm_kb_max_per_work_group = 64
slm_kb_allowed_sizes = [0, 4, 16, 64]
max_work_group_size = 512
max_work_groups_per_xe_core = 32
barrier_registers = 16
large_grf = false
cache_line_bytes = 64
slm_banks = 16
sector_bytes = 64
slm_bank_bytes = 4
"""


def test_spec_devices_come_first() -> None:
    assert device_ids()[: len(SPEC_IDS)] == SPEC_IDS
    assert {"gen11", "dg1", "arc-a750", "flex-170", "xe-lpg", "xe2-lpg", "max-1100", "arc-b570"} <= set(device_ids())


@pytest.mark.parametrize("device_id", device_ids())
def test_every_builtin_profile_loads_with_a_source(device_id: str) -> None:
    dev = load_device(device_id)
    assert dev.id == device_id
    assert dev.name and len(dev.source) > 40
    assert dev.vendor in ("intel", "nvidia") and dev.is_intel == (dev.vendor == "intel")
    assert dev.unit == ("xe-core" if dev.is_intel else "sm")
    assert dev.default_sub_group_size == dev.sub_group_sizes[0]
    assert 0 < dev.slm_bytes_per_unit <= dev.slm_capacity_bytes_per_unit
    assert dev.unit_count > 0


def test_spec_device_sizes() -> None:
    counts = {d: float(load_device(d).unit_count) for d in SPEC_IDS}
    assert counts == {"gen9": 3, "xe-lp": 6, "xe-hpg": 32, "xe-hpc": 128, "xe2-hpg": 20, "a100": 108, "h100": 132}
    pvc = load_device("xe-hpc")
    assert isinstance(pvc, IntelProfile) and pvc.large_grf and pvc.cache_line_bytes == 64
    assert not any(load_device(d).large_grf for d in ("gen9", "xe-lp", "xe-hpg", "xe2-hpg"))  # type: ignore[attr-defined]


def test_nvidia_constants() -> None:
    h100, a100 = load_device("h100"), load_device("a100")
    assert isinstance(h100, NvidiaProfile) and isinstance(a100, NvidiaProfile)
    for dev in (h100, a100):
        assert dev.register_allocation_unit == 256 and dev.register_sub_partitions == 4
        assert dev.shared_memory_allocation_unit == 128 and dev.reserved_shared_memory_per_block == 1024
        assert dev.default_registers_per_thread * dev.max_threads_per_sm == dev.registers_per_sm
    assert h100.shared_memory_carveouts_kb[-1] == 228 and a100.shared_memory_carveouts_kb[-1] == 164
    assert a100.shared_memory_per_block_optin == 163 * 1024


def test_every_profile_states_its_memory_model() -> None:
    """Intel GPUs move whole 64-byte lines and have 16 SLM banks; NVIDIA moves 32-byte sectors of its
    128-byte lines and has 32 banks; banks are 4 bytes wide on both (guide chapters 01 and 04)."""
    for device_id in device_ids():
        dev = load_device(device_id)
        banks = 16 if dev.is_intel else 32
        sector = 64 if dev.is_intel else 32
        assert (dev.sector_bytes, dev.local_memory_banks, dev.slm_bank_bytes) == (sector, banks, 4), device_id
        assert dev.to_json()["local_memory_banks"] == banks


def test_variants_inherit_from_their_base() -> None:
    a750, a770 = load_device("arc-a750"), load_device("xe-hpg")
    assert isinstance(a750, IntelProfile) and isinstance(a770, IntelProfile)
    assert a750.xve_count == 448 and a750.unit_count == 28
    assert a750.threads_per_xe_core == a770.threads_per_xe_core
    assert a750.source != a770.source and a750.notes == ()


def test_unknown_id() -> None:
    with pytest.raises(DeviceError, match=r"unknown device 'xe-9000'.*xe-lp"):
        load_device("xe-9000")
    assert issubclass(DeviceError, ValueError)


def _write(tmp_path: Path, text: str, name: str = "gpu.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_file_complete(tmp_path: Path) -> None:
    dev = load_device(_write(tmp_path, GOOD_INTEL, "mine.toml"))  # a Path works as well as a str
    assert isinstance(dev, IntelProfile)
    assert dev.id == "mine" and dev.sub_group_sizes == (16, 32) and dev.unit_count == 4


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [
        (lambda t: t.replace('vendor = "intel"', 'vendor = "amd"'), r"field 'vendor' must be one of: intel, nvidia"),
        (lambda t: t.replace("xve_count = 32\n", ""), r"missing field 'xve_count' \(a positive integer\)"),
        (
            lambda t: t.replace("xve_count = 32", "xve_count = -4"),
            r"field 'xve_count' must be a positive integer \(got -4\)",
        ),
        (lambda t: t.replace("large_grf = false", "large_grf = 1"), r"field 'large_grf' must be true or false"),
        (
            lambda t: t + "warp_size = 32\n",
            r"unknown field 'warp_size' for a intel device; accepted fields: .*xve_count",
        ),
        (
            lambda t: t.replace("threads_per_xe_core = 64", "threads_per_xe_core = 32"),
            r"'threads_per_xe_core' is 32 but must equal",
        ),
        (
            lambda t: t.replace("[0, 4, 16, 64]", "[0, 16, 4]"),
            r"'slm_kb_allowed_sizes' must be a strictly ascending list",
        ),
        (lambda t: t.replace("[0, 4, 16, 64]", "[0, 4, 16]"), r"'slm_kb_allowed_sizes' must reach"),
        (
            lambda t: t.replace("sub_group_sizes = [16, 32]", "sub_group_sizes = []"),
            r"'sub_group_sizes' must be a non-empty list",
        ),
        (lambda t: t.replace("sector_bytes = 64\n", ""), r"missing field 'sector_bytes' \(a positive integer\)"),
        (
            lambda t: t.replace("sector_bytes = 64", "sector_bytes = 48"),
            r"'sector_bytes' is 48 but must be a power of two",
        ),
        (lambda t: t.replace("sector_bytes = 64", "sector_bytes = 128"), r"'sector_bytes' is 128 but must divide"),
        (
            lambda t: t.replace("slm_bank_bytes = 4", "slm_bank_bytes = 0"),
            r"'slm_bank_bytes' must be a positive integer",
        ),
        (lambda t: t.replace("name =", "name = ="), r"not a valid TOML file"),
        (lambda t: 'base = "nope"\n' + t, r"field 'base' must be a built-in device id"),
    ],
)
def test_user_file_errors_name_file_field_and_accepted(tmp_path: Path, edit, pattern: str) -> None:
    path = _write(tmp_path, edit(GOOD_INTEL))
    with pytest.raises(DeviceError, match=pattern) as exc:
        load_device(str(path))
    assert str(exc.value).startswith(str(path))


def test_missing_user_file(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="cannot read device file"):
        load_device(str(tmp_path / "absent.toml"))


def test_nvidia_user_file_checks_carveouts(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[1] / "kernlint/occupancy/devices/h100.toml").read_text()
    good = load_device(_write(tmp_path, text.replace('id = "h100"', 'id = "h100-copy"')))
    assert good.id == "h100-copy"
    bad = _write(tmp_path, text.replace("196, 228]", "196]"), "bad.toml")
    with pytest.raises(DeviceError, match="'shared_memory_carveouts_kb' must end at shared_memory_per_sm"):
        load_device(bad)
