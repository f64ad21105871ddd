"""Barriers and group collectives in device code, each scoped by the group it is given (the handle
the dependence analysis resolved, else the spelling): what KL502 checks every member reaches."""

from __future__ import annotations

import re
from collections.abc import Iterable

import tree_sitter

from kernlint.facts import Barrier
from kernlint.facts.kinds import BarrierScope
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.dependence.program import CppDependence

Node = tree_sitter.Node

# Group algorithms: every member of the group passed first must reach them, as a barrier.
_COLLECTIVES = frozenset(
    {
        "reduce_over_group",
        "group_broadcast",
        "any_of_group",
        "all_of_group",
        "none_of_group",
        "exclusive_scan_over_group",
        "inclusive_scan_over_group",
        "joint_reduce",
        "joint_any_of",
        "joint_all_of",
        "joint_none_of",
        "joint_exclusive_scan",
        "joint_inclusive_scan",
    }
)
_SUB_GROUP_WORDS = re.compile(r"sub_?group|\bsg\b|\bwarp\b")


def find_barriers(scans: Iterable[dict[str, list[Node]]], dependence: CppDependence) -> Iterable[Barrier]:
    """Barriers (`it.barrier()`, `group_barrier(g)`, `sg.barrier()`) and group collectives
    (`reduce_over_group(g, …)`) in device code, scoped by the handle they are given: a sub-group
    however it is named (`auto warp = it.get_sub_group(); group_barrier(warp)`), else by its spelling."""
    seen: set[tuple[int, int]] = set()
    for captures in scans:
        for call in captures.get("call", []):
            if (call.start_byte, call.end_byte) in seen or call.type != "call_expression":
                continue
            receiver, name, args = dependence.scopes.parts(call)
            if receiver is not None and name == "barrier":
                scope = _scope(dependence.handle_kind(receiver), text_of(receiver))
                form = f"{text_of(receiver).rsplit('.', 1)[-1] or 'item'}.barrier"
                found = Barrier(span_of(call), form, scope)
            elif receiver is None and name in ("group_barrier", *_COLLECTIVES):
                group = args[0] if args else None
                kind = dependence.handle_kind(group) if group is not None else None
                if name != "group_barrier" and kind is None:
                    continue  # not given a group this file shows: another library's function of that name
                scope = _scope(kind, text_of(group) if group is not None else "")
                found = Barrier(span_of(call), name, scope, collective=name != "group_barrier")
            else:
                continue
            seen.add((call.start_byte, call.end_byte))
            yield found


def _scope(kind: str | None, written: str) -> BarrierScope:
    """The group a barrier waits for: the handle's kind when known, else the spelling (`sg`, `sub_group`)."""
    if kind is not None:
        return "sub-group" if kind == "sub-group" else "work-group"
    return "sub-group" if _SUB_GROUP_WORDS.search(written) else "work-group"
