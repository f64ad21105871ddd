"""A sub-group block load or store in a kernel that requires sub-group size 32 (Intel GPUs).

What it does
    Flags sub-group block accesses reached from a kernel whose required sub-group size evaluates to 32
    (`[[intel::reqd_sub_group_size(32)]]` or `[[sycl::reqd_sub_group_size(32)]]`, also through a macro,
    a `constexpr` or a template argument the file instantiates): `sg.load(ptr)` and `sg.store(ptr, v)`
    on a sub-group, their vector forms `sg.load<4>(ptr)`, `group_load` / `group_store` from
    `sycl::ext::oneapi::experimental` on a sub-group, and the `intel_sub_group_block_read*` /
    `intel_sub_group_block_write*` (`__spirv_SubgroupBlockReadINTEL`) builtins — in the kernel body or
    in a device function of the same file that the kernel calls. Runs per target device and only for
    Intel devices; it is silent for NVIDIA targets and when the sub-group size is not a known constant.
    `group_load` on a work-group and loads through other objects (`atomic_ref::load`) are not flagged.

Why it matters
    Block loads and stores let the work-items of a sub-group move one contiguous chunk of memory with a
    single block instruction instead of one gather per lane. The guide states that, at the time of
    writing, block load/store does not work with sub-group size 32 on current Intel hardware, so a
    kernel that uses them must explicitly request a sub-group size of 16 or smaller. Requesting 32
    therefore either fails or loses the very instruction the code was written for; the finding is an
    error because the guide describes the combination as not working, not merely as slow.

Example
    h.parallel_for(sycl::nd_range<1>(n, 256),
                   [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
      auto sg = it.get_sub_group();
      float v = sg.load(in + base);          // KL301
      sg.store(out + base, v * 2.0f);        // KL301
    });

Fix
    Require a sub-group size of 16 (or 8) for kernels that use block loads and stores:
    `[[intel::reqd_sub_group_size(16)]]`, and check any code that assumed 32 lanes (shuffle distances,
    the per-sub-group offset `sg.get_group_id() * 32`). Where 32 lanes are essential, use ordinary
    indexed loads (`in[base + lane]`) instead of block accesses.

Fix safety
    kernlint offers replacing a literal `32` in the attribute by `16` as a fix, always marked unsafe:
    code written for 32 lanes (shuffle distances, per-sub-group offsets such as
    `sg.get_group_id() * 32`, a reduction over the sub-group) computes something else with 16. Only a
    literal 32 in an attribute on one line is rewritten, never a macro or a template argument.

Severity
    Error: block loads and stores at sub-group size 32 are not supported on the device, a proven
    failure to compile or run.

Occupancy basis
    Sub-group size sets how many work-items one hardware thread carries: halving it from 32 to 16
    doubles the threads a work-group needs (work-group size / sub-group size). When the local size is a
    known constant, the evidence gives the occupancy model's threads per work-group and Xe-core
    occupancy at sub-group sizes 32 and 16, so the cost of the fix is visible.

Cost
    A failure at sub-group size 32 (score 1); the value is the Xe-core occupancy at 16, the size
    that works (unknown when the work-group size is).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Fix, FixAvailability, Severity
from kernlint.facts import FileFacts, KernelLaunch
from kernlint.facts.device import SubGroupBlockAccess
from kernlint.occupancy import DeviceProfile, compute
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.shape import instances, instantiation_names

_BAD_SIZE = 32


class BlockLoadSubGroup32(Rule):
    code = "KL301"
    name = "block-load-sg32"
    severity = Severity.ERROR
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"sycl"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.device
        if device is None or not getattr(device, "is_intel", False) or not facts.block_accesses:
            return
        # By access: reached from several launches (or instantiations at size 32), reported once there.
        reached: dict[tuple[int, int], tuple[SubGroupBlockAccess, list[KernelLaunch]]] = {}
        for launch in (each for written in facts.launches for each in instances(written)):
            if launch.attributes.reqd_sub_group_size != _BAD_SIZE:
                continue
            for access in facts.block_accesses:
                if launch.covers(access.span):
                    key = (access.span.start_byte, access.span.end_byte)
                    reached.setdefault(key, (access, []))[1].append(launch)
        for access, launches in reached.values():
            yield self._diagnostic(ctx, launches[0], access, instantiation_names(launches))

    def _diagnostic(
        self, ctx: RuleContext, launch: KernelLaunch, access: SubGroupBlockAccess, names: list[str]
    ) -> Diagnostic:
        device = ctx.target_device
        kind = "store" if access.direction == "store" else "load"
        kernel = f"kernel `{launch.name}`" if launch.name else "a kernel"
        if names:
            also = ", ".join(f"`{name}`" for name in names[1:])
            kernel = f"kernel `{names[0]}`" + (f" (also {also})" if also else "")
        attribute = launch.attributes.span
        spelled = launch.attributes.reqd_sub_group_size_text
        required = f"requires sub-group size {_BAD_SIZE}" + (
            f" (`{spelled}`, line {attribute.line})"
            if attribute is not None and spelled and spelled != "32"
            else f" (line {attribute.line})"
            if attribute is not None
            else ""
        )
        where = (
            f"in `{access.function}`, called from {kernel} that {required}"
            if access.function
            else f"in {kernel} that {required}"
        )
        message = (
            f"sub-group block {kind} `{access.form}` {where}: block loads and stores do not work at "
            f"sub-group size {_BAD_SIZE} on {device.id}; require 16 or smaller "
            f"(`[[intel::reqd_sub_group_size(16)]]`)"
        )
        evidence: dict = {
            "sub_group_size": _BAD_SIZE,
            "form": access.form,
            "direction": access.direction,
            "function": access.function,
            "device_sub_group_sizes": list(getattr(device, "sub_group_sizes", ()) or ()),
        }
        if names:
            evidence["instantiations"] = names
        evidence.update(_occupancy_at_16(device, launch))
        related = [(attribute, "the required sub-group size")] if attribute is not None else []
        cost = occupancy_at_cost(device.id, 16, evidence.get("occupancy", {}), _BAD_SIZE)
        return ctx.diagnostic(
            access.span,
            message,
            evidence=evidence,
            kernel=launch.name,
            related=related,
            fix=self._fix(ctx, launch),
            cost=cost,
        )

    @staticmethod
    def _fix(ctx: RuleContext, launch: KernelLaunch) -> Fix | None:
        """Replace a literal `32` in the attribute by 16 (unsafe: code may assume 32 lanes)."""
        attributes = launch.attributes
        attribute, size = attributes.span, attributes.reqd_sub_group_size_span
        if (
            attribute is None
            or size is None
            or attributes.reqd_sub_group_size_text != "32"
            or attribute.line != attribute.end_line
        ):
            return None
        return Fix("require sub-group size 16", (ctx.replace(size, "16"),), safe=False)


def _occupancy_at_16(device: DeviceProfile, launch: KernelLaunch) -> dict:
    """Threads per work-group and Xe-core occupancy at sub-group sizes 32 and 16, when the local size
    is a known constant (the model's figures; nothing when the launch cannot be evaluated)."""
    local = launch.local_range or launch.attributes.reqd_work_group_size
    if local is None or not local.known:
        return {}
    figures: dict = {}
    for size in (_BAD_SIZE, 16):
        try:
            report = compute(device, tuple(local.dims), sg=size)  # type: ignore[arg-type]
        except ValueError:
            return {}
        if not report.valid:
            return {}
        figures[f"sg{size}"] = {
            "threads_per_work_group": report.threads_per_work_group,
            "occupancy_pct": report.occupancy_pct,
        }
    return {"occupancy": figures}


def occupancy_at_cost(device: str, working: int, figures: dict[str, Any], broken: int) -> Cost:
    """KL301: the code fails at sub-group size `broken`; the cost is the occupancy at `working`."""
    at = figures.get(f"sg{working}", {}).get("occupancy_pct") if figures else None
    consequence = f"block loads/stores do not work at sub-group size {broken} on {device}"
    if at is None:
        return Cost(
            None,
            "%",
            f"Xe-core occupancy at sub-group size {working}, the size that works",
            "the occupancy model at the working sub-group size",
            consequence,
            (),
            ("the work-group size",),
            1.0,
            None,
            device,
            {},
        )
    before = figures.get(f"sg{broken}", {}).get("occupancy_pct")
    basis = f"{consequence}; at {working}: {at:.4g}% occupancy" + (
        f" (at {broken}: {before:.4g}%)" if before is not None else ""
    )
    return Cost(
        at,
        "%",
        f"Xe-core occupancy at sub-group size {working}, the size that works",
        "the occupancy model at the working sub-group size",
        basis,
        (),
        (),
        1.0,
        None,
        device,
        dict(figures),
    )
