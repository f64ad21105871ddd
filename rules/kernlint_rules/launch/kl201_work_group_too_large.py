"""A constant work-group size is above the target device's maximum: the launch fails.

What it does
    Evaluates the work-group size a SYCL launch asks for and compares it with the maximum work-group
    size of each target device (`--device`). The size comes from the `nd_range` local range (written
    in place or built in a variable), the local range of `parallel_for_work_group`, or a kernel's
    `reqd_work_group_size` attribute (lambda or functor). Sizes are evaluated through literals,
    `#define`s, `constexpr`/`const` values (also from quoted headers), single-assignment locals and
    template arguments instantiated in the file (all with the same value; with `--frontend clang`, each
    instantiation's own: a launch in a function template is reported once, naming the instantiations
    that fail). When one dimension is unknown but the known ones already exceed the maximum, the
    launch is still reported; a size that cannot be evaluated is not.
    OpenMP offload `thread_limit` clauses are checked against the same device limit
    (`kernlint_rules.launch.limits.work_group_too_large`, used by `launch/openmp_thread_limit.py`);
    there the runtime clamps the team size instead of failing, so those findings are warnings.

Why it matters
    The maximum work-group size is a hard limit of the hardware and driver (it is what
    `info::device::max_work_group_size` returns): every work-item of a work-group must be resident at
    once, on one Xe-core or SM, so a larger group cannot be scheduled at all. The guide's example of a
    barrier kernel with local range (1, R, 128) on Xe-LP fails to launch as soon as R > 4, because
    640 work-items exceed the maximum of 512; on Gen9 the limit is 256, and NVIDIA GPUs stop at 1024
    threads per block. The failure is an exception at submission time on that device only, so code
    tuned on one GPU can break on another.

Example
    // Xe-LP accepts at most 512 work-items per work-group
    h.parallel_for(sycl::nd_range<3>({64, 80, 128}, {1, 5, 128}),   // KL201 on xe-lp
                   [=](sycl::nd_item<3> it) { … it.barrier(); … });

Fix
    Use a work-group size no larger than the smallest maximum among the devices you target, or
    compute it at run time from `dev.get_info<sycl::info::device::max_work_group_size>()`:

    h.parallel_for(sycl::nd_range<3>({64, 64, 512}, {1, 4, 128}), …);

Severity
    Error: the launch fails on the device (the work-group exceeds its maximum), a proven
    failure.

Occupancy basis
    The device profile's `max_work_group_size`, the same limit the occupancy model refuses with
    `limiter = "work-group-size"` (`kernlint occupancy --device xe-lp --wg 640` reports the launch as
    invalid). The evidence carries that report; the sub-group size in it is the kernel's required
    one, or the device default when the kernel requires none (the size limit itself does not depend
    on it).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, KernelLaunch
from kernlint.occupancy import DeviceProfile
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.limits import WorkGroupTooLarge as WorkGroupTooLargeFinding
from kernlint_rules.launch.limits import work_group_too_large
from kernlint_rules.launch.model import occupancy
from kernlint_rules.launch.openmp_thread_limit import thread_limit_findings
from kernlint_rules.launch.shape import (
    WorkGroup,
    in_instantiations,
    instances,
    instantiation_names,
    supported_sub_group,
    work_group_sizes,
)


class WorkGroupTooLarge(Rule):
    code = "KL201"
    name = "work-group-too-large"
    severity = Severity.ERROR
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        for launch in facts.launches:
            # A launch in a function template whose size differs per instantiation: reported once, at
            # the template's launch, naming the instantiations that fail (the first one's figures).
            found = [(each, f) for each in instances(launch) if (f := _too_large(each, device)) is not None]
            if not found:
                continue
            first, (group, finding) = found[0]
            names = instantiation_names(each for each, _finding in found)
            sg = supported_sub_group(first, device)
            evidence = {**finding.evidence(), "source": group.source}
            report = occupancy(device, group.known_dims, sg) if group.known_dims else None
            if report is not None:
                evidence = {"occupancy": report.to_json(), **evidence}
            if sg is not None:
                evidence.update(sg.evidence())
            if names:
                evidence["instantiations"] = {
                    each.instantiation: f.size for each, (_group, f) in found if each.instantiation
                }
            yield ctx.diagnostic(
                launch.span,
                f"{finding.message(group.describe() + in_instantiations(names))}; use at most {finding.maximum} "
                "work-items per work-group on this device, or size it from info::device::max_work_group_size",
                evidence=evidence,
                kernel=launch.name,
                cost=failure_cost(
                    f"the launch fails ({finding.size} > {finding.maximum} work-items per work-group)", device.id
                ),
            )
        yield from thread_limit_findings(facts, ctx)  # OpenMP `thread_limit` (openmp_thread_limit.py)


def _too_large(launch: KernelLaunch, device: DeviceProfile) -> tuple[WorkGroup, WorkGroupTooLargeFinding] | None:
    """The first work-group size of the launch above the device's maximum (a second size would be the
    same failure), with the finding."""
    for group in work_group_sizes(launch):
        total = group.total
        if total is None and all(d is None for d in group.dims):
            continue
        finding = work_group_too_large(device, total if total is not None else group.lower_bound, total is not None)
        if finding is not None:
            return group, finding
    return None
