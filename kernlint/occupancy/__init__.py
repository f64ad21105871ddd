"""Occupancy model: how many work-groups an Xe-core or SM holds, what limits it, how full the GPU is.

Rules use ``load_device`` and ``compute``; the numbers reproduce Intel's GPU Occupancy Calculator
and NVIDIA's ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` (see the model modules for where,
and why, kernlint departs from them). Importing this package is cheap: no rich, no TOML parsing
until a device is loaded, and no model module until one of the names below is first used (the
command line's grammar imports `kernlint.occupancy.cli`, and with it this package, on every run).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernlint.occupancy.api import compute
    from kernlint.occupancy.launch import LaunchInputs
    from kernlint.occupancy.loader import DeviceError, device_ids, load_device
    from kernlint.occupancy.profiles import DeviceProfile, IntelProfile, NvidiaProfile
    from kernlint.occupancy.report import OccupancyReport

# Each public name and the module that defines it, imported on first use (PEP 562).
_HOMES = {
    "compute": "api",
    "LaunchInputs": "launch",
    "DeviceError": "loader",
    "device_ids": "loader",
    "load_device": "loader",
    "DeviceProfile": "profiles",
    "IntelProfile": "profiles",
    "NvidiaProfile": "profiles",
    "OccupancyReport": "report",
}

__all__ = [
    "DeviceError",
    "DeviceProfile",
    "IntelProfile",
    "LaunchInputs",
    "NvidiaProfile",
    "OccupancyReport",
    "compute",
    "device_ids",
    "load_device",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
