"""An array of structs in global memory read one member at a time by neighbouring lanes.

What it does
    Flags `p[i].x` in device code where `p` is an array of structs in global memory and `i` the lane's
    index (unit stride in elements): neighbouring lanes read members a whole struct apart, so the lanes
    of a sub-group touch `sizeof(struct)`-spaced bytes and fetch the other members with them. The
    struct's layout comes from its definition in the file or a quoted header (C's rules: each member
    at a multiple of its alignment); the members the kernel uses through the same array are counted,
    so the message can say how much of each fetched struct is wanted; an element whose members we
    cannot follow (its address handed on, `&p[i]`, or a method called on it, `p[i].set(…)`) counts as
    used whole. Not reported: a whole-struct copy (`Particle q = p[i]` moves every byte), a struct of
    16 bytes or less that the kernel uses whole through the array (compilers merge the member reads
    into one vector load per lane, and a struct of arrays would fetch no fewer lines), a uniform
    index (every lane reads the same struct), a struct whose layout is not known (templates, base
    classes, bit-fields, a type from a system header).

Why it matters
    The memory system moves whole sectors, and a sub-group reading one float member of a 20-byte
    struct spreads over five times the sectors the floats would fill side by side. The guide's advice
    to access contiguous blocks so that fetched data is used in full applies member by member: a
    struct of arrays (`x[i]`, `y[i]`, …) makes every member access unit stride.

Example
    struct Body { float x, y, z, mass; };
    …
    acc += bodies[i].mass;     // KL603: lanes 16 bytes apart for 4 they read

Fix
    Store the members in separate arrays (a struct of arrays: `float *x, *y, *z, *mass;`, indexed
    `mass[i]`), or keep the members that are read together in a struct of their own.

Severity
    Warning when the access is on the kernel's hot path (inside a loop, or one of the accesses of a
    kernel without a loop) and touches at least twice the sectors its bytes need: every such access
    costs that many sector lookups, and where the kernel leaves members unread through the array (the
    message says how many bytes of the struct it uses) their bytes are fetched from memory for nothing.
    Info when it runs once per work-item next to a loop that does the work, only in lanes past a bound, or
    when the kernel uses every member of the struct through the array: each sector is then used, the
    cache serves the other members' accesses, and only sector lookups are saved (measured for the same
    shape on an H100: loads covering their run, benchmarks/gpu KL601 stride 2, 0.97x).
    Never an error: the layout is correct, only slower to read.

Occupancy basis
    None: occupancy counts resident threads, this counts the memory traffic each of their accesses
    makes. The device profile's memory model gives the sector (`sector_bytes`) and the sub-group sizes;
    the struct's layout comes from its definition.

Cost
    Sectors (lines) per sub-group access for the sectors the member's bytes need, on the target
    device: Nsight Compute's sectors per request on an NVIDIA GPU.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, MemoryAccess
from kernlint.rule import Rule, RuleContext
from kernlint_rules.memory.accesses import (
    Finding,
    lane_words,
    once_each,
    reported,
    severity,
    sub_group_size,
    where,
    written,
)
from kernlint_rules.memory.costs import access_cost, footprint


class ArrayOfStructs(Rule):
    code = "KL603"
    name = "array-of-structs"
    severity = Severity.WARNING
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})
    needs_device = True

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        yield from reported(ctx, facts, self._findings(facts, ctx))

    def _findings(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Finding]:
        device = ctx.target_device
        unit = "sectors" if device.sector_bytes < device.cache_line_bytes else "lines"
        for access in once_each(facts.memory_accesses):
            if not _candidate(access):
                continue
            lanes, assumed = sub_group_size(facts, access, device)
            found = footprint(access.stride, access.element_bytes, access.pitch_bytes, lanes, device.sector_bytes)  # type: ignore[arg-type]
            if found is None or found.touched is None or found.touched <= found.needed:
                continue
            partial = access.used_bytes is not None and access.used_bytes < (access.pitch_bytes or 0)
            whole = _used_whole(access)
            material = found.touched >= 2 * found.needed and not whole
            launch = facts.launch_for(access.span)
            yield Finding(
                access,
                _message(access, lanes, assumed, partial, whole),
                {
                    "struct": access.struct,
                    "member": access.member,
                    "struct_bytes": access.pitch_bytes,
                    "member_bytes": access.element_bytes,
                    "members_used": list(access.members_used),
                    "used_bytes": access.used_bytes,
                    "sub_group_size": lanes,
                    "sub_group_size_assumed": assumed,
                    "sectors_touched": found.touched,
                    "sectors_needed": found.needed,
                    "function": access.function,
                },
                severity(access, material),
                access_cost(found, unit, device.id, None),
                launch.name if launch is not None else None,
            )


_VECTOR_BYTES = 16  # the widest load one lane issues: a struct this small, read whole, is one vector load


def _used_whole(access: MemoryAccess) -> bool:
    """Every member of the struct is used through the array by the kernel."""
    return access.used_bytes == access.pitch_bytes or "*" in access.members_used


def _candidate(access: MemoryAccess) -> bool:
    whole = _used_whole(access)
    if whole and access.pitch_bytes is not None and access.pitch_bytes <= _VECTOR_BYTES:
        return False  # every member of a small struct read: compilers merge them into one load per lane
    return (
        access.space == "global"
        and access.member is not None
        and access.stride.form == "unit"
        and access.stride.elements == 1
        and access.lanes != "single"
        and access.element_bytes is not None
        and access.pitch_bytes is not None
        and access.pitch_bytes > access.element_bytes
    )


def _message(access: MemoryAccess, lanes: int, assumed: bool, partial: bool, whole: bool = False) -> str:
    verb = {"load": "reads", "store": "writes", "update": "updates"}[access.kind]
    used = ""
    if partial and access.used_bytes is not None:
        members = ", ".join(f"`{m}`" for m in access.members_used)
        used = (
            f"; the kernel uses {access.used_bytes} of its {access.pitch_bytes} bytes through `{access.array}` "
            f"({members})"
        )
    if whole:
        return (
            f"array of structs: `{written(access)}` {verb} {access.element_bytes} bytes of each "
            f"{access.pitch_bytes}-byte `{access.struct}` ({where(access)}), so the lanes of "
            f"{lane_words(lanes, assumed)} are {access.pitch_bytes} bytes apart; the kernel uses the whole element "
            "(every member, or its address handed on), so each sector fetched is used and the cache serves the "
            "other members' accesses: a struct of "
            "arrays would save sector lookups, not traffic"
        )
    return (
        f"array of structs: `{written(access)}` {verb} {access.element_bytes} bytes of each {access.pitch_bytes}-byte "
        f"`{access.struct}` ({where(access)}), so the lanes of {lane_words(lanes, assumed)} are "
        f"{access.pitch_bytes} bytes apart{used}; store the members in separate arrays (a struct of arrays)"
    )
