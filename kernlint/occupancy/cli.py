"""The ``kernlint occupancy`` and ``kernlint devices`` subcommands.

``register`` adds both to the caller's argparse subparsers, so the top-level CLI owns the program
name and the occupancy package owns its options. rich is imported only when text is printed,
which keeps ``import kernlint.occupancy`` cheap for rules.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from kernlint.occupancy.profiles import DeviceProfile
    from kernlint.occupancy.report import OccupancyReport

DEFAULT_DEVICE = "xe-hpc"

_EXTENT = re.compile(r"^\s*\d+\s*(?:[x,*]\s*\d+\s*){0,2}$", re.IGNORECASE)
_BYTES = re.compile(r"^\s*(\d+)\s*(b|k|kb|kib)?\s*$", re.IGNORECASE)


def parse_extent(text: str) -> int | tuple[int, ...]:
    """``"512"`` -> 512; ``"8x8x4"`` or ``"8,8,4"`` -> (8, 8, 4)."""
    if not _EXTENT.match(text):
        raise argparse.ArgumentTypeError(
            f"invalid size {text!r}: give N, or 2-3 sizes joined by 'x' or ',' (e.g. 8x8x4)"
        )
    dims = tuple(int(p) for p in re.split(r"[x,*]", text.strip(), flags=re.IGNORECASE))
    if 0 in dims:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}: sizes must be positive")
    return dims[0] if len(dims) == 1 else dims


def parse_bytes(text: str) -> int:
    """``"4096"`` or ``"4K"``/``"4KB"``/``"4KiB"`` (kibibytes) -> bytes."""
    from kernlint.occupancy.profiles import KB  # here, so that building the parser loads no device model

    m = _BYTES.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"invalid byte count {text!r}: give e.g. 4096 or 4K")
    return int(m.group(1)) * (1 if (m.group(2) or "b").lower() == "b" else KB)


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: give a positive integer")
    return int(text)


def register(subparsers: Any) -> None:
    """Add the ``occupancy`` and ``devices`` subcommands to ``subparsers``."""
    occ = subparsers.add_parser(
        "occupancy",
        help="occupancy of a work-group configuration on a device",
        description="Work-groups per Xe-core/SM, occupancy, limiting resource and whole-GPU waves "
        "for one launch configuration, as Intel's GPU Occupancy Calculator or NVIDIA's occupancy "
        "API computes them.",
    )
    occ.add_argument(
        "--device",
        default=DEFAULT_DEVICE,
        metavar="ID|FILE.toml",
        help=f"device id (see `devices`) or a device TOML file (default {DEFAULT_DEVICE})",
    )
    occ.add_argument(
        "--wg",
        required=True,
        type=parse_extent,
        metavar="N",
        help="work-group (block) size: N, or AxB / AxBxC (also A,B,C)",
    )
    occ.add_argument("--sg", type=_positive, metavar="N", help="sub-group size (default: the device's)")
    occ.add_argument(
        "--slm",
        type=parse_bytes,
        default=0,
        metavar="BYTES",
        help="local (shared) memory per work-group in bytes, or with a K suffix",
    )
    occ.add_argument(
        "--global",
        dest="global_size",
        type=parse_extent,
        metavar="N",
        help="global size in work-items (N or AxBxC) for the whole-GPU figures",
    )
    occ.add_argument("--barrier", action="store_true", help="the kernel uses work-group barriers")
    occ.add_argument("--large-grf", action="store_true", help="large register file mode (Intel)")
    occ.add_argument("--regs", type=_positive, metavar="N", help="registers per thread (NVIDIA)")
    occ.add_argument("--format", choices=("text", "json"), default="text")
    occ.set_defaults(func=run_occupancy)

    devs = subparsers.add_parser(
        "devices", help="list device profiles", description="Built-in device profiles and their key parameters."
    )
    devs.add_argument("--format", choices=("text", "json"), default="text")
    devs.set_defaults(func=run_devices)


def _fail(message: str) -> int:
    print(f"kernlint: error: {message}", file=sys.stderr)
    return 2


def run_occupancy(args: argparse.Namespace) -> int:
    """Exit 0 when the launch can run, 1 when it cannot, 2 on a usage or device error."""
    from kernlint.occupancy.api import compute
    from kernlint.occupancy.loader import DeviceError, load_device

    try:
        dev = load_device(args.device)
    except DeviceError as exc:
        return _fail(str(exc))
    try:
        rep = compute(
            dev,
            wg=args.wg,
            sg=args.sg,
            slm_bytes=args.slm,
            global_size=args.global_size,
            barrier=args.barrier,
            large_grf=args.large_grf,
            regs=args.regs,
        )
    except ValueError as exc:
        return _fail(str(exc))
    if args.format == "json":
        print(json.dumps(rep.to_json(), indent=2))
    else:
        _print_occupancy(dev, rep)
    return 0 if rep.valid else 1


def run_devices(args: argparse.Namespace) -> int:
    """List every built-in profile."""
    from kernlint.occupancy.loader import DeviceError, device_ids, load_device

    try:
        devices = [load_device(d) for d in device_ids()]
    except DeviceError as exc:
        return _fail(str(exc))
    if args.format == "json":
        print(json.dumps({"devices": [d.to_json() for d in devices]}, indent=2))
    else:
        _print_devices(devices)
    return 0


def _console() -> Console:
    from rich.console import Console

    console = Console(highlight=False, markup=False, emoji=False)
    if not console.is_terminal:  # piped: do not cut device names at an imaginary 80 columns
        console = Console(highlight=False, markup=False, emoji=False, width=140)
    return console


def _dims(dims: tuple[int, ...]) -> str:
    total = 1
    for d in dims:
        total *= d
    return str(total) if len(dims) == 1 else f"{'x'.join(map(str, dims))} = {total}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} %"


def _print_occupancy(dev: DeviceProfile, rep: OccupancyReport) -> None:
    from rich.table import Table
    from rich.text import Text

    from kernlint.occupancy.charts import render, slm_sweep, wg_sweep
    from kernlint.occupancy.profiles import IntelProfile, NvidiaProfile

    i = rep.inputs
    intel = isinstance(dev, IntelProfile)
    group, unit = ("work-group", "Xe-core") if intel else ("block", "SM")
    table = Table(title=f"{dev.name} ({dev.id})", show_header=False, title_justify="left")
    table.add_column("quantity", style="bold")
    table.add_column("value")
    table.add_row(f"{group} size", _dims(i.wg_dims))
    table.add_row("sub-group size", f"{i.sg}{' (device default)' if i.sg_assumed else ''}")
    table.add_row(
        f"local memory per {group}",
        f"{i.slm_bytes} B requested, " + ("-" if rep.slm_bytes_used is None else f"{rep.slm_bytes_used} B allocated"),
    )
    if isinstance(dev, NvidiaProfile):
        table.add_row("registers per thread", f"{i.regs}{' (assumed)' if i.regs_assumed else ''}")
    if intel:
        yes_no = {True: "yes", False: "no"}
        table.add_row("barrier / large GRF", f"{yes_no[i.barrier]} / {yes_no[i.large_grf]}")
    threads = "hardware threads" if intel else "threads (whole warps)"
    table.add_row(f"{threads} per {group}", str(rep.threads_per_work_group))
    table.add_row(f"{group}s per {unit}", str(rep.work_groups_per_unit))
    table.add_row(f"{unit} occupancy", _pct(rep.occupancy_pct) if rep.valid else "-")
    table.add_row("limiter", ", ".join(rep.limiters) if rep.limiters else "-")
    if i.global_dims is not None and rep.valid:
        table.add_row("global size", f"{_dims(i.global_dims)} ({rep.total_work_groups} {group}s)")
        table.add_row("peak GPU occupancy", _pct(rep.peak_occupancy_pct))
        average = _pct(rep.average_occupancy_pct)
        if rep.calculator_average_occupancy_pct is not None and rep.calculator_waves != rep.waves:
            average += f" (Intel's calculator: {rep.calculator_average_occupancy_pct:.2f} %)"
        table.add_row("average GPU occupancy", average)
        table.add_row("waves", f"{rep.waves:.2f}")
    out = _console()
    out.print(table)
    if rep.valid:
        out.print(Text(rep.summary()), soft_wrap=True)
    else:
        out.print(Text(f"cannot run: {rep.error}", style="bold red"), soft_wrap=True)
    out.print()
    out.print(render(wg_sweep(dev, rep)))
    out.print(render(slm_sweep(dev, rep), as_bytes=True))


def _print_devices(devices: list[DeviceProfile]) -> None:
    from rich import box
    from rich.table import Table

    from kernlint.occupancy.profiles import KB, IntelProfile, NvidiaProfile

    rows = []
    for d in devices:
        if isinstance(d, IntelProfile):
            units, resident = f"{float(d.unit_count):g} Xe-cores", f"{d.threads_per_xe_core} threads"
        else:
            assert isinstance(d, NvidiaProfile)
            units, resident = f"{d.sm_count} SMs", f"{d.max_warps_per_sm} warps"
        host = d.host
        link = (
            "integrated"
            if host.integrated
            else "?"
            if host.link_gb_per_s is None
            else f"{host.link_name()} {host.link_gb_per_s:.3g} GB/s"
        )
        rows.append(
            (
                d.id,
                units,
                resident,
                str(d.max_work_group_size),
                ",".join(map(str, d.sub_group_sizes)),
                f"{d.slm_bytes_per_unit // KB} KB",
                link,
                d.name,
            )
        )
    headers = ("id", "units", "resident", "max wg", "sub-groups", "SLM/wg", "host link", "name")
    table = Table(
        title="kernlint devices",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        expand=True,
        collapse_padding=True,
    )
    for k, header in enumerate(headers[:-1]):
        table.add_column(header, no_wrap=True, style="bold" if k == 0 else None)
    table.add_column(headers[-1], no_wrap=True, overflow="ellipsis", ratio=1)
    for row in rows:
        table.add_row(*row)
    _console().print(table)
