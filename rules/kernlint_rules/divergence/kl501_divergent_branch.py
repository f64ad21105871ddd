"""A branch in device code depends on the work-item id, so the lanes of a sub-group diverge.

What it does
    Flags `if` / `else if`, `switch`, `?:` and loops in device code (a kernel body and the device
    functions and lambdas it calls in the same file) whose condition depends on the work-item id in a
    way that splits sub-groups throughout the launch:

    * parity and modulo tests (`lid % 2 == 0`, `gid % 4 == 1`) and bit tests (`lid & 1`);
    * comparisons of the id with a bound that changes every iteration of an enclosing loop — the
      tree-reduction step `if (lid < s)` with `s` halved each time, or a loop `for (k = 0; k < i; ++k)`
      whose trip count grows with the id;
    * tests on data loaded with an id-derived index (`if (data[i] > 0)`, a CSR row loop running from
      `row_ptr[row]` to `row_ptr[row + 1]`, a member of the lane's element `verts[v].degree`, Fortran
      `cells(i)%n` or a name `ASSOCIATE`d with an element);
    * other non-monotone arithmetic of the id.

    Dependence is followed through assignments, arithmetic, id-indexed loads, arguments of device
    functions (in OpenMP, the file's C functions and Fortran procedures a device region calls, one
    level deep), and `bool` flags. Conditions on group or sub-group ids, ranges, kernel arguments,
    constants and results of group collectives (`reduce_over_group`, `group_broadcast`) are uniform and
    never flagged, and so are values that are the same in every lane of a sub-group: sub-group ids,
    `lid / 32` or `lid >> 5` (sub-groups are at most 32 wide), an id divided by the sub-group's size
    (`gid / sg.get_max_local_range()[0]`, one sub-group per item), sub-group broadcasts
    (`select_from_group(sg, x, 0)`), votes and reductions. Dependence follows each definition of a
    variable (a variable reassigned after a divergent assignment is uniform again) and each call of a
    device function with its own arguments. A `?:` whose arms are plain values is compiled to a select
    and is not flagged, nor is a loop bounded by its own start plus a uniform count (`for (k = s; k < s
    + 4; ++k)` runs four times in every lane, whatever `s` is), nor the test of an OpenMP `atomic
    compare` (one compare-and-swap instruction).

    OpenMP offload code (C, C++ and Fortran) is covered the same way: the OpenMP front-end treats
    the index of a loop shared out by `parallel for` / `parallel do` / `loop` (and
    `omp_get_thread_num()`) as the work-item id, and an inner sequential loop's index as uniform. A
    region limited to one thread per team (`thread_limit(1)`) has nothing to diverge. Neither has code
    that only one lane runs: a branch inside the guarded arm of a leader test (`if (lid == 0)`) is not
    reported (the leader test itself is, as serial work when it holds a loop).

    Each finding is classed by what it costs and whether it can be changed (statement counts of each
    arm, counted on the tree; a loop with a small constant trip count counts as its body that many
    times; calls count when they reach a function of the same file):

    * serial work by one lane (`serial-leader`): a loop or ten statements or more under a leader test
      (`lid == 0`, or `lx == 0 && ly == 0` in two dimensions);
    * tree reduction (`tree-reduction`): a test of the id against a bound an enclosing loop halves
      (`if (lid < s)`, `s >>= 1`);
    * scan sweep (`tree-scan`): the two sweeps of a work-efficient scan, a combining step under a bound
      an enclosing loop doubles (`if (lid < d)`, `d *= 2`: the down-sweep) after a combining tree step
      in the same code (the up-sweep, whose partial sums the down-sweep reads, so a reduction cannot
      replace it). A doubling step without an up-sweep before it (a broadcast tree) is classed by its
      arms;
    * divergent loop (`divergent-loop`): the trip count follows the lane id (`k <= lid`);
    * heavy divergent arms (`heavy-arms`): an arm of six statements or more, a loop, or both arms
      together from ten statements: they run one after the other;
    * cheap divergent arms (`cheap-arms`): short arms the compiler predicates. When the branch is an
      `if` whose arms each assign one variable, a fix rewrites it: `if (v > m) m = v;` becomes
      `m = std::max(m, v);` (std::max returns its second argument only when the first is less),
      other shapes become `x = (c) ? a : b;` (see Fix safety). A `?:` is never told to become one;
    * inherent divergence (`inherent`): trip counts or heavy paths chosen by data each lane loads, or
      by non-monotone arithmetic of the id, searches and walks steered by such data, triangular
      steps: the algorithm's own divergence;
    * boundary (off by default): tail guards `i < n`, leaders with trivial work, halo checks
      `i > 0 && i < n - 1`, grid-stride loops, tests on an outer index of a collapsed OpenMP nest —
      they diverge in at most one sub-group per bound, or idle lanes only briefly. Reported only when
      the option `report-boundary = true` is set.

    Which of them are warnings is the severity policy below.

    The first line of the message names the class and the estimate ("about 14 statements with 1 loop
    run by 1 of 32 lanes", "both arms, 12 and 9 statements, run one after the other"); the second
    says why the lanes disagree and what to do. The evidence holds `class`, `estimate` and `arms`.

Why it matters
    A sub-group is one hardware thread executing its work-items as SIMD lanes. When lanes of the same
    sub-group disagree on a condition, the thread runs both paths one after the other with the
    non-participating lanes masked off, so the dynamic instruction count grows and part of the SIMD
    width does no useful work until the paths merge. The guide names this SIMD divergence as a direct
    performance loss and recommends removing conditional checks: padding buffers so tail checks
    disappear, and replacing branches by relational functions such as `select`, `min` and `max`.
    A test that alternates between neighbouring lanes (parity) costs every sub-group of the launch,
    whereas a tail guard costs only the one sub-group that straddles the bound, which is why only the
    first kind is a warning.

Example
    for (int s = wg / 2; s > 0; s >>= 1) {
      if (lid < s)                        // KL501: active lanes halve every step
        slm[lid] += slm[lid + s];
      sycl::group_barrier(it.get_group());
    }
    if (gid % 2 == 0) out[gid] = f(x);     // KL501: both paths at half width
    else              out[gid] = g(x);

Fix
    Give neighbouring lanes the same path: map even and odd work to different halves of the range
    instead of alternating lanes, or compute both values and choose with `sycl::select`, `min` or `max`.
    For reductions, let the group algorithms do the last steps: `sycl::reduce_over_group(it.get_group(),
    x, sycl::plus<>())`, or a shared-memory tree that stops at the sub-group size followed by a
    sub-group reduction. Options: `[tool.kernlint.rules.KL501] report-boundary = true` also reports
    boundary conditions (as info).

Fix safety
    For cheap arms that each assign one variable, kernlint offers a select (`x = (c) ? a : b;`) or
    `std::min` / `std::max` for a strict comparison of the two values. `std::max(m, v)` is written
    only where it compiles and compares as the branch: `m` and `v` declared with one type (std::max
    deduces one), C++ (not a `.c` file, nor a header a `.c` file includes), no `min`/`max` macro in
    the file or its quoted includes; the fix adds `#include <algorithm>` when the file lacks it.
    Elsewhere the select is the spelling (every C and C++ compiler reads it; `fmax` and `sycl::fmax`
    pick differently for NaN). A rewrite is marked safe only where provably the same program: the
    values' declared types known (a literal's, a cast's, a declaration the file shows) and brought by
    the select to the variable's own type (`float x` with an `int` value is, `int x` with a `double`
    value is not), and the variable, written on every path instead of one, a private local (by
    value, not static, declared in the same function or lambda and not outside an OpenMP construct).
    Anything unknown makes it unsafe, and the description says what to check. No fix in Fortran, nor
    for a branch with a comment or a preprocessor line inside. benchmarks/fix_compile_check.py
    compiles HeCBench before and after `--fix` (and `--unsafe-fixes`) to check that fixes compile.

Severity
    Each class's severity follows kernlint's policy: a warning names a change the analysis can justify
    and a material gain estimated from the device model; everything true but inherent to the algorithm,
    or too cheap to matter, is an info (listed with --show-infos). The thresholds:

    * serial-leader: a warning when the leader runs a loop over the work-group (bounded by
      `get_local_range`) or of at least 32 iterations (a sub-group's worth: sharing it saves n − 1 of
      every n lane-steps); a few scalar stores, a short table or a loop of unknown length is an info;
    * tree-reduction: a warning when the steps combine elements as a reduction or scan does
      (`s[lid] += s[lid + d]`) and a work-group barrier separates them: the last log2 n steps run
      within one sub-group at (n − 1) ÷ (n × log2 n) of its lanes (predicated: ÷ W), each behind a
      barrier a sub-group reduction does without; otherwise an info;
    * tree-scan: a warning on the same terms (combining steps, a barrier between them); the down-sweep's
      first log2 n steps run within one sub-group as the up-sweep's last ones do, and a group scan
      (`joint_exclusive_scan`, `exclusive_scan_over_group`; in OpenMP a `scan` directive) replaces both
      loops with scans within sub-groups and a few work-group barriers;
    * divergent-loop: a warning when the trip count follows the local id and the model leaves at least
      25 % of the lanes idle (work-groups of one or two sub-groups), or the loop accumulates a running
      prefix (`for (k = 0; k <= lid; ++k) s += t[k]`, which a group scan does in about 2 log2 W steps);
      a trip count that follows the global id (imbalance between sub-groups, not idle lanes) is an info;
    * heavy-arms: a warning for a regular lane pattern (parity, modulo, bit tests, a lane range) that
      leaves at least 25 % of the lanes idle under heavy code: remapping the lanes gives each
      sub-group one path; other heavy arms are infos;
    * inherent (info): the algorithm's own divergence: trip counts and paths chosen by data each lane
      loads (CSR rows, neighbour lists, per-row sorts, two-pointer merges, adaptive radii, heap
      sift-downs, state machines with `break`, searches and walks), non-monotone arithmetic of the id,
      and triangular steps (`if (tx > i)` in a loop over i);
    * cheap-arms (info): arms short enough that the compiler predicates them, an `else if` chain that
      stores one value per arm (compares and selects), a constant 2-trip loop counted as its body;
    * boundary (info, off by default): tail guards, halos, trivial leaders, grid-stride tails, tests on
      an outer index of a collapsed OpenMP nest (only a sub-group that straddles two rows diverges).

    Why 25 %: below it the divergence costs less than the variation of a memory-bound kernel (the GPU
    harness measured a 3 % lane loss hidden entirely by memory traffic) and restructuring rarely pays.
    Never an error: divergence slows a kernel, it never breaks it.

Occupancy basis
    None directly: occupancy counts resident threads, divergence wastes lanes inside them. The message
    estimates lane utilisation from the condition (parity: both paths at half width; `lid == 0`: 1 of
    the sub-group's lanes; `lid < s`: halving each step, (n − 1) ÷ (n × log2 n) over the last log2 n
    steps (doubling: over the first log2 n), or (n − 1) ÷ (W × log2 n) for a step the compiler
    predicates, which every sub-group of the work-group issues; `k <= lid`: the lanes leave one
    iteration apart, (n·m + 1) ÷ (n·(m + 1)) over a work-group of m sub-groups), using the kernel's
    required sub-group size, or the device's only one (an NVIDIA warp), and the work-group size when
    the launch fixes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from kernlint.diagnostics import Diagnostic, Edit, Fix, FixAvailability, Severity
from kernlint.facts import Branch, FileFacts, KernelLaunch, Span
from kernlint.facts.span_index import SpanIndex
from kernlint.rule import Rule, RuleContext
from kernlint_rules.divergence.classes import Launch, classify, estimate, heavy, scan_pairs, verdict
from kernlint_rules.divergence.costs import divergence_cost
from kernlint_rules.divergence.rewrites import Spelling, rewrite

_REASONS = {
    "parity": "it tests the parity of the work-item id, so neighbouring lanes always disagree",
    "modulo": "it takes the work-item id modulo a small value, so lanes of every sub-group disagree",
    "bit-test": "it tests bits of the work-item id, so lanes of every sub-group disagree",
    "loop-bound": "it compares the work-item id with a bound that changes every iteration of the enclosing loop",
    "data": "it tests data loaded with an index derived from the work-item id",
    "arithmetic": "it depends on non-monotone arithmetic of the work-item id",
    "lane-range": "it compares the sub-group lane id with a bound inside the sub-group, so every sub-group splits",
    "leader": "it selects a single work-item",
    "all-but-one": "it excludes a single work-item",
    "tail-guard": "it bounds the work-item id",
    "range": "it checks the work-item id against a range",
    "sub-group-aligned": "it compares the work-item id with a shrinking bound that stays a multiple of the sub-group "
    "size, so whole sub-groups drop out together",
    "rows": "it depends only on an outer index of the collapsed loop nest, the same along each row of inner "
    "iterations (consecutive lanes): only a sub-group that straddles two rows diverges, and kernlint cannot show "
    "the row length is a multiple of the sub-group size",
    "unknown-block": "it tests the work-item id shifted right by an amount kernlint cannot evaluate: lanes "
    "share the value in blocks, and kernlint cannot tell whether a block holds whole sub-groups",
}
_LOOP_REASONS = {
    "rows": "its trip count depends only on an outer index of the collapsed loop nest, the same along each row of "
    "inner iterations (consecutive lanes): only a sub-group that straddles two rows diverges, and kernlint cannot "
    "show the row length is a multiple of the sub-group size",
    "loop-bound": "its trip count grows with the work-item id, so lanes drop out one iteration at a time",
    "data": "its trip count comes from data indexed by the work-item id",
    "tail-guard": "its start depends on the work-item id, so trip counts differ by about one iteration",
}
_HINTS = {
    "parity": "map the two kinds of work to different halves of the range instead of alternating lanes, "
    "or compute both values and choose with sycl::select",
    "modulo": "group the lanes that take the same path into whole sub-groups, or compute both values and "
    "choose with sycl::select",
    "bit-test": "group the lanes that take the same path into whole sub-groups, or compute both values and "
    "choose with sycl::select",
    "loop-bound": "stop the tree at the sub-group size and finish with a sub-group collective, or use the "
    "group algorithms (reduce_over_group, inclusive_scan_over_group) outright",
    "lane-range": "give the two kinds of work to whole sub-groups (test the sub-group id instead of the lane), "
    "or compute both values and choose with sycl::select",
}
_LOOP_HINTS = {
    "loop-bound": "even out the trip counts (pair a short and a long row in one work-item), or let a whole "
    "sub-group share one row so its lanes agree on the count",
    "data": "let a sub-group cooperate on one item so its lanes share the trip count, or group items of "
    "similar length together",
    "arithmetic": "group work items that need similar iteration counts together, or cap the iterations per "
    "pass and requeue the unfinished ones",
}
_BOUNDARY_HINT = "padding the data to a multiple of the work-group size removes the check"
_HEAVY_HINT = (
    "group the work so neighbouring lanes take the same path (sort or bin the items by the condition), "
    "or run the heavy path as a separate pass over the items that need it"
)
_SERIAL_HINT = (
    "share the work among the work-group (a group algorithm such as reduce_over_group, or a strided "
    "loop over all lanes) and let one lane publish the result"
)
_PREFIX_HINT = (
    "it accumulates a running prefix: sycl::inclusive_scan_over_group(it.get_group(), x, sycl::plus<>()) gives "
    "every work-item its prefix in about 2 log2 W steps, where the last lane here runs W iterations"
)
_INHERENT_HINT = (
    "inherent to the algorithm: nothing to change unless the imbalance between lanes is large (then let a "
    "sub-group share one item, or group items of similar length or the same path together)"
)
_TREE_HINT = (
    "stop the tree at the sub-group size and finish with a sub-group reduction (sycl::reduce_over_group(sg, x, "
    "op), or shift_group_left steps): {steps}work-group barriers fewer per pass"
)
_SCAN_HINT = (
    "replace the up-sweep and down-sweep with one group scan (sycl::joint_exclusive_scan(it.get_group(), first, last, "
    "out, sycl::plus<>()), or exclusive_scan_over_group on each work-item's value), which scans within sub-groups "
    "and needs a few work-group barriers instead of one per step"
)
_CLASS_WORDS = {
    "divergent-loop": "divergent loop",
    "serial-leader": "serial work by one lane",
    "heavy-arms": "heavy divergent arms",
    "cheap-arms": "cheap divergent arms",
    "inherent": "inherent divergence",
    "tree-reduction": "tree reduction",
    "tree-scan": "scan sweep",
    "boundary": "boundary divergence",
}
_KIND_WORDS = {
    "if": "branch",
    "else-if": "`else if` branch",
    "ternary": "`?:` expression",
    "switch": "`switch`",
    "loop": "loop condition",
}


def _single_lane_code(facts: FileFacts) -> list[Span]:
    """The guarded arms of leader tests (`if (lid == 0) { … }`) that one lane runs: one lane cannot
    diverge from itself. Only where the ids are one-dimensional (OpenMP thread numbers, a 1-D SYCL
    launch): `get_local_id(2) == 0` in a 3-D work-group picks one lane per row, and a sub-group may
    hold several rows. Not Fortran, where an `if`'s one region spans its `else` too."""
    if facts.language == "openmp-fortran":
        return []
    return [
        b.regions[0]
        for b in facts.branches
        if b.reason == "leader"
        and b.lanes is not None
        and b.lanes.kind == "single"
        and b.kind in ("if", "else-if")
        and b.regions
        and (facts.language != "sycl" or _one_dimensional(facts.launch_for(b.condition)))
    ]


