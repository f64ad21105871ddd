"""Why a work-group must live on one Xe-core / SM (KL202, KL206): the local memory its command group
allocates, the work-group barriers in its device code, a hierarchical launch."""

from __future__ import annotations

from kernlint.facts import Barrier, FileFacts, KernelLaunch, LocalAllocation, Span
from kernlint.records import record
from kernlint_rules.launch.model import unit_word


@record
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
    return LocalMemory(tuple(facts.local_allocations_of(group)))


def work_group_barriers(facts: FileFacts, launch: KernelLaunch) -> tuple[Barrier, ...]:
    """Work-group barriers in the launch's device code (its body and the functions it calls)."""
    return tuple(b for b in facts.barriers_in(launch) if b.scope == "work-group" and not b.collective)


@record
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
