"""A blocking wait in a host loop of device work that the host does not need in that iteration.

What it does
    Looks at every wait that runs on each iteration of a host loop holding device work: SYCL
    `q.wait()`, `q.wait_and_throw()`, `event.wait()`, `sycl::event::wait(…)`, a wait chained to a
    submission or copy (`q.memcpy(…).wait()`), a `sycl::host_accessor` built in the loop; OpenMP
    `#pragma omp taskwait` after `nowait` target tasks and `#pragma omp target update from(…)`, which
    copies back and waits. It follows what the host does after the wait, in the order the program
    runs: the rest of the iteration, the loop's condition, and the next iteration up to the wait,
    stopping at the next wait. The wait is needed, and not reported, when the host there reads data a
    device step of the loop writes (a convergence test, output, a check, MPI staging of a result),
    writes data a device step reads or writes (refilling a copy's source), reads a clock (the kernel is
    timed on purpose), or calls a function of the file that waits or times, or that is not followed.
    Ordering between kernels is not a need of the host: an in-order queue, events and `depends_on` (in
    OpenMP, `depend` clauses) order them without blocking it. A wait under a condition, a loop that
    runs once and a loop without device work to wait for are not reported.

Why it matters
    Every wait costs a round trip: the host learns the device finished, then submits the next work,
    and the device idles in between. The guide's advice is to minimise synchronisation between host
    and device; a loop that waits on every iteration pays the launch/sync latency once per iteration
    instead of once, and cannot overlap one iteration's copies with the next one's kernels.

Example
    for (int step = 0; step < steps; ++step) {
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { next[i] = 0.5f * (cur[i] + cur[i + 1]); });
        q.wait();                                           // KL702: nothing below reads `next`
        std::swap(cur, next);
    }

    for (int it = 0; it < iters; ++it) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) nowait
        for (int i = 0; i < n; ++i) a[i] += 1.0f;
        #pragma omp taskwait                                // KL702
    }

Fix
    Wait once, after the loop, where the host needs the results; order dependent kernels on the device
    (`sycl::queue q{sycl::property::queue::in_order()}`, or `h.depends_on(previous)`; OpenMP `depend`
    clauses). Move a `target update from(…)` the loop does not read to after the loop.

    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order()};
    for (int step = 0; step < steps; ++step) {
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { next[i] = 0.5f * (cur[i] + cur[i + 1]); });
        std::swap(cur, next);
    }
    q.wait();

Severity
    Warning: every iteration pays a round trip between host and device, and the message says where the
    one wait belongs. Info when the loop is known to run at most 8 times (a warm-up, a sweep of a few
    configurations): a handful of waits costs a few latencies, no material gain. Never an error
    (removing a wait never makes results right); nothing when anything after the wait may need it (a
    read of the device's results, a clock, a size, a call not followed), or when the wait is conditional.

Occupancy basis
    None: the cost is host–device synchronisation, the device profile's launch/sync latency
    (`sync_latency_us`, measured) times the loop's iterations; a device without a measured latency
    gets no figure. A `target update from` also costs its copy over the host link.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, HostFlow, HostStep
from kernlint.rule import Rule, RuleContext
from kernlint.transfer_cost import sync_cost, transfer_cost
from kernlint_rules.transfers.flows import cycle, iterations, loop_evidence, loop_phrase, repeating_loop

#: A loop known to run at most this many times pays too few waits for the finding to be a warning.
FEW_ITERATIONS = 8


class SyncInLoop(Rule):
    code = "KL702"
    name = "sync-in-loop"
    severity = Severity.WARNING

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for flow in facts.host_flows:
            for position, step in enumerate(flow.steps):
                if step.conditional:
                    continue
                if step.kind == "wait":
                    found = self._wait(facts, flow, position, step, ctx)
                elif _copies_back(step, facts):
                    found = self._update(facts, flow, position, step, ctx)
                else:
                    continue
                if found is not None:
                    yield found

    def _wait(
        self, facts: FileFacts, flow: HostFlow, position: int, wait: HostStep, ctx: RuleContext
    ) -> Diagnostic | None:
        loop_index = repeating_loop(flow, wait)
        if loop_index is None:
            return None
        inside = [flow.steps[p] for p in flow.in_loop(loop_index)]
        if wait.construct is not None:  # taskwait: only `nowait` target tasks run on past the directive
            awaited = [s for s in inside if s.kind == "launch" and s.construct is not None and not s.blocking]
        else:  # a loop of copies alone is a copy, or a copy benchmark: the waits pace what it is for
            awaited = [s for s in inside if s.kind == "launch" and s.construct is None]
        loop = flow.loops[loop_index]
        if not awaited or any(loop.span.contains(q.span) for q in facts.queues):
            return None  # a queue built in the loop (KL207): nothing orders one iteration's work after another's
        needed, covering = _needed(flow, position, loop_index, inside, set(wait.reads))
        if needed:
            return None
        form = _form(flow, position, wait)
        copied = _unread_copy(flow, position, loop_index)
        if covering is not None:
            # the host may need the results later in the iteration: only this wait is spare, not the last one
            order = f"the wait at line {covering.span.line} waits for this work too, so drop this one"
        elif wait.construct is not None:
            order = "order the target tasks with `depend` clauses and wait once after the loop"
        elif copied is not None:
            order = (
                f"the loop never reads `{copied}`: wait once after the loop (and order the kernels with an "
                "in-order queue or events, not the host)"
            )
        elif _every_queue_in_order(facts):
            order = (
                "the file's one queue is in order, so its work stays in order without the wait: "
                "wait once after the loop"
            )
        else:
            order = (
                "wait once after the loop (to order the kernels, use an in-order queue or events and "
                "`depends_on`, not the host)"
            )
        message = (
            f"`{form}` blocks the host on every iteration of {loop_phrase(loop, ctx.language)}, but before the next "
            f"wait the host neither reads what the loop's device work writes nor reads a clock: {order}"
        )
        few = loop.trip_count is not None and loop.trip_count <= FEW_ITERATIONS
        return ctx.diagnostic(
            wait.span,
            message,
            severity=Severity.INFO if few else None,
            evidence={"wait": form, **loop_evidence(loop)},
            related=[(loop.span, "the loop the wait repeats in")],
            cost=sync_cost(ctx.devices, repeats=loop.trip_count, bound=loop.bound),
        )

    def _update(
        self, facts: FileFacts, flow: HostFlow, position: int, copy: HostStep, ctx: RuleContext
    ) -> Diagnostic | None:
        loop_index = repeating_loop(flow, copy)
        if loop_index is None:
            return None
        loop = flow.loops[loop_index]
        inside = [flow.steps[p] for p in flow.in_loop(loop_index)]
        if not any(s.kind == "launch" for s in inside):
            return None  # a loop of copies alone: the copies are what it is for (a copy benchmark)
        if any(
            "target data" in outer.leaves
            and outer.region is not None
            and loop.span.contains(outer.region)
            and outer.region != loop.span
            for outer in facts.constructs_around(copy.span)
        ):
            return None  # the data region ends inside the loop: moving the update out needs it moved too
        name = copy.writes[0]
        segment = [flow.steps[p] for p in cycle(flow, position, loop_index)]
        for step in segment:
            if step.kind in ("timer", "call") or (step.kind == "use" and step.touches(name)):
                return None
            if step.kind == "launch" and name in step.reads and step.construct is None:
                return None  # a host submission reads the host's copy
        message = (
            f"`{copy.form}` copies `{name}` back to the host and waits for it on every iteration of "
            f"{loop_phrase(loop, ctx.language)}, but the host does not use `{name}` in the loop: update it once after "
            "the loop"
        )
        return ctx.diagnostic(
            copy.span,
            message,
            evidence={"wait": copy.form, "variable": name, **loop_evidence(loop)},
            related=[(loop.span, "the loop the update repeats in")],
            cost=update_cost(ctx, copy.bytes, loop.trip_count, iterations(loop)),
        )


def _copies_back(step: HostStep, facts: FileFacts) -> bool:
    """An OpenMP `target update from(…)`: a copy to the host that waits for itself."""
    if step.kind != "copy" or step.construct is None or step.direction != "to-host" or not step.blocking:
        return False
    return facts.omp[step.construct].kind == "target update" and len(step.writes) == 1


def _needed(
    flow: HostFlow, position: int, loop: int, inside: list[HostStep], own: set[str]
) -> tuple[bool, HostStep | None]:
    """Whether the host needs the wait: after it, up to the next wait for everything, it reads data the
    loop's device steps write, writes data they touch, reads a clock, calls what is not followed, or
    uses what the wait itself makes visible (a host accessor), or submits work sized by a result; and
    it is not worth removing when no device work is submitted before the next wait for everything.
    Second: that next wait, when it comes later in the same iteration after more device work
    (`q.memcpy(a…).wait(); q.memcpy(b…).wait();` on an in-order queue): it waits for this wait's work too."""
    device = [s for s in inside if s.kind in ("launch", "copy")]
    written = {n for s in device for n in s.writes}
    touched = written | {n for s in device for n in s.reads}
    submitted = False  # device work the wait holds back until the host is told
    for later in cycle(flow, position, loop):
        step = flow.steps[later]
        if step.kind == "wait" and step.waits_all and not step.conditional:
            # another wait right after: removing this one gains nothing
            return not submitted, step if submitted and later > position else None
        if step.kind in ("timer", "call"):
            return True, None
        if step.kind == "use" and (set(step.reads) & (written | own) or set(step.writes) & (touched | own)):
            return True, None
        if step.kind in ("launch", "copy"):
            if set(step.values) & written:
                return True, None  # it is given a value the device computed (a size copied back)
            submitted = True
    return not submitted, None


