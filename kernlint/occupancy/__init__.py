"""Occupancy model: how many work-groups an Xe-core or SM holds, what limits it, how full the GPU is.

Rules use ``load_device`` and ``compute``; the numbers reproduce Intel's GPU Occupancy Calculator
and NVIDIA's ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` (see the model modules for where,
and why, kernlint departs from them). Importing this package is cheap: no rich, no TOML parsing
until a device is loaded.
"""

from kernlint.occupancy.api import compute
from kernlint.occupancy.launch import LaunchInputs
from kernlint.occupancy.loader import DeviceError, device_ids, load_device
from kernlint.occupancy.profiles import DeviceProfile, IntelProfile, NvidiaProfile
from kernlint.occupancy.report import OccupancyReport

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
