"""The global range of an nd_range is not a whole number of work-groups: the launch throws.

What it does
    For an `nd_range` launch whose global and local ranges are both constant (or a `range` launch
    of a kernel with a constant `reqd_work_group_size` of the same rank), checks every dimension:
    the global size must be a multiple of the work-group size. A dimension that is not is
    reported with both figures. Ranges that are not constant, or of different ranks, are not
    checked.

Why it matters
    An nd_range divides the index space into equal-sized work-groups; the guide defines work-groups
    that way, and SYCL rejects an nd_range whose global range does not divide evenly by raising an
    `nd_range` error at submission, on every device. The guide's own local range (1, R, 128) with
    R = 3 over a global range (64, 64, 128) is such a launch: 64 rows do not split into groups of 3.
    Intel's occupancy calculator refuses the same input ("work-group size does not divide global
    size equally").

Example
    h.parallel_for(sycl::nd_range<2>({1000, 1000}, {16, 16}), …);   // KL208: 1000 = 62 x 16 + 8

Fix
    Round the global range up to a multiple of the work-group size and skip the surplus work-items
    with a bounds check in the kernel, or pick a work-group size that divides the problem:

    sycl::range<2> global{(n + 15) / 16 * 16, (n + 15) / 16 * 16};

Severity
    Error: the SYCL runtime throws at the launch when the global range is not a whole number of
    work-groups.

Occupancy basis
    None beyond the model's own divisibility check (`compute(…, global_size=…)` is invalid with
    `limiter = "global-size"` for the same input); the finding does not depend on the device.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, KernelLaunch
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.shape import constant_work_group, once_per_template


class NdRangeNotDivisible(Rule):
    code = "KL208"
    name = "nd-range-not-divisible"
    severity = Severity.ERROR
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for launch in facts.launches:
            # A launch in a function template: once, naming the instantiations whose ranges do not divide.
            found = once_per_template(launch, lambda each, note: self._finding(ctx, each, note))
            if found is not None:
                yield found

    @staticmethod
    def _finding(ctx: RuleContext, launch: KernelLaunch, note: str) -> Diagnostic | None:
        if launch.api != "parallel_for" or launch.global_range is None or not launch.global_range.known:
            return None
        known = constant_work_group(launch)
        if known is None:
            return None
        group, local_dims = known
        global_dims: tuple[int, ...] = launch.global_range.dims  # type: ignore[assignment]
        if len(global_dims) != len(local_dims) or any(d <= 0 for d in global_dims + local_dims):
            return None
        bad = [(axis, g, local) for axis, (g, local) in enumerate(zip(global_dims, local_dims)) if g % local]
        if not bad:
            return None
        axis, g, local = bad[0]
        where = f" in dimension {axis}" if len(global_dims) > 1 else ""
        return ctx.diagnostic(
            launch.span,
            f"the global range {_shape(global_dims)} is not a multiple of {group.describe()}{note}{where} "
            f"({g} = {g // local} x {local} + {g % local}): the nd_range is invalid and the launch throws; "
            f"round the global range up to {(g // local + 1) * local} and guard the extra work-items",
            kernel=launch.name,
            evidence={
                "global_range": list(global_dims),
                "local_range": list(local_dims),
                "dimension": axis,
                "source": group.source,
            },
            cost=failure_cost(f"the launch throws ({g} is not a multiple of {local})"),
        )


def _shape(dims: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, dims)) + ")" if len(dims) > 1 else str(dims[0])
