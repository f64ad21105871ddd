"""What a kernel launch asks for, read against a target device: the work-group and sub-group sizes the
launch-configuration rules (KL2xx, KL301) check, and the template instantiations a launch stands for.

The facts say what is written (a local range, a `reqd_work_group_size`, a `reqd_sub_group_size`); this
module turns that into sizes with the same "unknown stays unknown" discipline: a work-group size with
an unevaluated dimension has no exact total, a sub-group attribute whose value is unknown is not
replaced by a guess. `launch_shape` is the preamble of every rule that asks the occupancy model about
one launch: a constant work-group size and a sub-group size the device supports, or no finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from math import prod
from typing import Any, TypeVar

from kernlint.facts import KernelLaunch
from kernlint.occupancy import DeviceProfile
from kernlint.records import record

_T = TypeVar("_T")


# -- the work-group ---------------------------------------------------------------------------------


@record
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


# -- the sub-group ----------------------------------------------------------------------------------


@record
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


# -- the preamble of the occupancy rules ------------------------------------------------------------


@record
class LaunchShape:
    """A launch's constant work-group size and the sub-group size it runs at on one device."""

    group: WorkGroup
    dims: tuple[int, ...]
    sg: SubGroup

    @property
    def size(self) -> int:
        """Work-items per work-group."""
        return prod(self.dims)


def constant_work_group(launch: KernelLaunch) -> tuple[WorkGroup, tuple[int, ...]] | None:
    """The launch's work-group size and its dimensions when every one of them is a known constant."""
    group = work_group(launch)
    if group is None or group.known_dims is None:
        return None
    return group, group.known_dims


def launch_shape(launch: KernelLaunch, device: DeviceProfile) -> LaunchShape | None:
    """The launch's shape on `device`; None when its work-group size is not a known constant, or it
    requires a sub-group size that is unknown or that the device does not support (KL204's finding)."""
    known = constant_work_group(launch)
    sg = supported_sub_group(launch, device)
    if known is None or sg is None:
        return None
    return LaunchShape(known[0], known[1], sg)


# -- template instantiations ------------------------------------------------------------------------


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