def _one_dimensional(launch: KernelLaunch | None) -> bool:
    if launch is None:
        return False
    return launch.range_kind == "scalar" or (launch.global_range is not None and len(launch.global_range.dims) == 1)


class DivergentBranch(Rule):
    code = "KL501"
    name = "divergent-branch"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})
    options: ClassVar[dict[str, Any]] = {"report-boundary": False}

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        report_boundary = bool(ctx.options.get("report-boundary", False))
        lone = SpanIndex((region, region) for region in _single_lane_code(facts))
        classes = {
            b.span: classify(b)
            for b in facts.branches
            if not b.select_like and b.dependence != "sub-group" and not lone.containing(b.span)
        }
        scan_pairs(facts.branches, classes, lambda a, b: _same_code(facts, a, b))
        reported = {span for span, klass in classes.items() if klass != "boundary" or report_boundary}
        chains: dict[Span, list[Branch]] = {}  # the links of each if / else-if chain, by its head
        for branch in facts.branches:
            chains.setdefault(branch.head or branch.span, []).append(branch)
        for branch in facts.branches:
            if branch.span not in reported:
                continue
            if branch.head is not None and self._chain_reported(chains[branch.head], branch, reported):
                continue  # one finding per if / else-if chain
            yield self._diagnostic(facts, branch, classes[branch.span], ctx)

    @staticmethod
    def _chain_reported(chain: list[Branch], branch: Branch, reported: set) -> bool:
        """Whether an earlier link of the same if / else-if chain is already reported."""
        return any(
            other.span in reported and other.span != branch.span and other.span.contains(branch.span) for other in chain
        )

    def _diagnostic(self, facts: FileFacts, branch: Branch, klass: str, ctx: RuleContext) -> Diagnostic:
        launch = facts.launch_for(branch.condition)
        sub_group = _sub_group_size(launch, ctx)
        group_size = _group_size(launch)
        judged = verdict(branch, klass, Launch(sub_group, group_size, lambda span: _barrier_in(facts, span)))
        written = ctx.source.data[branch.condition.start_byte : branch.condition.end_byte].decode(
            "utf-8", errors="replace"
        )
        written = " ".join(written.split())
        condition = written if len(written) <= 40 else written[:37] + "…"
        reasons = _LOOP_REASONS if branch.kind == "loop" else {}
        why = reasons.get(branch.reason) or _REASONS.get(branch.reason, "it depends on the work-item id")
        hint = self._hint(branch, klass, ctx.language, sub_group)
        if not judged.warn and judged.why:
            why += f"; an info, as {judged.why}"
        fix = self._fix(facts, branch, written, ctx) if klass == "cheap-arms" else None
        if fix is not None:
            hint = f"{fix.description} (`{fix.edits[0].text}`)"
        where = f" in `{branch.function}`" if branch.function else ""
        message = f"{_CLASS_WORDS[klass]} at {_KIND_WORDS.get(branch.kind, 'branch')} `{condition}`{where}"
        evidence = {
            "class": klass,
            "estimate": estimate(branch, klass, sub_group),
            "why": why,
            "hint": hint,
            "dependence": branch.dependence,
            "reason": branch.reason,
            "kind": branch.kind,
            "origin": branch.origin,
            "lanes": branch.lanes.kind if branch.lanes is not None else None,
            "active_fraction": branch.lanes.taken if branch.lanes is not None else None,
            "arms": [{"statements": a.statements, "loops": a.loops, "calls": a.calls} for a in branch.arms],
            "sub_group_size": sub_group,
            "work_group_size": group_size,
            "function": branch.function,
        }
        message += f": {evidence['estimate']}\n{why}; {hint}"
        return ctx.diagnostic(
            branch.condition,
            message,
            evidence=evidence,
            fix=fix,
            kernel=launch.name if launch is not None else None,
            severity=None if judged.warn else Severity.INFO,
            cost=divergence_cost(
                branch.lanes,
                sub_group,
                group_size=group_size,
                scope=branch.id_scope,
                predicated=klass in ("tree-reduction", "tree-scan") and not heavy(branch.arms),
            ),
        )

    @staticmethod
    def _hint(branch: Branch, klass: str, language: str, sub_group: int | None = None) -> str:
        if klass == "boundary":
            return _BOUNDARY_HINT
        if klass == "serial-leader":
            hint = _SERIAL_HINT
        elif klass == "inherent":
            hint = _INHERENT_HINT
        elif klass == "tree-reduction":
            hint = _TREE_HINT.format(steps=f"{sub_group.bit_length() - 1} " if sub_group else "")
        elif klass == "tree-scan":
            hint = _SCAN_HINT
        elif klass == "cheap-arms" and branch.kind == "ternary":
            return "already a `?:`; its arms are cheap, so leave it unless it sits in a hot loop"
        elif klass == "cheap-arms" and any(a.statements > 1 for a in branch.arms):
            return "the compiler predicates arms this short; change it only if it sits in the innermost hot loop"
        elif klass == "cheap-arms":
            hint = _HINTS.get(branch.reason, "compute both values and choose with sycl::select, min or max")
        elif branch.kind == "loop" and branch.combines and branch.id_scope in ("local", "lane"):
            hint = _PREFIX_HINT
        elif branch.kind == "loop":
            hint = {**_HINTS, **_LOOP_HINTS}.get(branch.reason, _LOOP_HINTS["data"])
        else:
            hint = (
                _HINTS.get(branch.reason, _HEAVY_HINT) if branch.reason not in ("data", "arithmetic") else _HEAVY_HINT
            )
        if language != "sycl":  # OpenMP: the same advice in its own terms
            chooser = "`merge`" if language == "openmp-fortran" else "a conditional expression (`?:`)"
            hint = (
                hint.replace("sycl::select", chooser)
                .replace(
                    "a sub-group reduction (sycl::reduce_over_group(sg, x, op), or shift_group_left steps)",
                    "a `reduction` clause, which the runtime maps onto sub-group operations",
                )
                .replace("sycl::inclusive_scan_over_group(it.get_group(), x, sycl::plus<>())", "an inclusive `scan`")
                .replace(
                    "one group scan (sycl::joint_exclusive_scan(it.get_group(), first, last, out, sycl::plus<>()), or "
                    "exclusive_scan_over_group on each work-item's value), which scans within sub-groups",
                    "one exclusive `scan` (a `reduction(inscan, …)` loop with a `scan exclusive` directive), which the "
                    "runtime maps onto sub-group operations",
                )
                .replace("a group algorithm such as reduce_over_group", "a `reduction` clause")
                .replace("a sub-group collective", "a reduction clause")
                .replace(
                    "the group algorithms (reduce_over_group, inclusive_scan_over_group)", "reduction and scan clauses"
                )
            )
        return hint

    @staticmethod
    def _fix(facts: FileFacts, branch: Branch, condition: str, ctx: RuleContext) -> Fix | None:
        if ctx.language == "openmp-fortran":
            return None
        inner = condition.strip()
        while inner.startswith("(") and inner.endswith(")") and _balanced(inner[1:-1]):
            inner = inner[1:-1].strip()
        found = rewrite(branch, inner, Spelling(facts.compiled_as_c, facts.preprocessor.macros))
        if found is None:
            return None
        edits = [ctx.replace(branch.span, found.text)]
        description = found.description
        if found.algorithm and "<algorithm>" not in facts.preprocessor.includes:
            line = facts.preprocessor.include_line
            edits.append(Edit(line, 1, line, 1, "#include <algorithm>\n"))
            description += ", and include <algorithm>"
        return Fix(description, tuple(edits), found.safe)


