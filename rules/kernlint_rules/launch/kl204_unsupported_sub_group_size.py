"""The kernel requires a sub-group size the target device does not support.

What it does
    Reads the constant value of a kernel's `[[intel::reqd_sub_group_size(N)]]` or
    `[[sycl::reqd_sub_group_size(N)]]` attribute (on a lambda or a functor's `operator()`, with the
    value from a literal, macro, constexpr, quoted header or a template argument instantiated in the
    file; with `--frontend clang`, each instantiation's own, the attribute reported once naming the
    instantiations that fail) and reports it on every target device whose supported sub-group sizes do not include N:
    8 on Xe-HPC (16 and 32 only), anything but 32 on NVIDIA GPUs, 64 anywhere. An attribute whose
    value cannot be evaluated is not reported.

Why it matters
    The sub-group size is the SIMD width the kernel is compiled for, and the valid sizes are device
    dependent: the guide points to `info::device::sub_group_sizes` for the list and notes that on
    NVIDIA GPUs it holds the single value 32. A kernel that requires another size cannot be built
    for that device; the SYCL runtime raises an error when it is submitted there, so code tuned for
    one GPU (SIMD8 on Gen9 or Xe-LP) fails outright on another.

Example
    h.parallel_for(sycl::nd_range<1>(N, 256),
                   [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(8)]] { … });  // KL204 on xe-hpc, h100

Fix
    Require a size every target supports (16 is common to all Intel GPUs in kernlint's device list;
    NVIDIA needs 32), select the size per device at compile time, or drop the attribute and let the
    compiler choose.

Severity
    Error: the device has no such sub-group size, so the kernel cannot be compiled or launched
    for it.

Occupancy basis
    The device profile's `sub_group_sizes`; the occupancy model refuses the same launch with
    `limiter = "sub-group-size"`. When the work-group size is known the evidence carries that report.

Cost
    A failure: the kernel cannot run on the device (100 %, score 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, KernelLaunch, Span
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.model import occupancy
from kernlint_rules.launch.shape import (
    SubGroup,
    constant_work_group,
    in_instantiations,
    instances,
    instantiation_names,
    sub_group,
)


class UnsupportedSubGroupSize(Rule):
    code = "KL204"
    name = "unsupported-sub-group-size"
    severity = Severity.ERROR
    languages = frozenset({"sycl"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        # By where the attribute is written: one functor launched several times, or instantiated with
        # several sizes, is reported once there, naming the instantiations that fail.
        failing: dict[Span, list[tuple[KernelLaunch, SubGroup]]] = {}
        for launch in (each for written in facts.launches for each in instances(written)):
            sg = sub_group(launch, device)
            if sg is None or not sg.required or sg.size in device.sub_group_sizes:
                continue
            failing.setdefault(launch.attributes.span or launch.span, []).append((launch, sg))
        for where, found in failing.items():
            launch, sg = found[0]
            names = instantiation_names(each for each, _sg in found)
            supported = ", ".join(map(str, sorted(device.sub_group_sizes)))
            evidence: dict = {"sub_group_size": sg.size, "supported_sub_group_sizes": list(device.sub_group_sizes)}
            known = constant_work_group(launch)
            if known is not None:
                report = occupancy(device, known[1], sg)
                if report is not None:
                    evidence = {"occupancy": report.to_json(), **evidence}
            if names:
                evidence["instantiations"] = {
                    each.instantiation: size.size for each, size in found if each.instantiation
                }
            text = launch.attributes.reqd_sub_group_size_text or str(sg.size)
            value = f" ({text} = {sg.size})" if text.strip() != str(sg.size) else ""
            yield ctx.diagnostic(
                where,
                f"the kernel{in_instantiations(names)} requires sub-group size {sg.size}{value}, which {device.id} "
                f"does not support (supported: {supported}): the kernel cannot run there; require a size every "
                "target supports or let the compiler choose",
                evidence=evidence,
                kernel=launch.name,
                cost=failure_cost(f"sub-group size {sg.size} is not supported: the kernel cannot run", device.id),
            )
