"""The device-limit check of KL201, with no SYCL in it: a work-group (thread block, OpenMP team) bigger
than the device accepts. The SYCL half of KL201 and its OpenMP half (`thread_limit`, in
`openmp_thread_limit`) both call it with the size they evaluated."""

from __future__ import annotations

from typing import Any

from kernlint.occupancy import DeviceProfile
from kernlint.records import record


@record
class WorkGroupTooLarge:
    """A work-group (thread block, OpenMP team) bigger than the device accepts."""

    size: int
    """The work-group size, or a lower bound of it when `exact` is False."""
    maximum: int
    device: str
    unit: str  # xe-core | sm
    exact: bool = True

    def message(self, what: str) -> str:
        """`what` names the size, e.g. "the nd_range local range (1, 8, 128)" or "thread_limit(2048)"."""
        amount = f"{self.size} work-items" if self.exact else f"at least {self.size} work-items"
        block = "work-group" if self.unit == "xe-core" else "block (work-group)"
        return (
            f"{what} asks for {amount} per {block}, above the maximum of {self.maximum} on "
            f"{self.device}: the launch fails"
        )

    def evidence(self) -> dict[str, Any]:
        return {"work_group_size": self.size, "exact": self.exact, "max_work_group_size": self.maximum}


def work_group_too_large(device: DeviceProfile, size: int, exact: bool = True) -> WorkGroupTooLarge | None:
    """The finding when `size` work-items per work-group exceed `device`'s maximum, else None."""
    if size > device.max_work_group_size:
        return WorkGroupTooLarge(size, device.max_work_group_size, device.id, device.unit, exact)
    return None