def _sub_group_size(launch: KernelLaunch | None, ctx: RuleContext) -> int | None:
    """The kernel's required sub-group size, else the one size every target device has (NVIDIA's warp)."""
    required = launch.attributes.reqd_sub_group_size if launch is not None else None
    if required:
        return required
    sizes = {size for device in ctx.devices for size in device.sub_group_sizes}
    return next(iter(sizes)) if len(sizes) == 1 and all(len(d.sub_group_sizes) == 1 for d in ctx.devices) else None


def _group_size(launch: KernelLaunch | None) -> int | None:
    """The work-group size, when the launch fixes it."""
    local = launch.local_range if launch is not None else None
    return local.total if local is not None and local.known else None


def _same_code(facts: FileFacts, a: Branch, b: Branch) -> bool:
    """Whether two branches lie in the same function or kernel body (of the same launch)."""
    if a.function != b.function:
        return False
    first, second = facts.launch_for(a.condition), facts.launch_for(b.condition)
    return first is second or (first is not None and second is not None and first.span == second.span)


def _barrier_in(facts: FileFacts, span: Span) -> bool:
    """Whether a work-group barrier (SYCL, or OpenMP's `barrier` directive) lies in `span`."""
    return any(b.scope == "work-group" and not b.collective and span.contains(b.span) for b in facts.barriers) or any(
        c.leaves == ("barrier",) and span.contains(c.span) for c in facts.omp
    )


def _balanced(text: str) -> bool:
    """Whether the parentheses of `text` pair up (so `(a) && (b)` keeps its outer ones)."""
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return False
    return depth == 0
