"""What the rule tests of every family share: the engine run on a snippet or a corpus file, the cost
of a corpus finding, and the host-link figures costs are checked against by hand."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from functools import cache
from pathlib import Path

from kernlint.config import Config
from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Fix
from kernlint.discovery import SourceEntry, discover
from kernlint.engine import EngineSetup, analyse_file, analyse_source
from kernlint.session import make_setup

# Guide chapter 05's per-lane table (GB/s, one direction) and the profiles' vendor figures.
GEN4_LANE, GEN5_LANE = 1.969, 3.938
XE_HPC_LINK = 16 * GEN5_LANE  # 63.008 GB/s: the guide's "x16 PCIe ... 63 GB/s"
A100_LINK = 16 * GEN4_LANE  # 31.504 GB/s


@cache
def _setup(device: str) -> EngineSetup:
    return make_setup(Config(devices=(device,)), use_cache=False)


def run_engine(code: str, path: str = "k.c", device: str = "xe-hpc", select: str = "KL") -> list[Diagnostic]:
    """The findings whose code starts with `select` on `code` (dedented unless fixed-form Fortran), as
    the engine produces them for one device: every rule runs, as on the command line."""
    family = "fortran" if path.endswith((".f", ".f90")) else ("c" if path.endswith(".c") else "cpp")
    entry = SourceEntry(path, family, path.endswith(".f"))
    text = textwrap.dedent(code) if not path.endswith(".f") else code
    result = analyse_source(entry, text.encode(), _setup(device))
    return [d for d in result.diagnostics if d.code.startswith(select)]


def fix_of(diagnostic: Diagnostic) -> Fix:
    """The diagnostic's fix, which the test expects it to offer."""
    assert diagnostic.fix is not None, diagnostic.message
    return diagnostic.fix


def findings(path: Path, *devices: str) -> list[Diagnostic]:
    """Every finding on one corpus file for `devices`, as the engine produces them (no cache)."""
    setup = make_setup(replace(Config(), devices=devices or ("xe-hpc",)), use_cache=False)
    entries, _ = discover([str(path)], setup.config)
    return list(analyse_file(entries[0], setup).diagnostics)


def cost_at(path: Path, line: int, code: str, device: str = "xe-hpc", *devices: str) -> Cost:
    """The cost of the `code` finding at `line` of a corpus file, on `device` (and `devices` besides)."""
    found = [
        d for d in findings(path, device, *devices) if d.line == line and d.code == code and d.device in (None, device)
    ]
    assert found, f"no {code} at {path.name}:{line}"
    assert found[0].cost is not None, f"{code} at line {line} carries no cost"
    return found[0].cost
