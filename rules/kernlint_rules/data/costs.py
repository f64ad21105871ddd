"""What moving data costs, on each target device's host link: the cost builders the data rules share.

Every builder returns a `kernlint.cost.Cost` whose value is None, with the missing input named and the
formula shown, when an input is unknown: nothing here guesses a size or a bandwidth. The figures come
from the host side of the device profiles (`kernlint.occupancy.host`). A builder only one rule uses
lives in that rule's module (KL101's `buffer_in_loop_cost`, KL102's `map_copy_cost`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kernlint.cost import Cost, format_bytes, format_seconds
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.occupancy import DeviceProfile

GB = 1e9
_TRANSFER_FORMULA = "bytes × transfers ÷ host-link bandwidth"
_INTEGRATED_NOTE = (
    "{id} is an integrated GPU sharing host memory: a buffer over host memory may not be "
    "copied at all, so no link cost is quoted"
)


def _device_link(device: DeviceProfile, moved: int | None) -> tuple[float | None, str]:
    """Seconds to move `moved` bytes over `device`'s host link, and how that was decided."""
    host = device.host
    if host.integrated:
        return None, "integrated: shares host memory, may not be copied"
    if host.link_gb_per_s is None:
        return None, "host-link bandwidth unknown"
    if moved is None:
        return None, f"{host.link_name()} at {host.link_gb_per_s:g} GB/s; bytes unknown"
    seconds = moved / (host.link_gb_per_s * GB)
    link = f"{host.link_gb_per_s:g} GB/s ({host.link_name()})"
    return seconds, f"{format_bytes(moved)} ÷ {link} = {format_seconds(seconds)}"


def transfer_cost(
    devices: Sequence[DeviceProfile],
    nbytes: int | None,
    transfers: int,
    *,
    per: str,
    repeats: int | None = None,
    repeat_word: str = "",
    missing: Iterable[str] = (),
    assumptions: Iterable[str] = (),
    share: float = 1.0,
) -> Cost:
    """The time `transfers` copies of `nbytes` take on each device's host link, headline on the device
    where it is longest (a device-independent finding holds for every target).

    `per` names one occurrence ("per iteration", "per submission"); with `repeats` known the headline
    is the total over them (`repeat_word`, e.g. "per loop"). `share` is the needless part of the time.
    """
    missing = list(missing)
    assumptions = list(assumptions)
    moved = None if nbytes is None else nbytes * transfers
    per_device: dict[str, Any] = {}
    timed: list[tuple[float, DeviceProfile]] = []
    for device in devices:
        seconds, how = _device_link(device, moved)
        per_device[device.id] = how
        if seconds is not None:
            timed.append((seconds, device))
    figures: dict[str, Any] = {"bytes": nbytes, "transfers": transfers, "bytes_moved": moved}
    if repeats is not None:
        figures["repeats"] = repeats
    figures["per_device"] = per_device
    formula = _TRANSFER_FORMULA + (f" (× trip count {repeat_word})" if repeat_word else "")
    if nbytes is None and not missing:
        missing.append("the size in bytes")
    linked = [d for d in devices if d.host.link_gb_per_s is not None and not d.host.integrated]
    if timed:
        seconds, device = max(timed, key=lambda t: t[0])
        host = device.host
        total = seconds * repeats if repeats is not None else seconds
        quantity = f"on {device.id}'s {host.link_name()} link {repeat_word if repeats is not None else per}"
        basis = (
            f"{format_bytes(nbytes or 0)} × {transfers} ÷ {host.link_gb_per_s:g} GB/s = {format_seconds(seconds)} {per}"
        )
        if repeats is not None:
            basis += f"; × {repeats} = {format_seconds(total)} {repeat_word}"
        return Cost(
            total,
            "s",
            quantity,
            formula,
            basis,
            tuple(assumptions),
            tuple(missing),
            share,
            total * share,
            device.id,
            figures,
        )
    if linked:
        device = linked[0]
        host = device.host
        basis = f"? bytes × {transfers} ÷ {host.link_gb_per_s:g} GB/s ({host.link_name()}, {device.id}) {per}"
        return Cost(
            None,
            "s",
            f"on {device.id}'s {host.link_name()} link {per}",
            formula,
            basis,
            tuple(assumptions),
            tuple(missing),
            None,
            None,
            device.id,
            figures,
        )
    integrated = [d for d in devices if d.host.integrated]
    if integrated:
        note = _INTEGRATED_NOTE.format(id=integrated[0].id)
        return Cost(
            None,
            "s",
            f"on {integrated[0].id}: none quoted",
            formula,
            note,
            tuple(assumptions) + (note,),
            tuple(missing),
            None,
            None,
            integrated[0].id,
            figures,
        )
    missing.append("the target device's host-link bandwidth")
    return Cost(
        None,
        "s",
        f"on the host link {per}",
        formula,
        f"bytes × {transfers} ÷ ? GB/s",
        tuple(assumptions),
        tuple(missing),
        None,
        None,
        None,
        figures,
    )


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
