"""What moving data and waiting for the device cost on each target device's host side: the time of a
number of copies of a number of bytes over the host link, and of a blocking wait per loop iteration
(the device's measured launch/sync latency), headline on the device where it is longest.

The figures come from the host side of the device profiles (`kernlint.occupancy.host`): the PCIe
generation and lanes give the link's bandwidth (guide chapter 05's table), an integrated GPU shares host
memory and quotes no link cost. An unknown size or bandwidth is never guessed: the cost's value is then
None, with the missing input named and the formula shown; so is a latency no profile measured. The
data rules (KL101–KL103) and the transfers rules (KL701–KL707) price their copies and waits with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kernlint.cost import Cost, format_bytes, format_seconds
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


_SYNC_FORMULA = "waits × launch/sync latency"


def sync_cost(
    devices: Sequence[DeviceProfile],
    *,
    repeats: int | None,
    bound: str | None = None,
    assumptions: Iterable[str] = (),
) -> Cost:
    """A blocking wait on every iteration of a host loop: the device's launch/sync latency per
    iteration (the host learns the work finished, then submits the next, while the device idles),
    × the trip count when known. One wait after the loop is still needed, so the needless share is
    (iterations − 1) ÷ iterations. The headline is the device where the latency is longest."""
    assumptions = list(assumptions)
    timed = [(d.host.sync_latency_us, d) for d in devices if d.host.sync_latency_us is not None]
    per_device: dict[str, Any] = {
        d.id: (f"{d.host.sync_latency_us:g} µs per wait" if d.host.sync_latency_us is not None else "not measured")
        for d in devices
    }
    figures: dict[str, Any] = {"waits_per_iteration": 1, "per_device": per_device}
    if repeats is not None:
        figures["repeats"] = repeats
    missing = (
        []
        if repeats is not None
        else [f"the loop's trip count{f' (`{bound}`)' if bound else ''} (for the per-loop total)"]
    )
    if not timed:
        ids = ", ".join(d.id for d in devices) or "the target device"
        return Cost(
            None,
            "s",
            "per iteration",
            _SYNC_FORMULA,
            f"? µs per wait (not measured for {ids}) × {repeats if repeats is not None else 'iterations'}",
            tuple(assumptions),
            (f"the launch/sync latency of {ids} (not in the device model)",),
            figures=figures,
        )
    latency, device = max(timed, key=lambda pair: pair[0])
    seconds = latency * 1e-6
    share = 1.0 - 1.0 / repeats if repeats else 1.0
    if repeats is None:
        return Cost(
            seconds,
            "s",
            f"per iteration on {device.id} (total unknown: the trip count is not known)",
            _SYNC_FORMULA,
            f"{latency:g} µs per wait × 1 wait per iteration = {format_seconds(seconds)} per iteration",
            tuple(assumptions),
            tuple(missing),
            share,
            seconds * share,
            device.id,
            figures,
        )
    total = seconds * repeats
    assumptions.append("one wait after the loop is still needed; the others are the waste")
    return Cost(
        total,
        "s",
        f"per loop on {device.id}",
        _SYNC_FORMULA,
        f"{latency:g} µs per wait × {repeats} iterations = {format_seconds(total)}",
        tuple(assumptions),
        (),
        share,
        total * share,
        device.id,
        figures,
    )
