"""What moving data costs, on each target device's host link: the cost builders the data rules share.

Every builder returns a `kernlint.cost.Cost` whose value is None, with the missing input named and the
formula shown, when an input is unknown: nothing here guesses a size or a bandwidth. The time of a
copy on each device's host link is `kernlint.transfer_cost.transfer_cost` (the transfers family uses
it too). A builder only one rule uses lives in that rule's module (KL101's `buffer_in_loop_cost`,
KL102's `map_copy_cost`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kernlint.cost import Cost
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.occupancy import DeviceProfile
from kernlint.transfer_cost import transfer_cost


def accessor_copy_cost(uses: AccessorUses, direction: str, devices: Sequence[DeviceProfile]) -> Cost:
    """KL102/KL103: the needless copy of the whole buffer, once per submission, on the host link. A
    buffer without host memory is never copied back, so a read-only one saves no copy: what remains is
    later kernels waiting for this one, which the device model cannot time."""
    if direction == "device-to-host" and uses.buffer_has_host_data is False:
        return Cost(
            None,
            "s",
            "on the host link: none",
            "later kernels' wait for this one",
            "no host memory behind the buffer, so no copy back is saved; later kernels using it still "
            "wait for this one",
            missing=("how long later kernels wait (not in the device model)",),
        )
    missing = []
    if uses.buffer_bytes is None:
        if uses.buffer_extent is None or not uses.buffer_extent.known:
            missing.append("the buffer's extent")
        if uses.element_size is None:
            missing.append("the element size")
    assumptions = [f"one needless {direction} copy of the whole buffer per submission"]
    if uses.buffer_has_host_data is False:
        assumptions.append("the buffer has no host memory behind it: the copy happens only after the host accessed it")
    return transfer_cost(devices, uses.buffer_bytes, 1, per="per submission", missing=missing, assumptions=assumptions)