def _unread_copy(flow: HostFlow, position: int, loop: int) -> str | None:
    """The host data a copy chained to this wait brings back (`q.memcpy(h, d, n).wait()`), when no host
    step of the loop reads it: then the copy, not only its wait, belongs after the loop."""
    previous = flow.steps[position - 1] if position > 0 else None
    if previous is None or previous.kind != "copy" or not previous.blocking or previous.direction != "to-host":
        return None
    name = previous.writes[0] if len(previous.writes) == 1 else None
    inside = [flow.steps[p] for p in flow.in_loop(loop)]
    if name is None or any(s.kind in ("use", "call") and name in s.reads for s in inside):
        return None
    return name


def _form(flow: HostFlow, position: int, wait: HostStep) -> str:
    """The wait as written: `q.wait()`, or `q.memcpy(…).wait()` when it waits for a copy it is chained to."""
    previous = flow.steps[position - 1] if position > 0 else None
    if (
        previous is not None
        and previous.kind in ("launch", "copy")
        and previous.construct is None
        and previous.span.end_byte <= wait.span.start_byte <= previous.span.end_byte + 2
    ):
        return f"{previous.form}(…).{wait.form.split('.')[-1]}"
    return wait.form


def update_cost(ctx: RuleContext, nbytes: int | None, repeats: int | None, words: str) -> Cost:
    """A `target update from` per iteration: its copy over the host link, × the trip count when known
    (the wait it adds comes on top)."""
    return transfer_cost(
        ctx.devices,
        nbytes,
        1,
        per="per iteration",
        repeats=repeats,
        repeat_word="per loop",
        missing=() if nbytes is not None else ("the updated section's size in bytes",),
        assumptions=(
            f"one device-to-host copy on each of {words}; the last one is needed",
            "the wait for the copy comes on top (the launch/sync latency)",
        ),
        share=1.0 - 1.0 / repeats if repeats else 1.0,
    )


def _every_queue_in_order(facts: FileFacts) -> bool:
    """Whether the file builds one in-order queue (one variable, however many `#if` arms build it): its
    work runs in submission order without the host's help. Two queues order nothing between them."""
    names = {q.name for q in facts.queues if q.element_of is None}
    return (
        len(names) == 1
        and None not in names
        and len(names) == len({q.name for q in facts.queues})
        and all(any("in_order" in a for a in q.arguments) for q in facts.queues)
    )
