"""A kernel launch read against a target device: what the launch-configuration rules (KL2xx) share.

The facts say what is written (a local range, a `reqd_sub_group_size`, local accessors in the command
group, barriers in device code); this module turns that into what the occupancy model needs, once,
with the same "unknown stays unknown" discipline: a work-group size with an unevaluated dimension has
no exact total, a sub-group attribute whose value is unknown is not replaced by a guess.

`work_group_too_large` is the device-limit check itself, with no SYCL in it, so the OpenMP half of
KL201 (`thread_limit`) can call it with the size it evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import prod
from typing import Any, TypeVar

from kernlint.facts import Barrier, FileFacts, KernelLaunch, LocalAllocation, Span
from kernlint.occupancy import DeviceProfile, OccupancyReport, compute
from kernlint.occupancy.report import format_pct

KB = 1024
_T = TypeVar("_T")


# -- the device-limit check shared with OpenMP --------------------------------------------------


@dataclass(frozen=True)
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


# -- what a launch uses -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkGroup:
    """The local size a launch runs with, and where it was written."""

    dims: tuple[int | None, ...]
    source: str  # nd_range | parallel_for_work_group | reqd_work_group_size
    text: str

    @property
    def total(self) -> int | None:
        return prod(self.dims) if all(d is not None for d in self.dims) else None  # type: ignore[arg-type]

    @property
    def lower_bound(self) -> int:
        """Product of the known dimensions: every unknown one is at least 1."""
        return prod(d for d in self.dims if d is not None)

    @property
    def known_dims(self) -> tuple[int, ...] | None:
        return self.dims if self.total is not None else None  # type: ignore[return-value]

    def phrase(self) -> str:
        """ "a work-group of (1, 4, 128) = 512 work-items (nd_range local range)", for known sizes."""
        origin = {
            "nd_range": "nd_range local range",
            "parallel_for_work_group": "parallel_for_work_group local range",
            "reqd_work_group_size": "reqd_work_group_size",
        }[self.source]
        shape = "(" + ", ".join(map(str, self.dims)) + ") = " if len(self.dims) > 1 else ""
        return f"a work-group of {shape}{self.total} work-items ({origin})"

    def describe(self) -> str:
        shape = "(" + ", ".join("?" if d is None else str(d) for d in self.dims) + ")"
        if len(self.dims) == 1 and self.source != "reqd_work_group_size":
            shape = "?" if self.dims[0] is None else str(self.dims[0])
        return {
            "nd_range": f"the nd_range local range {shape}",
            "parallel_for_work_group": f"the parallel_for_work_group local range {shape}",
            "reqd_work_group_size": f"reqd_work_group_size{shape}",
        }[self.source]


def work_group_sizes(launch: KernelLaunch) -> list[WorkGroup]:
    """Every work-group size the launch writes down: its local range, then `reqd_work_group_size`."""
    candidates: list[WorkGroup] = []
    local = launch.local_range
    if local is not None and local.dims and launch.api != "single_task":
        source = "parallel_for_work_group" if launch.api == "parallel_for_work_group" else "nd_range"
        candidates.append(WorkGroup(local.dims, source, local.text))
    required = launch.attributes.reqd_work_group_size
    if required is not None and required.dims:
        candidates.append(WorkGroup(required.dims, "reqd_work_group_size", required.text))
    return candidates


def work_group(launch: KernelLaunch) -> WorkGroup | None:
    """The launch's work-group size: its explicit local range, else its `reqd_work_group_size`.

    Both must agree at run time, so whichever is fully known is used; a partly known one is kept for
    its lower bound. None when the launch leaves the work-group size to the runtime.
    """
    candidates = work_group_sizes(launch)
    for candidate in candidates:
        if candidate.total is not None:
            return candidate
    return candidates[0] if candidates else None


def global_items(launch: KernelLaunch, group: WorkGroup | None) -> tuple[int, ...] | None:
    """The launch's total work-items per dimension, when constant.

    `parallel_for_work_group(G, L, …)` counts work-groups in its first range, so the items are G x L.
    """
    extent = launch.global_range
    if extent is None or not extent.known:
        return None
    dims: tuple[int, ...] = extent.dims  # type: ignore[assignment]
    if launch.api == "parallel_for_work_group":
        if group is None or group.known_dims is None or len(group.dims) != len(dims):
            return None
        return tuple(g * size for g, size in zip(dims, group.known_dims))
    return dims


def instances(launch: KernelLaunch) -> tuple[KernelLaunch, ...]:
    """The launch as each template instantiation runs it, when its sizes differ per instantiation
    (the clang front-end's reading), else the launch itself."""
    return launch.instances or (launch,)


def instantiation_names(launches: Iterable[KernelLaunch]) -> list[str]:
    """The instantiations behind the launches a finding is made for, once each, in order."""
    return list(dict.fromkeys(launch.instantiation for launch in launches if launch.instantiation))


def in_instantiations(names: Sequence[str]) -> str:
    """ " in `launch<2048>`", " in `launch<2048>` (also `launch<4096>`)" (the figures are the
    first's), or "" for a launch that is no template instantiation."""
    if not names:
        return ""
    others = ", ".join(f"`{name}`" for name in names[1:])
    return f" in `{names[0]}`" + (f" (also {others})" if others else "")


def once_per_template(launch: KernelLaunch, finding: Callable[[KernelLaunch, str], _T | None]) -> _T | None:
    """`finding` for a launch, once for all its template instantiations: made for the first that
    triggers it, with the note naming every one that does (`in_instantiations`); `finding` receives
    the concrete launch and that note, "" for a launch that is no instantiation."""
    triggered = [each for each in instances(launch) if finding(each, "") is not None]
    if not triggered:
        return None
    return finding(triggered[0], in_instantiations(instantiation_names(triggered)))


@dataclass(frozen=True)
class SubGroup:
    """The sub-group size a computation uses: the kernel's required one or the device default."""

    size: int
    required: bool

    @property
    def model_sg(self) -> int | None:
        """What to pass to `compute`: None lets the model take (and report) its default."""
        return self.size if self.required else None

    def note(self, device: DeviceProfile) -> str:
        """Which sub-group size the figures assume, for the message."""
        if self.required:
            return f"sub-group size {self.size}, required by the kernel"
        word = "warp size" if device.vendor == "nvidia" else "default"
        return (
            f"sub-group size {self.size} assumed: the kernel requires none and {self.size} is the model's "
            f"{word} for {device.id}"
        )

    def evidence(self) -> dict[str, Any]:
        return {"sub_group_size": self.size, "sub_group_assumed": not self.required}


def sub_group(launch: KernelLaunch, device: DeviceProfile) -> SubGroup | None:
    """The sub-group size for `device`; None when the kernel requires one whose value is not known."""
    attributes = launch.attributes
    if attributes.reqd_sub_group_size is not None:
        return SubGroup(attributes.reqd_sub_group_size, True)
    if attributes.reqd_sub_group_size_text is not None:
        return None
    return SubGroup(device.default_sub_group_size, False)


def supported_sub_group(launch: KernelLaunch, device: DeviceProfile) -> SubGroup | None:
    """`sub_group`, but None when the device cannot run the required size (KL204's finding)."""
    sg = sub_group(launch, device)
    return sg if sg is not None and sg.size in device.sub_group_sizes else None


@dataclass(frozen=True)
class LocalMemory:
    """Local memory a launch's command group allocates per work-group."""

    allocations: tuple[LocalAllocation, ...]

    @property
    def known_bytes(self) -> int:
        """Bytes of the allocations whose size is known: a lower bound unless `complete`."""
        return sum(a.bytes for a in self.allocations if a.bytes is not None)

    @property
    def complete(self) -> bool:
        return all(a.bytes is not None for a in self.allocations)


def local_memory(facts: FileFacts, launch: KernelLaunch) -> LocalMemory:
    """The local allocations of the launch's command group (none for queue shortcuts)."""
    group = launch.command_group
    if group is None:
        return LocalMemory(())
    return LocalMemory(tuple(a for a in facts.local_allocations if a.command_group == group))


def work_group_barriers(facts: FileFacts, launch: KernelLaunch) -> tuple[Barrier, ...]:
    """Work-group barriers in the launch's device code (its body and the functions it calls)."""
    return tuple(b for b in facts.barriers if b.scope == "work-group" and launch.covers(b.span))


@dataclass(frozen=True)
class UnitBinding:
    """Why a work-group must live on one Xe-core / SM: the guide's two reasons, plus hierarchy."""

    barriers: tuple[Barrier, ...]
    local: LocalMemory
    hierarchical: bool

    def __bool__(self) -> bool:
        return bool(self.barriers or self.local.allocations or self.hierarchical)

    @property
    def synchronises(self) -> bool:
        """Whether the model's `barrier` input applies: explicit barriers, or the implicit ones between
        the `parallel_for_work_item` phases of a hierarchical kernel."""
        return bool(self.barriers) or self.hierarchical

    def reasons(self) -> list[str]:
        out = []
        if self.barriers:
            out.append("a work-group barrier")
        if self.local.allocations:
            out.append("local memory")
        if self.hierarchical:
            out.append("hierarchical parallel_for_work_group scope")
        return out

    def related(self, unit: str) -> list[tuple[Span, str]]:
        where = unit_word(unit)
        spans = [(b.span, f"this work-group barrier keeps the work-group on one {where}") for b in self.barriers[:1]]
        spans += [
            (
                a.span,
                f"local memory lives in one {where}'s SLM"
                if unit == "xe-core"
                else "local (shared) memory lives in one SM",
            )
            for a in self.local.allocations[:1]
        ]
        return spans


def unit_binding(facts: FileFacts, launch: KernelLaunch) -> UnitBinding:
    return UnitBinding(
        work_group_barriers(facts, launch), local_memory(facts, launch), launch.api == "parallel_for_work_group"
    )


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
