"""A barrier is reached under a work-item-dependent condition: deadlock or undefined behaviour.

What it does
    Flags a work-group barrier (`it.barrier()`, `sycl::group_barrier(it.get_group())`) or sub-group
    barrier (`sycl::group_barrier(sg)`, `sg.barrier()`) in device code that only some work-items of the
    group reach, because it sits

    * inside an `if` / `else` / `switch` / `?:` arm whose condition depends on the work-item id
      (`if (lid < s) { …; barrier; }`, `if (gid < n) { …; barrier; }`);
    * inside a loop whose trip count depends on the id (a grid-stride loop with a barrier in its body);
    * in a device function of the same file that is called under such a condition (reported at the
      call); or
    * after an early exit under such a condition: `if (gid >= n) return;` before a barrier, or a
      `break` / `continue` under one inside a loop that holds a barrier.

    Conditions on group ids, ranges, kernel arguments and constants are uniform across the group and
    are never flagged, and neither is a barrier that follows a divergent `if` once its paths have merged
    (the classic tree reduction `if (lid < s) …; barrier;` is correct). Also uniform: a value one
    work-item stores in shared memory and all read after a barrier (`if (lid == 0) next = …; barrier;
    while (next < n)`), work-group collectives, and a strided loop over a bound padded to a multiple of
    its stride (`for (i = gid; i < padded; i += grid)`); a `continue` after the loop body's last
    barrier skips no barrier; nor is a bound the launch's known sizes put between groups (`gid <
    1024` in work-groups of 256). A condition that differs only between sub-groups (a sub-group vote or
    broadcast, `lid / 32`) makes a work-group barrier divergent, but not a sub-group barrier.

Why it matters
    A barrier blocks every work-item of the work-group (or sub-group) until all of them have reached
    it; the guide describes it as exactly that. Work-items that skip the branch, leave the kernel early
    or run fewer loop iterations never arrive, so the others wait forever. SYCL requires a group barrier
    to be reached by every work-item of the group in converged control flow, and leaves anything else
    undefined: hangs, wrong results, or results that change with the device, the driver and the
    work-group size. A tail guard `if (gid < n)` around a barrier works only as long as the global size
    happens to be a multiple of the work-group size.

Example
    if (gid >= n) return;                       // some work-items leave …
    slm[lid] = in[gid];
    sycl::group_barrier(it.get_group());        // KL502: … and never arrive here

    Group collectives count as barriers: `reduce_over_group`, `group_broadcast`, `any_of_group`,
    `all_of_group`, `none_of_group`, `exclusive_scan_over_group`, `inclusive_scan_over_group` and the
    `joint_*` algorithms, given the work-group or a sub-group, must be reached by every member too. A
    barrier or collective is named by the group it is given, however that is spelled:
    `sycl::group_barrier(warp)` with `auto warp = it.get_sub_group()` is a sub-group barrier.
    A call of a parameterless function-like macro whose body is one work-group barrier
    (`#define syncthreads() item.barrier(…)`, common in code ported from CUDA), defined in the file or a
    quoted header, is that barrier; a sub-group barrier behind a macro is not read.

Fix
    Keep every barrier on a path that all work-items of the group take. Guard the work, not the
    barrier: `if (gid < n) slm[lid] = in[gid]; else slm[lid] = 0; group_barrier(g);`. In loops, run the
    same number of iterations in every work-item (round the bound up to the work-group size and guard
    the body's memory accesses instead).

Severity
    Error where the analysis proves some work-items of a group skip the barrier or collective
    while others reach it: a branch or loop whose condition depends on data or on the id's own
    arithmetic, a leader or role split on the local id (`lid < 32`, with its arms reaching
    different barriers), a data-dependent early `return`, or a bound on the plain id whose sizes
    are known and fall inside a group (`lid < 50` in work-groups of 64; `gid < 126` in two
    groups of 64). Warning where it depends on sizes the code does not show: a barrier under,
    or after an early `return` from, a bound on the id by a kernel argument or an unknown
    constant (`if (gid >= n) return;`, `if (ch < count) { … reduce_over_group(sg, …) }`), or a
    loop so bounded, all harmless while the bound is a multiple of the group size. Nothing when
    the known sizes make every group fall on one side (`gid < 1024` in work-groups of 256).
    Warning too where the condition tests the id shifted right by an amount kernlint cannot
    evaluate (`(tid >> LG) & 1` with `LG = lg2(…)`): the lanes share such a value in blocks that may
    hold the whole group.

Occupancy basis
    None: this is a correctness error, independent of the device.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import Barrier, Branch, FileFacts, KernelLaunch, Span
from kernlint.facts.device import Reach
from kernlint.rule import Rule, RuleContext
from kernlint_rules.divergence.costs import divergence_cost, divergent_barrier_cost


class DivergentBarrier(Rule):
    code = "KL502"
    name = "divergent-barrier"
    severity = Severity.ERROR
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        reported: set[tuple[int, int]] = set()
        for barrier in facts.barriers:
            for at, (branch, reach, how, _rank) in self._causes(facts, barrier).items():
                if at in reported:
                    continue  # a call site that reaches several barriers: reported once
                reported.add(at)
                location = reach.calls[0] if reach.calls else barrier.span
                yield self._diagnostic(facts, ctx, barrier, branch, reach, how, location)

    @staticmethod
    def _causes(facts: FileFacts, barrier: Barrier) -> dict[tuple[int, int], tuple[Branch, Reach, str, tuple]]:
        """For each place that leads to the barrier (the barrier itself, or a call in a branch), the
        dependent branch that guards it; else an early exit that skips the barrier. A condition the
        launch's sizes prove harmless (`gid < 1024` in work-groups of 256) is no cause; of several, a
        certain one wins over one that splits a group only for some sizes, then the innermost."""
        guarded: dict[tuple[int, int], tuple[Branch, Reach, str, tuple]] = {}
        exits: dict[tuple[int, int], tuple[Branch, Reach, str, tuple]] = {}
        uniform = barrier.scope == "sub-group"  # sub-group-dependent branches: every lane reaches the barrier
        for causes, how, found in ((guarded, "under", facts.guarding), (exits, "exit", facts.skipping)):
            for branch, reach in found(barrier.span):
                if uniform and branch.dependence == "sub-group":
                    continue
                split = _split(facts, barrier, branch, reach)
                if split != "never":
                    _keep(causes, branch, reach, how, barrier, split)
        if guarded:
            return guarded
        return exits

    def _diagnostic(
        self, facts: FileFacts, ctx: RuleContext, barrier: Barrier, branch: Branch, reach: Reach, how: str, at: Span
    ) -> Diagnostic:
        condition = " ".join(
            ctx.source.data[branch.condition.start_byte : branch.condition.end_byte]
            .decode("utf-8", errors="replace")
            .split()
        )
        if len(condition) > 60:
            condition = condition[:57] + "…"
        scope = "sub-group" if barrier.scope == "sub-group" else "work-group"
        noun = "collective" if barrier.collective else "barrier"
        what = f"{scope} {noun} `{barrier.form}`"
        source = f", from `{branch.origin}`" if branch.origin else ""  # an id, or a per-item value (an atomic)
        where = f"`{condition}`, line {branch.condition.line}{source}"
        if reach.calls:
            subject = (
                f"this call reaches a {what} in `{reach.function or 'a device function'}` "
                f"(line {barrier.span.line}), and"
            )
            reached = "is made"
        else:
            subject, reached = what, "is reached"
        dependent = "sub-group-dependent" if branch.dependence == "sub-group" else "work-item-dependent"
        if how == "exit":
            cause = (
                f"is skipped by the work-items that take the early `{branch.exit}` under a {dependent} "
                f"condition ({where})"
            )
            fix = f"guard the work instead of leaving early, so every work-item reaches the {noun}"
        elif branch.kind == "loop":
            cause = (
                f"runs inside a loop whose trip count differs between work-items ({where}), so work-items "
                f"reach the {noun} a different number of times"
            )
            fix = "give every work-item the same trip count and guard the body's memory accesses instead"
        elif branch.kind == "switch":
            cause = f"{reached} only by the work-items whose {dependent} value selects that case ({where})"
            fix = f"move the {noun} out of the switch so that every work-item reaches it"
        else:
            side = "holds" if _in_first_arm(branch, reach) else "fails"
            cause = f"{reached} only by the work-items for which a {dependent} condition {side} ({where})"
            fix = f"move the {noun} out of the branch so that every work-item reaches it"
        message = f"{subject} {cause}: the others never arrive, so the {scope} deadlocks or behaves undefined; {fix}"
        severity = None
        split = _split(facts, barrier, branch, reach)
        if split == "always":
            message += f" ({_why_certain(facts, barrier, branch, reach)})"
        elif (
            branch.dependence == "boundary"
            and branch.reason in ("tail-guard", "range")
            and (branch.kind == "loop" or how == "under" or (how == "exit" and branch.exit == "return"))
        ):
            # a bound on the id splits a group only when it falls inside one: not proven from the code
            looping = branch.kind == "loop" and how != "exit"
            unit = "the loop's stride" if looping else f"the {scope} size"
            size = None if looping else _group_size(facts.launch_for(at), scope)
            message += (
                f" (harmless only while the bound is a multiple of {unit}"
                f"{f', {size} here' if size else ''}, so that whole groups "
                f"{'run the same number of iterations' if looping else 'fall on one side'};"
                f" kernlint cannot tell {'the bound' if size else 'the sizes'} from the code)"
            )
            severity = Severity.WARNING
        elif branch.reason == "unknown-block":
            # `(tid >> LG) & 1` with `LG` not evaluated: the lanes share the value in blocks that may hold
            # the whole group, so the split is not proven
            message += (
                f" (harmless only if the shift of the id keeps whole {scope}s together,"
                " which kernlint cannot tell: it cannot evaluate the amount)"
            )
            severity = Severity.WARNING
        launch = facts.launch_for(at)
        related = [(branch.condition, f"the {dependent} condition")]
        if reach.calls:
            related.append((barrier.span, f"the {noun}"))
            related += [(call, "called from here") for call in reach.calls[1:]]
        evidence = {
            "barrier_line": barrier.span.line,
            "barrier": barrier.form,
            "scope": barrier.scope,
            "collective": barrier.collective,
            "certain": split == "always",
            "condition_line": branch.condition.line,
            "dependence": branch.dependence,
            "reason": branch.reason,
            "branch_kind": branch.kind,
            "via": "early-" + branch.exit if how == "exit" and branch.exit else how,
            "call_lines": [c.line for c in reach.calls],
            "function": reach.function,
        }
        sub_group = launch.attributes.reqd_sub_group_size if launch is not None else None
        # An error is a failure of the whole kernel; a warning (harmless while the sizes divide) costs
        # only the lanes that idle under the condition.
        cost = (
            divergence_cost(branch.lanes, sub_group)
            if severity is Severity.WARNING
            else divergent_barrier_cost(branch.lanes, sub_group)
        )
        return ctx.diagnostic(
            at,
            message,
            evidence=evidence,
            kernel=launch.name if launch is not None else None,
            related=related,
            severity=severity,
            cost=cost,
        )


def _group_size(launch: KernelLaunch | None, scope: str) -> int | None:
    """The size of the group a barrier waits for, when the launch fixes it: a 1-D work-group's local
    range (in more dimensions the bound's dimension is not known), or the required sub-group size."""
    if launch is None:
        return None
    if scope == "sub-group":
        return launch.attributes.reqd_sub_group_size
    local = launch.local_range
    return local.total if local is not None and local.known and len(local.dims) == 1 else None


Split = Literal["always", "maybe", "never"]


def _split(facts: FileFacts, barrier: Barrier, branch: Branch, reach: Reach) -> Split:
    """Whether a bound on the plain id splits the group the barrier waits for: `always` (`lid < 50` in
    work-groups of 64, `gid < 126` in two of 64, a leader `lid == 0`), `never` (`gid < 1024` in
    work-groups of 256: each group falls wholly on one side), or `maybe` (a bound or size unknown, or
    not a bound on the plain id)."""
    if branch.dependence == "strong" or branch.id_scope is None or branch.kind == "loop":
        return "maybe"
    launch = facts.launch_for(reach.calls[0] if reach.calls else barrier.span)
    size = _group_size(launch, barrier.scope)
    bound = branch.bound
    within = branch.id_scope == "lane" or (branch.id_scope == "local" and barrier.scope == "work-group")
    if branch.reason in ("leader", "all-but-one"):
        if bound is None:
            return "maybe"
        if size is not None and size <= 1:
            return "never"
        if within:  # one id of every group, or of none
            return "always" if bound >= 0 and (size is None or bound < size) else "never"
        total = _global_size(launch)
        return "never" if bound < 0 or (total is not None and bound >= total) else "always"
    if branch.reason not in ("tail-guard", "sub-group-aligned") or bound is None or size is None:
        return "maybe"
    if within:
        return "always" if 0 < bound < size else "never"
    if branch.id_scope != "global" or barrier.scope != "work-group":
        return "maybe"
    total = _global_size(launch)
    if bound % size == 0 or bound <= 0 or (total is not None and bound >= total):
        return "never"  # every work-group on one side of the bound
    return "always" if total is not None else "maybe"


def _why_certain(facts: FileFacts, barrier: Barrier, branch: Branch, reach: Reach) -> str:
    """Why a bound certainly splits a group, with the sizes that prove it."""
    launch = facts.launch_for(reach.calls[0] if reach.calls else barrier.span)
    size = _group_size(launch, barrier.scope)
    unit = f"{barrier.scope} of {size}" if size else barrier.scope
    if branch.reason in ("leader", "all-but-one"):
        return f"certain: the test singles out id {branch.bound}, so its {unit} holds work-items on both sides"
    if branch.id_scope != "global":
        return f"certain: ids below {branch.bound} and the others share every {unit}"
    assert branch.bound is not None and size
    group = branch.bound // size
    ids = f"{group * size}–{(group + 1) * size - 1}"
    return f"certain: {barrier.scope} {group} ({ids}) holds ids on both sides of {branch.bound}"


def _global_size(launch: KernelLaunch | None) -> int | None:
    """The launch's global size, when 1-D and constant."""
    if launch is None or launch.global_range is None or len(launch.global_range.dims) != 1:
        return None
    return launch.global_range.total


def _keep(causes: dict, branch: Branch, reach: Reach, how: str, barrier: Barrier, split: Split) -> None:
    """Keep the cause that explains the barrier best: a certain split, else the innermost branch."""
    location = reach.calls[0] if reach.calls else barrier.span
    key = (location.start_byte, location.end_byte)
    rank = (
        split != "always" and branch.dependence == "boundary",
        branch.span.end_byte - branch.span.start_byte,
    )
    current = causes.get(key)
    if current is None or rank < current[3]:
        causes[key] = (branch, reach, how, rank)


def _in_first_arm(branch: Branch, reach: Reach) -> bool:
    """Whether the barrier is in the branch's first region (the `if` arm) rather than the `else`."""
    if not branch.regions or branch.kind not in ("if", "else-if", "ternary"):
        return True
    first = branch.regions[0]
    target = reach.region if not reach.calls else reach.calls[0]
    return first.contains(target)
