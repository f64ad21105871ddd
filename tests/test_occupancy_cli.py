"""The ``occupancy`` and ``devices`` subcommands, driven through a parser built as the main CLI does."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from kernlint.occupancy import device_ids
from kernlint.occupancy.cli import parse_bytes, parse_extent, register

SPEC_KEYS = {
    "device",
    "inputs",
    "valid",
    "error",
    "threads_per_work_group",
    "work_groups_per_unit",
    "unit",
    "occupancy_pct",
    "limiter",
    "slm_bytes_used",
    "peak_occupancy_pct",
    "average_occupancy_pct",
    "waves",
}
SPEC_INPUT_KEYS = {"wg", "sg", "slm_bytes", "global", "barrier", "large_grf", "regs"}


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="kernlint")
    register(parser.add_subparsers())
    args = parser.parse_args(list(argv))
    return args.func(args)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = run(*argv, "--format", "json")
    return code, json.loads(capsys.readouterr().out)


def test_json_is_the_spec_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "occupancy", "--device", "xe-lp", "--wg", "512", "--sg", "32", "--global", "16384")
    assert code == 0
    assert set(out) == SPEC_KEYS
    assert set(out["inputs"]) >= SPEC_INPUT_KEYS
    assert out["inputs"] | {"sg_assumed": False, "regs_assumed": False} == {
        "wg": 512,
        "sg": 32,
        "slm_bytes": 0,
        "global": 16384,
        "barrier": False,
        "large_grf": False,
        "regs": None,
        "sg_assumed": False,
        "regs_assumed": False,
    }
    assert (out["device"], out["valid"], out["error"], out["unit"]) == ("xe-lp", True, None, "xe-core")
    assert (out["threads_per_work_group"], out["work_groups_per_unit"]) == (16, 7)
    assert (out["occupancy_pct"], out["limiter"], out["slm_bytes_used"]) == (100.0, "threads", 0)
    assert out["peak_occupancy_pct"] == pytest.approx(76.1904761904762)
    assert out["average_occupancy_pct"] == pytest.approx(76.1904761904762)  # exact, not the calculator's 76.00
    assert out["waves"] == pytest.approx(0.7619047619047619)


def test_json_gpu_fields_are_null_without_global(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "occupancy", "--device", "gen9", "--wg", "64")
    assert code == 0
    assert out["inputs"]["sg"] == 32 and out["inputs"]["sg_assumed"] is True
    assert out["peak_occupancy_pct"] is None and out["average_occupancy_pct"] is None and out["waves"] is None


def test_text_table_and_charts(capsys: pytest.CaptureFixture[str]) -> None:
    code = run("occupancy", "--device", "xe-lp", "--wg", "512", "--sg", "32", "--global", "16384")
    text = capsys.readouterr().out
    assert code == 0
    assert "76.2" in text
    assert "work-groups per Xe-core" in text and "threads" in text
    assert "occupancy against work-group size" in text
    assert "occupancy against SLM per work-group" in text
    assert text.count("▲") >= 2
    assert "\x1b[" not in text  # no colour when stdout is not a terminal


def test_text_for_nvidia_says_registers_were_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    code = run("occupancy", "--device", "h100", "--wg", "256", "--slm", "4K")
    text = capsys.readouterr().out
    assert code == 0
    assert "registers per thread" in text and "(assumed)" in text and "blocks per SM" in text


@pytest.mark.parametrize("size", ["8x8x4", "8,8,4", "8X8X4"])
def test_multi_dimensional_sizes(capsys: pytest.CaptureFixture[str], size: str) -> None:
    code, out = run_json(capsys, "occupancy", "--device", "xe-lp", "--wg", size, "--sg", "16", "--global", "64x64x128")
    assert code == 0
    assert out["inputs"]["wg"] == 256 and out["inputs"]["global"] == 64 * 64 * 128
    assert out["threads_per_work_group"] == 16


def test_size_and_byte_parsers() -> None:
    assert parse_extent("512") == 512
    assert parse_extent("8x8x4") == (8, 8, 4) == parse_extent("8, 8, 4")
    assert parse_bytes("4096") == 4096 and parse_bytes("4K") == parse_bytes("4KiB") == 4096
    for bad in ("", "8x", "1x2x3x4", "-8", "8.5", "0x4"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_extent(bad)


@pytest.mark.parametrize("argv", [["--wg", "8x"], ["--wg", "1x2x3x4"], ["--format", "xml", "--wg", "8"], []])
def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run("occupancy", *argv)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_unknown_device_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("occupancy", "--device", "rtx9999", "--wg", "64") == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown device 'rtx9999'" in captured.err and "xe-hpc" in captured.err


def test_option_the_device_lacks_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("occupancy", "--device", "xe-lp", "--wg", "64", "--large-grf") == 2
    assert "large GRF mode is not available on xe-lp" in capsys.readouterr().err


def test_invalid_launch_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "occupancy", "--device", "xe-lp", "--wg", "1024")
    assert code == 1
    assert out["valid"] is False and "512" in out["error"] and out["limiter"] == "work-group-size"
    assert run("occupancy", "--device", "xe-hpc", "--wg", "1024", "--sg", "16", "--large-grf") == 1
    assert "does not fit" in capsys.readouterr().out


def test_user_device_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mygpu.toml"
    path.write_text('base = "xe-hpg"\nname = "My Arc"\nsource = "a test"\nxve_count = 64\n', encoding="utf-8")
    code, out = run_json(capsys, "occupancy", "--device", str(path), "--wg", "256", "--sg", "16", "--global", "8192")
    assert code == 0
    assert out["device"] == "mygpu" and out["work_groups_per_unit"] == 8
    # 4 Xe-cores x 8 groups x 256 = 8192 work-items: exactly one wave.
    assert out["waves"] == 1.0


def test_bad_user_device_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('base = "xe-hpg"\nname = "x"\nsource = "y"\nxve_count = "many"\n', encoding="utf-8")
    assert run("occupancy", "--device", str(path), "--wg", "64") == 2
    err = capsys.readouterr().err
    assert str(path) in err and "'xve_count'" in err and "positive integer" in err


def test_devices_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("devices") == 0
    text = capsys.readouterr().out
    for device in ("gen9", "xe-lp", "xe-hpg", "xe-hpc", "xe2-hpg", "a100", "h100"):
        assert device in text
    code, out = run_json(capsys, "devices")
    assert code == 0
    assert [d["id"] for d in out["devices"]] == list(device_ids())
    h100 = next(d for d in out["devices"] if d["id"] == "h100")
    assert h100["vendor"] == "nvidia" and h100["sm_count"] == 132 and h100["unit"] == "sm"
