"""A SYCL queue is constructed inside a host loop, with a new context each time.

What it does
    Flags a `sycl::queue` constructed in the body of a host-side `for`, range-`for`, `while` or
    `do … while` loop (declaration, `auto q = sycl::queue(…)`, temporary, `new` or `make_unique`)
    when the construction cannot share an existing context: it has no arguments, or only device
    selectors, devices, property lists and exception handlers. A queue built from an existing
    context (`sycl::queue(ctx, dev)`, `sycl::queue(q.get_context(), …)`) or copied from another
    queue is not flagged, nor is one whose arguments kernlint cannot classify (a function
    parameter, an `auto` variable): it does not guess.

Why it matters
    A queue that is not given a context creates one, and a context holds everything the runtime
    keeps for a device: buffers' device copies, allocations and the compiled kernels. The guide
    calls creating a context a heavy-duty operation: a kernel submitted to a queue with a new
    context is JIT-compiled again for it, and data that was resident in the old context is
    transferred again. Done once per loop iteration, that cost is paid on every iteration. Queues
    that share one context perform like a single queue.

Example
    for (int step = 0; step < steps; ++step) {
        sycl::queue q{sycl::gpu_selector_v};      // KL207
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { … }).wait();
    }

Fix
    Create the queue once, before the loop, and submit every iteration's work to it (or construct
    the per-iteration queues from one shared `sycl::context`):

    sycl::queue q{sycl::gpu_selector_v};
    for (int step = 0; step < steps; ++step) { q.parallel_for(…).wait(); }

Occupancy basis
    None: the cost is context creation and JIT compilation, not occupancy. The finding does not
    depend on the device.
"""

from __future__ import annotations

from typing import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext

_LOOP_WORDS = {"for": "`for` loop", "range-for": "range-based `for` loop", "while": "`while` loop",
               "do": "`do … while` loop"}


class QueueInLoop(Rule):
    code = "KL207"
    name = "queue-in-loop"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for queue in facts.queues:
            loop = facts.innermost_loop(queue.span, side="host")
            if loop is None or not queue.creates_context:
                continue
            what = f"sycl::queue `{queue.name}`" if queue.name else "a temporary sycl::queue"
            yield ctx.diagnostic(
                queue.span,
                f"{what} is constructed inside the {_LOOP_WORDS[loop.kind]} at line {loop.span.line} without an "
                "existing context: every iteration creates a new context, JIT-compiles its kernels again and "
                "moves their data again; construct the queue once before the loop",
                evidence={"loop_line": loop.span.line, "loop_kind": loop.kind, "queue": queue.name,
                          "arguments": list(queue.arguments)},
                related=[(loop.span, f"the {_LOOP_WORDS[loop.kind]} the queue is constructed in")],
            )
