"""A SYCL buffer is constructed inside a host loop.

What it does
    Flags a `sycl::buffer` whose construction sits in the body of a host-side `for`, range-`for`,
    `while` or `do … while` loop, in any of its spellings: a declaration (`sycl::buffer<T, 1> b(…)`),
    `auto b = sycl::buffer<T>(…)`, class template argument deduction (`sycl::buffer b(vec)`), a
    temporary passed straight to a call, or `new sycl::buffer<…>(…)`. Buffers created inside a kernel
    or before the loop are not flagged.

Why it matters
    A buffer owns its data for its lifetime. Built over host memory, it copies that memory to the
    device on first use and writes it back when it is destroyed, so a buffer that lives for one loop
    iteration pays a host-to-device and a device-to-host transfer on every iteration, and the runtime
    cannot keep the data resident between kernels. A buffer built from a range alone still allocates
    device memory and tracks dependencies anew each time. The guide's advice is to keep data on the
    device for as long as possible and to avoid declaring buffers in a loop.

Example
    for (int step = 0; step < steps; ++step) {
        sycl::buffer<float> grid(host.data(), sycl::range<1>(n));   // KL101
        q.submit([&](sycl::handler &h) { … });
    }

Fix
    Construct the buffer once, before the loop, and let every iteration's kernels use it; read results
    back once after the loop (a `host_accessor` or the buffer's destruction):

    sycl::buffer<float> grid(host.data(), sycl::range<1>(n));
    for (int step = 0; step < steps; ++step) {
        q.submit([&](sycl::handler &h) { … });
    }

Occupancy basis
    None: the cost is data movement, not occupancy. The finding does not depend on the device.
"""

from __future__ import annotations

from typing import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext

_LOOP_WORDS = {"for": "`for` loop", "range-for": "range-based `for` loop", "while": "`while` loop",
               "do": "`do … while` loop"}


class BufferInLoop(Rule):
    code = "KL101"
    name = "buffer-in-loop"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for buffer in facts.buffers:
            if buffer.in_device_code:
                continue
            loop = facts.innermost_loop(buffer.span, side="host")
            if loop is None:
                continue
            what = f"sycl::buffer `{buffer.name}`" if buffer.name else "a temporary sycl::buffer"
            if buffer.has_host_data is False:
                cost = ("a device allocation and fresh dependency tracking on every iteration, and its "
                        "contents do not survive to the next one")
            else:
                cost = ("a host-to-device copy on first use and a device-to-host write-back at its "
                        "destruction on every iteration")
            yield ctx.diagnostic(
                buffer.span,
                f"{what} is constructed inside the {_LOOP_WORDS[loop.kind]} at line {loop.span.line}: "
                f"{cost}; construct it once before the loop",
                evidence={"loop_line": loop.span.line, "loop_kind": loop.kind, "buffer": buffer.name,
                          "construction": buffer.form, "host_data": buffer.has_host_data},
                related=[(loop.span, f"the {_LOOP_WORDS[loop.kind]} the buffer is constructed in")],
            )
