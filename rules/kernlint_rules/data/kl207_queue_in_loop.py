"""A SYCL queue is constructed inside a host loop: every iteration pays for a new queue.

What it does
    Flags a `sycl::queue` constructed in the body of a host-side `for`, range-`for`, `while` or
    `do … while` loop that may run more than once (declaration, `auto q = sycl::queue(…)`,
    temporary, `new` or `make_unique`) when the construction is not given an existing context: it
    has no arguments, or only device selectors, devices, property lists and exception handlers. A
    queue built from an existing context (`sycl::queue(ctx, dev)`, `sycl::queue(q.get_context(), …)`)
    or copied from another queue is not flagged, nor is one whose arguments kernlint cannot classify
    (a function parameter, an `auto` variable): it does not guess. Loops that run once
    (`for (i = 0; i < 1; ++i)`, `do … while (0)`) do not count. A queue built once per element of
    an array or container of queues (`qs[i] = sycl::queue(…)`, `qs.push_back(…)`, `new sycl::queue[n]`)
    is intended, not rebuilt: it is reported as information, with the advice to share one context. A
    queue written in both arms of an `#ifdef` is reported once.

Why it matters
    With DPC++, a queue that is not given a context uses the platform's default context, so a queue
    built in a loop does not create a new context nor compile its kernels again; the cost is the
    queue's own creation (runtime objects, a command list or stream per queue) on every iteration,
    and the loss of ordering between iterations: work submitted to one iteration's queue is not
    ordered after the previous iteration's, an in-order queue orders nothing across iterations, and
    the runtime cannot track dependencies from one queue to the next except through buffers and
    explicit events. SYCL implementations without a default context create one per queue, which the
    guide calls a heavy-duty operation: kernels are compiled again for every new context and data
    resident in the old one is moved again. For an array of queues the creation is paid once per
    element, which is what the program asks for; the portable way to make every element use the same
    context (and so share USM allocations and compiled kernels everywhere) is to pass it one.

Example
    for (int step = 0; step < steps; ++step) {
        sycl::queue q{sycl::gpu_selector_v};      // KL207
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { … }).wait();
    }

Fix
    Create the queue once, before the loop, and submit every iteration's work to it:

    sycl::queue q{sycl::gpu_selector_v};
    for (int step = 0; step < steps; ++step) { q.parallel_for(…).wait(); }

    For an array of queues, build every element from one context:

    sycl::device dev{sycl::gpu_selector_v};
    sycl::context ctx{dev};
    for (int i = 0; i < n; ++i) qs[i] = sycl::queue(ctx, dev, sycl::property::queue::in_order());

Severity
    Warning: a queue built per iteration costs a runtime queue (and, without a shared context, a
    context) every iteration and loses the ordering between iterations; the message names the
    change (build it once before the loop). Info: queues stored one per element of a container
    without a context (DPC++ shares the default context, so it only matters for other
    implementations).

Occupancy basis
    None: the cost is queue (and, without a default context, context) creation, not occupancy. The
    finding does not depend on the device.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.rule import Rule, RuleContext
from kernlint_rules.data.host_loops import LOOP_WORDS


class QueueInLoop(Rule):
    code = "KL207"
    name = "queue-in-loop"
    severity = Severity.WARNING
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for queue in facts.queues:
            loop = facts.repeating_loop(queue.span, side="host")
            if loop is None or not queue.creates_context:
                continue
            where = f"the {LOOP_WORDS[loop.kind]} at line {loop.span.line}"
            evidence = {
                "loop_line": loop.span.line,
                "loop_kind": loop.kind,
                "queue": queue.name,
                "arguments": list(queue.arguments),
                "element_of": queue.element_of,
            }
            related = [(loop.span, f"the {LOOP_WORDS[loop.kind]} the queue is constructed in")]
            if queue.element_of is not None:
                yield ctx.diagnostic(
                    queue.span,
                    f"the queues stored in `{queue.element_of}` are built one per element in {where}, "
                    "without a context: with DPC++ they all share the platform's default context, "
                    "but other SYCL implementations give each queue a context of its own (kernels compiled "
                    "and USM memory owned per context); build every element from one `sycl::context`",
                    severity=Severity.INFO,
                    evidence=evidence,
                    related=related,
                    cost=queue_in_loop_cost(loop.trip_count),
                )
                continue
            what = f"sycl::queue `{queue.name}`" if queue.name else "a temporary sycl::queue"
            yield ctx.diagnostic(
                queue.span,
                f"{what} is constructed inside {where} without an existing context: every iteration creates "
                "a queue, and nothing orders its work after the previous iteration's queue (DPC++ shares the "
                "platform's default context; other SYCL implementations create a context and compile the "
                "kernels again); construct the queue once before the loop",
                evidence=evidence,
                related=related,
                cost=queue_in_loop_cost(loop.trip_count),
            )


def queue_in_loop_cost(trip_count: int | None) -> Cost:
    """KL207: a queue (and, outside DPC++, a context and kernel compilation) per iteration."""
    repeats = f"{trip_count} × " if trip_count else "trip count × "
    return Cost(
        None,
        "s",
        "per loop creating queues",
        f"{repeats}queue creation time",
        "the creation time of a queue (and, outside DPC++, of a context and its kernels) depends on the runtime",
        (),
        ("the runtime's queue creation time (not in the device model)",)
        + (() if trip_count else ("the loop's trip count",)),
        None,
        None,
        None,
        {"trip_count": trip_count},
    )
