"""The local memory a work-group allocates does not fit the device: the launch fails.

What it does
    Adds up the local memory a SYCL command group allocates per work-group (`local_accessor`,
    `accessor<…, target::local>`; element count from constant ranges, element size for arithmetic
    types) and compares it with what one work-group may use on each target device: 64 KB on Gen9 and
    Xe-LP, 128 KB on Xe-HPC, 227 KB of opt-in shared memory on an H100. It reports an error above
    that limit, at the largest allocation. On NVIDIA GPUs it also warns above the 48 KB a block gets
    by default, which the SYCL CUDA backend only exceeds when its local-memory limit is raised.
    Allocations of unknown size count as zero, so a reported total is never an overestimate.

Why it matters
    Work-group local memory lives in the SLM (shared memory) of the one Xe-core (SM) that runs the
    work-group; the guide stresses weighing the size of local variables so that they fit that
    capacity. A work-group that needs more cannot be placed anywhere, and the launch fails with an
    out-of-resources error on that device. Intel hardware hands out SLM in fixed sizes, so the
    request is rounded up to whole kilobytes and then to the next allocation size; the per-work-group
    maximum is the largest of those sizes. On NVIDIA GPUs the guide notes that kernels are limited
    to 48 KB of local memory per block unless `SYCL_PI_CUDA_MAX_LOCAL_MEM_SIZE` raises the limit.

Example
    sycl::local_accessor<float, 2> tile(sycl::range<2>(128, 160), h);   // 80 KB: KL205 on xe-lp
    h.parallel_for(sycl::nd_range<2>({1024, 1024}, {16, 16}), …);

Fix
    Tile the data so that a work-group keeps less in local memory (smaller tiles, fewer buffered
    stages, narrower element types), or size the tiles at run time from
    `dev.get_info<sycl::info::device::local_mem_size>()`.

Severity
    Error: the local memory a work-group asks for exceeds what the device can give, so the
    launch fails. Warning on NVIDIA between the SYCL CUDA backend's default limit and the
    device's opt-in limit: the launch fails unless the backend's limit is raised, which the code
    does not show either way.

Occupancy basis
    The model's SLM rule: Intel, `ceil(bytes / 1 KB)` rounded up to the device's next allocation
    size (`slm_kb_allowed_sizes`) must not exceed `slm_kb_max_per_work_group`; NVIDIA, the
    per-block limit `shared_memory_per_block_optin` (and `shared_memory_per_block`, 48 KB, without
    opting in). `compute(…, slm_bytes=…)` refuses such a launch with `limiter = "slm"`; the evidence
    holds that report when the work-group size is known.

Cost
    A failure when the launch fails (100 %, score 1); over NVIDIA's default 48 KB only, unknown
    until it is known whether the backend's limit is raised.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost, failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, Span
from kernlint.occupancy import DeviceProfile
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.model import kb, occupancy, unit_word
from kernlint_rules.launch.residency import local_memory
from kernlint_rules.launch.shape import constant_work_group, supported_sub_group


class LocalMemoryTooLarge(Rule):
    code = "KL205"
    name = "local-memory-too-large"
    severity = Severity.ERROR
    languages = frozenset({"sycl"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        reported: set[Span] = set()
        for launch in facts.launches:
            local = local_memory(facts, launch)
            requested = local.known_bytes
            limit, severity, consequence = _limit(device, requested)
            if requested <= limit:
                continue
            largest = max((a for a in local.allocations if a.bytes is not None), key=lambda a: a.bytes or 0)
            if largest.span in reported:
                continue
            reported.add(largest.span)
            evidence: dict = {
                "local_memory_bytes": requested,
                "limit_bytes": limit,
                "local_memory_complete": local.complete,
                "allocations": [{"name": a.name, "bytes": a.bytes} for a in local.allocations],
            }
            known, sg = constant_work_group(launch), supported_sub_group(launch, device)
            if known is not None:
                report = occupancy(device, known[1], sg, requested)
                if report is not None:
                    evidence = {"occupancy": report.to_json(), **evidence}
            parts = f" in {len(local.allocations)} allocations" if len(local.allocations) > 1 else ""
            at_least = "" if local.complete else "at least "
            yield ctx.diagnostic(
                largest.span,
                f"the command group allocates {at_least}{kb(requested)} ({requested} bytes) of local memory per "
                f"work-group{parts}, above the {kb(limit)} {consequence}",
                severity=severity,
                evidence=evidence,
                kernel=launch.name,
                related=[(launch.span, "the kernel launched with this local memory")],
                cost=_cost(device, severity, requested, limit),
            )


def _cost(device: DeviceProfile, severity: Severity, requested: int, limit: int) -> Cost:
    """The launch fails (error); over NVIDIA's default limit it fails unless the backend's limit is raised."""
    if severity is Severity.ERROR:
        return failure_cost(f"the launch fails ({requested} > {limit} bytes of local memory)", device.id)
    return Cost(
        None,
        "%",
        "of the kernel's work lost if the backend's limit is not raised",
        "100% unless SYCL_PI_CUDA_MAX_LOCAL_MEM_SIZE is raised",
        f"{requested} > {limit} bytes by default",
        (),
        ("whether the SYCL CUDA backend's local-memory limit is raised",),
        None,
        None,
        device.id,
    )


def _limit(device: DeviceProfile, requested: int) -> tuple[int, Severity, str]:
    """The per-work-group limit that `requested` bytes are checked against, its severity and wording."""
    if device.is_intel:
        sizes = device.slm_kb_allowed_sizes  # type: ignore[attr-defined]
        return (
            device.slm_bytes_per_unit,
            Severity.ERROR,
            f"a work-group can allocate on {device.id} (SLM comes in sizes of {sizes[1]} to "
            f"{device.slm_kb_max_per_work_group} KB, "  # type: ignore[attr-defined]
            f"a request is rounded up to the next one; an {unit_word(device.unit)} has "
            f"{kb(device.slm_capacity_bytes_per_unit)}): the launch fails",
        )
    optin = device.slm_bytes_per_unit
    if requested > optin:
        return (optin, Severity.ERROR, f"of shared memory a block can use on {device.id}: the launch fails")
    default = device.shared_memory_per_block  # type: ignore[attr-defined]
    return (
        default,
        Severity.WARNING,
        f"a block gets by default on {device.id}: the launch fails unless the SYCL CUDA backend's "
        "limit is raised (SYCL_PI_CUDA_MAX_LOCAL_MEM_SIZE), and more shared memory leaves less L1 cache",
    )
