"""An OpenMP `target` region that shares its loop with `parallel for` but creates no teams: one team, one Xe-core/SM.

What it does
    Reports a `target` construct (C, C++ or Fortran) whose region work-shares a loop among the threads
    of a `parallel` construct — `target parallel for`, `target parallel do`, a `parallel for` or
    `parallel do` inside the region, or a `for`/`do` inside a `parallel` region there — when no
    `teams` construct is written on it or anywhere inside it and no `num_teams` clause asks for teams.
    A `teams` construct nested in the region (`target` then `teams distribute parallel for`) is teams.

Why it matters
    Without `teams`, a target region runs one team, and a team runs as one work-group: on one Xe-core
    (SM) of the GPU, whatever the loop's trip count. Guide chapter 02: a work-group lives on one
    Xe-core, and keeping all the compute resources busy needs many more work-groups than Xe-cores;
    chapter 01 makes "keep all the compute resources busy" the first rule of offload. `teams
    distribute` spreads the loop's iterations over as many teams as the runtime launches, one or more
    per Xe-core/SM, and `parallel for` then shares each team's chunk among its threads.

Example
    #pragma omp target map(to: a[0:n]) map(from: b[0:n])     // KL209: no teams
    #pragma omp parallel for
    for (int i = 0; i < n; ++i) b[i] = 2.0f * a[i];

    !$omp target parallel do map(to: a) map(from: b)          ! KL209
    do i = 1, n
      b(i) = 2.0 * a(i)
    end do

Fix
    `#pragma omp target teams distribute parallel for` (Fortran `!$omp target teams distribute
    parallel do`) on the loop, or a `teams distribute` construct around the worksharing loop inside
    the region. Check what the loop's body assumes first: a `critical` section or an atomic on a
    shared counter synchronises one team only, and `omp_get_thread_num()` numbers threads within a
    team.

Severity
    Warning: the region computes the right results on one Xe-core/SM of the GPU; the message names
    the construct to write (`teams distribute`) and the share of the Xe-cores/SMs left idle. Never
    an error (nothing fails) and not an info: a team per region is a choice the code can change,
    and its cost is most of the GPU whatever the loop does.

Occupancy basis
    A team is one work-group, resident on one Xe-core (SM): the region keeps 1 of the device's
    `unit_count` Xe-cores (SMs) busy, from the device profile (`kernlint devices`).

Cost
    100 % × (1 − 1 ÷ Xe-cores) of the GPU's Xe-cores (SMs) idle while the region runs: 99.2 % on
    xe-hpc (1 of 128), 99.2 % on h100 (1 of 132). The loop's own work per iteration does not change it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct
from kernlint.occupancy import DeviceProfile
from kernlint.rule import Rule, RuleContext
from kernlint_rules.launch.model import unit_word

_WORKSHARING = frozenset({"for", "do"})


class TargetWithoutTeams(Rule):
    code = "KL209"
    name = "target-without-teams"
    severity = Severity.WARNING
    languages = frozenset({"openmp-c", "openmp-fortran"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        device = ctx.target_device
        # by where each directive starts: a target's own are those from its line to its region's end
        ordered = sorted(facts.omp, key=lambda c: c.span.start_byte)
        starts = [c.span.start_byte for c in ordered]
        for target in facts.omp:
            directive = target.directive
            if directive is None or directive.is_end or "target" not in directive.leaves or target.region is None:
                continue
            first = bisect_left(starts, target.span.start_byte)
            last = bisect_right(starts, target.region.end_byte)
            inside = [target] + [c for c in ordered[first:last] if c is not target and _inside(c, target)]
            if any(c.directive is None or "teams" in c.leaves or c.directive.has("num_teams") for c in inside):
                continue  # teams (or a directive that does not parse and might be one)
            loop = _workshared(inside)
            if loop is None:
                continue
            yield self._finding(target, loop, device, ctx)

    def _finding(self, target: OmpConstruct, loop: OmpConstruct, device: DeviceProfile, ctx: RuleContext) -> Diagnostic:
        fortran = target.directive is not None and target.directive.language == "fortran"
        sentinel = "!$omp" if fortran else "#pragma omp"
        word = "do" if fortran else "for"
        units = float(device.unit_count)
        unit = unit_word(device.unit, plural=True)
        shown = f"{units:g}"
        where = "its own" if loop is target else f"the `{loop.kind}` construct's"
        return ctx.diagnostic(
            target.span,
            f"`{sentinel} {target.kind}` shares {where} loop among the threads of one team: with no `teams` "
            f"construct the region runs as one work-group, on 1 of {device.id}'s {shown} {unit}; use "
            f"`{sentinel} target teams distribute parallel {word}` to spread the loop over teams",
            evidence={
                "construct": target.kind,
                "worksharing": loop.kind,
                "worksharing_line": loop.span.line,
                "units": units,
            },
            related=[] if loop is target else [(loop.span, "the loop is shared among one team's threads here")],
            cost=one_team_cost(device),
        )


def _inside(construct: OmpConstruct, target: OmpConstruct) -> bool:
    """Whether a directive belongs to the target's region: written inside it, or stacked on the same
    statement after it (C `#pragma omp target` then `#pragma omp parallel for` on one loop)."""
    assert target.region is not None
    if target.region.contains(construct.span):
        return True
    return (
        construct.region is not None
        and construct.region == target.region
        and construct.span.start_byte > target.span.start_byte
    )


def _workshared(inside: list[OmpConstruct]) -> OmpConstruct | None:
    """The first construct that shares a loop among a parallel region's threads: a combined
    `parallel for`/`parallel do`, or a `for`/`do` inside a `parallel` construct of the region."""
    parallels = [c for c in inside if "parallel" in c.leaves]
    for construct in inside:
        if not _WORKSHARING & set(construct.leaves):
            continue
        if "parallel" in construct.leaves or any(
            p is not construct
            and p.region is not None
            and (p.region.contains(construct.span) or p.region == construct.region)
            for p in parallels
        ):
            return construct
    return None


def _within(construct: OmpConstruct, parallel: OmpConstruct) -> bool:
    """Whether a construct is inside a parallel construct's region (or stacked on its statement)."""
    region = parallel.region
    return region is not None and (region.contains(construct.span) or region == construct.region)


def one_team_cost(device: DeviceProfile) -> Cost:
    """KL209: one team keeps one Xe-core/SM busy; the rest of the GPU idles while the region runs."""
    units = float(device.unit_count)
    idle = 100.0 * (1 - 1 / units) if units > 0 else 0.0
    unit = unit_word(device.unit, plural=True)
    return Cost(
        idle,
        "%",
        f"of {device.id}'s {units:g} {unit} idle (1 of {units:g} busy)",
        "100% × (1 − 1 ÷ Xe-cores (SMs))",
        f"one team = one work-group on 1 {unit_word(device.unit)}: 100% × (1 − 1/{units:g}) = {idle:.4g}%",
        ("a team runs as one work-group, resident on one Xe-core/SM", "the loop has work for more than one team"),
        (),
        idle / 100,
        None,
        device.id,
        {"units": units, "busy_units": 1},
    )
