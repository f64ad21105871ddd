"""Barriers and group collectives in device code, each scoped by the group it is given (the handle
the dependence analysis resolved, else the spelling): what KL502 checks every member reaches."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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
# The body of a function-like macro that is a barrier: `item.barrier(…)`, `sycl::group_barrier(g)` (a `;` after)
_BARRIER_BODY = re.compile(
    r"\s*(?:(?P<receiver>[A-Za-z_][\w.()\s]*?)\s*\.\s*barrier\s*\([^;]*\)"
    r"|(?:sycl\s*::\s*)?group_barrier\s*\((?P<group>[^;]*)\))\s*;?\s*"
)
Macro = Callable[[str], "tuple[tuple[str, ...], str] | None"]


def find_barriers(
    scans: Iterable[dict[str, list[Node]]], dependence: CppDependence, macro: Macro | None = None
) -> Iterable[Barrier]:
    """Barriers (`it.barrier()`, `group_barrier(g)`, `sg.barrier()`) and group collectives
    (`reduce_over_group(g, …)`) in device code, scoped by the handle they are given: a sub-group
    however it is named (`auto warp = it.get_sub_group(); group_barrier(warp)`), else by its spelling.
    A call of a parameterless function-like macro (`macro`: the file's and its quoted headers') whose
    body is one work-group barrier (`#define syncthreads() item.barrier(…)`) is that barrier. (Not one of
    a sub-group barrier: the sub-group a macro's `sg` names is not resolved, and in a 2-D kernel whose launch
    is not in view kernlint cannot tell which ids a sub-group's lanes share.)"""
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
            elif receiver is None and not args and macro is not None and barrier_macro(name, macro) == "work-group":
                found = Barrier(span_of(call), f"{name}()", "work-group")
            else:
                continue
            seen.add((call.start_byte, call.end_byte))
            yield found


def _scope(kind: str | None, written: str) -> BarrierScope:
    """The group a barrier waits for: the handle's kind when known, else the spelling (`sg`, `sub_group`)."""
    if kind is not None:
        return "sub-group" if kind == "sub-group" else "work-group"
    return "sub-group" if _SUB_GROUP_WORDS.search(written) else "work-group"


def barrier_macro(name: str | None, macro: Macro) -> BarrierScope | None:
    """The scope of the barrier a parameterless macro `name()` expands to, or None when it is not one."""
    definition = macro(name) if name else None
    if definition is None or definition[0]:
        return None
    match = _BARRIER_BODY.fullmatch(definition[1])
    if match is None:
        return None
    return _scope(None, match.group("receiver") or match.group("group") or "")
