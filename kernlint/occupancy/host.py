"""The host side of a device: how it is attached, how fast data crosses to it, how fast its memory is.

The occupancy model says how full a GPU is; data-movement findings (KL101–KL103) need the other half:
what a byte costs to move between host and device. A profile's optional ``[host]`` table gives it,
with its own ``source``. PCIe bandwidth is derived from the generation and lane count with guide
chapter 05's per-lane table rather than written down per GPU, so every figure has one origin. An
integrated GPU shares the host's memory: there is no link to cross, and a buffer over host memory may
not be copied at all, so no link cost is ever quoted for one. A blocking wait has a cost of its own,
the launch/sync latency: the time a host that waits for a kernel and then submits the next one adds
to each iteration, over submitting without waiting (`sync_latency_us`, measured, with its method in
the profile's `source`). Anything a profile does not state stays None (unknown), and the cost model
then names it as a missing input.
"""

from __future__ import annotations

from typing import Any, Literal

from kernlint.records import record

Attachment = Literal["pcie", "integrated"]

#: Throughput of one PCIe lane in one direction, GB/s (10^9 bytes), by generation: guide chapter 05's
#: table ("Bandwidth Between Host and Accelerator"). 16 Gen5 lanes give the guide's "63 GB/s".
PCIE_GB_PER_S_PER_LANE: dict[int, float] = {1: 0.250, 2: 0.500, 3: 0.985, 4: 1.969, 5: 3.938}
PCIE_LANE_COUNTS = (1, 2, 4, 8, 16)


@record
class HostSide:
    """Attachment, host-link and device-memory bandwidth of one GPU; None where unknown."""

    attachment: Attachment | None = None
    pcie_generation: int | None = None
    pcie_lanes: int | None = None
    link_gb_per_s: float | None = None
    """One direction, GB/s: the PCIe table's figure unless the profile states another."""
    memory_gb_per_s: float | None = None
    """Device-local memory bandwidth, GB/s (vendor figure); None for integrated GPUs (system memory)."""
    sync_latency_us: float | None = None
    """What a blocking wait per iteration adds to a loop of submissions, µs (measured; see `source`)."""
    source: str | None = None

    @property
    def integrated(self) -> bool:
        return self.attachment == "integrated"

    def link_name(self) -> str:
        """ "PCIe 5.0 x16", "shared host memory", or "host link" when unknown."""
        if self.integrated:
            return "shared host memory"
        if self.pcie_generation is not None and self.pcie_lanes is not None:
            return f"PCIe {self.pcie_generation}.0 x{self.pcie_lanes}"
        return "host link"

    def to_json(self) -> dict[str, Any]:
        return {
            "attachment": self.attachment,
            "pcie_generation": self.pcie_generation,
            "pcie_lanes": self.pcie_lanes,
            "link_gb_per_s": self.link_gb_per_s,
            "memory_gb_per_s": self.memory_gb_per_s,
            "sync_latency_us": self.sync_latency_us,
            "source": self.source,
        }


UNKNOWN_HOST = HostSide()

_KEYS = (
    "attachment",
    "pcie_generation",
    "pcie_lanes",
    "link_gb_per_s",
    "memory_gb_per_s",
    "sync_latency_us",
    "source",
)


def _positive_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def parse_host(table: Any) -> HostSide:
    """A profile's ``[host]`` table as a `HostSide`; ValueError naming the bad key otherwise."""
    if not isinstance(table, dict):
        raise ValueError("must be a table ([host]) with keys " + ", ".join(_KEYS))
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ValueError(f"has unknown key {unknown[0]!r}; accepted keys: {', '.join(_KEYS)}")
    source = table.get("source")
    if not isinstance(source, str) or not source.strip():
        raise ValueError("needs 'source', a non-empty string saying where its figures come from")
    attachment = table.get("attachment")
    if attachment not in ("pcie", "integrated"):
        raise ValueError(f'key \'attachment\' must be "pcie" or "integrated" (got {attachment!r})')
    memory = table.get("memory_gb_per_s")
    if memory is not None and not _positive_number(memory):
        raise ValueError(f"key 'memory_gb_per_s' must be a positive number (got {memory!r})")
    link = table.get("link_gb_per_s")
    if link is not None and not _positive_number(link):
        raise ValueError(f"key 'link_gb_per_s' must be a positive number (got {link!r})")
    sync = table.get("sync_latency_us")
    if sync is not None and not _positive_number(sync):
        raise ValueError(f"key 'sync_latency_us' must be a positive number (got {sync!r})")
    generation, lanes = table.get("pcie_generation"), table.get("pcie_lanes")
    if attachment == "integrated":
        if generation is not None or lanes is not None or link is not None:
            raise ValueError(
                "an integrated GPU shares host memory: give no pcie_generation, pcie_lanes or link_gb_per_s"
            )
        return HostSide("integrated", memory_gb_per_s=_float(memory), sync_latency_us=_float(sync), source=source)
    if generation is not None and generation not in PCIE_GB_PER_S_PER_LANE:
        raise ValueError(
            f"key 'pcie_generation' must be one of {sorted(PCIE_GB_PER_S_PER_LANE)} "
            f"(got {generation!r}); give link_gb_per_s for other links"
        )
    if lanes is not None and lanes not in PCIE_LANE_COUNTS:
        raise ValueError(f"key 'pcie_lanes' must be one of {list(PCIE_LANE_COUNTS)} (got {lanes!r})")
    if link is None and generation is not None and lanes is not None:
        link = round(PCIE_GB_PER_S_PER_LANE[generation] * lanes, 3)
    return HostSide("pcie", generation, lanes, _float(link), _float(memory), _float(sync), source)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)
