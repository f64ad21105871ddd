"""The occupancy model asked about one launch shape, once per shape and device, and the words the
launch rules describe its answer with."""

from __future__ import annotations

from functools import lru_cache

from kernlint.occupancy import DeviceProfile, OccupancyReport, compute
from kernlint.occupancy.report import format_pct
from kernlint_rules.launch.shape import SubGroup

KB = 1024


def occupancy(
    device: DeviceProfile,
    dims: tuple[int, ...],
    sg: SubGroup | None,
    slm_bytes: int = 0,
    barrier: bool = False,
    global_dims: tuple[int, ...] | None = None,
) -> OccupancyReport | None:
    """The model's report for this launch shape, or None for values the model rejects as malformed
    (a zero or negative size evaluated from the source): a rule then stays silent."""
    shape = (device, tuple(dims), sg, slm_bytes, barrier, tuple(global_dims) if global_dims is not None else None)
    try:
        hash(shape)
    except TypeError:  # a plugin's device profile that cannot be a cache key
        return _occupancy.__wrapped__(*shape)
    return _occupancy(*shape)


@lru_cache(maxsize=1024)
def _occupancy(
    device: DeviceProfile,
    dims: tuple[int, ...],
    sg: SubGroup | None,
    slm_bytes: int,
    barrier: bool,
    global_dims: tuple[int, ...] | None,
) -> OccupancyReport | None:
    """`occupancy`, once per launch shape and device: several rules ask about the same launch, and
    reports are immutable."""
    try:
        return compute(
            device,
            wg=dims,
            sg=sg.model_sg if sg is not None else None,
            slm_bytes=slm_bytes,
            barrier=barrier,
            global_size=global_dims,
        )
    except ValueError:
        return None


# -- wording ----------------------------------------------------------------------------------------


def unit_word(unit: str, plural: bool = False) -> str:
    """ "Xe-core" / "SM" from a report's or profile's `unit`."""
    word = "Xe-core" if unit == "xe-core" else "SM"
    return word + "s" if plural else word


def kb(nbytes: int) -> str:
    """Bytes as prose: "512 bytes", "20 KB", "20.5 KB"."""
    if nbytes < KB:
        return f"{nbytes} bytes"
    return f"{nbytes / KB:g} KB" if nbytes % 512 == 0 else f"{nbytes / KB:.1f} KB"


def pct(value: float) -> str:
    return format_pct(value)
