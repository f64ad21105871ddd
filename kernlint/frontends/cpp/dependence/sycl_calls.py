"""What SYCL calls mean to the work-item dependence analysis: id sources, handles, group and sub-group
collectives, atomics, casts. `lower_call` lowers one call; the rest of device code is lowered
structurally by `kernlint.frontends.cpp.dependence.lowering`."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence

from kernlint.analysis.dependence import Broadcast, Call, Const, Expr, Seed, SubGroupUniform, Uniform, Varying
from kernlint.frontends.cpp.dependence.nodes import Node, text_of
from kernlint.frontends.cpp.sycl.api import ATOMIC_RMW_METHODS

HANDLE_TYPES = (
    (re.compile(r"\bsub_group\b"), "sub-group"),
    (re.compile(r"\b(?:nd_item|h_item|item)\b"), "item"),
    (re.compile(r"\bgroup\b"), "group"),
)
ID_TYPES = re.compile(r"\b(?:id|range)\s*<")
ARRAY_TYPES = re.compile(r"\b(?:array|vec|marray)\s*<")
# Methods that return the calling work-item's id, whatever they are called on.
_SEED_METHODS = {
    "get_global_id": "global",
    "get_global_linear_id": "global",
    "get_id": "global",
    "get_linear_id": "global",
    "get_local_id": "local",
    "get_local_linear_id": "local",
    "get_logical_local_id": "local",
    "get_physical_local_id": "local",
    "get_logical_local_linear_id": "local",
    "get_physical_local_linear_id": "local",
}
_UNIVERSAL_SEEDS = frozenset({"get_global_id", "get_local_id", "get_global_linear_id", "get_local_linear_id"})
HANDLE_FREE_CALLS = {
    "this_sub_group": "sub-group",
    "get_sub_group": "sub-group",
    "this_group": "group",
    "get_work_group": "group",
    "this_work_group": "group",
    "this_nd_item": "item",
    "get_nd_item": "item",
    "this_item": "item",
    "get_item": "item",
}
_UNIFORM_COLLECTIVES = frozenset(
    {
        "reduce_over_group",
        "group_broadcast",
        "any_of_group",
        "all_of_group",
        "none_of_group",
        "joint_reduce",
        "joint_any_of",
        "joint_all_of",
        "joint_none_of",
        "reduce",
        "broadcast",
        "any_of",
        "all_of",
        "none_of",
    }
)
_SCANS = frozenset(
    {
        "exclusive_scan_over_group",
        "inclusive_scan_over_group",
        "joint_exclusive_scan",
        "joint_inclusive_scan",
        "exclusive_scan",
        "inclusive_scan",
    }
)
_SUB_GROUP_SHUFFLES = frozenset({"shuffle", "shuffle_down", "shuffle_up", "shuffle_xor", "select"})
_ATOMIC_FREE = re.compile(
    r"^(?:atomic_?(?:fetch|exchange|compare|inc|dec|add|sub|min|max|and|or|xor)\w*"
    r"|atomicAdd|atomicSub|atomicInc)$",
    re.I,
)
BARRIERS = frozenset({"barrier", "group_barrier", "work_group_barrier"})
_MONOTONE = frozenset(
    {"min", "max", "MIN", "MAX", "fmin", "fmax", "clamp", "floor", "ceil", "trunc", "round", "mad24", "mul24"}
)
_CASTS = frozenset({"static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"})
_TYPE_NAMES = re.compile(
    r"^(?:std::)?(?:u?int(?:8|16|32|64)?_t|size_t|ssize_t|ptrdiff_t|u?intptr_t"
    r"|uint|ulong|ushort|uchar)$"
)
BINARY_OPS = {"and": "&&", "or": "||", "bitand": "&", "bitor": "|", "xor": "^", "not_eq": "!="}
UNARY_OPS = {"not": "!", "compl": "~"}


def lower_call(
    node: Node,
    parts: tuple[Node | None, str, list[Node]],
    handle: Callable[[Node], str | None],
    lower: Callable[[Node], Expr],
    units: Sequence[Hashable],
) -> Expr:
    """A call in device code: an id source, a uniform or sub-group-uniform value, a per-lane value, or
    a call into `units` of the program (or an unknown call, as dependent as its arguments)."""
    receiver, name, args = parts
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    text = text_of(node)
    if receiver is not None:
        kind = handle(receiver)
        if kind is not None:
            if name in _SEED_METHODS and (kind != "group" or name.startswith("get_local")):
                return Seed(
                    "lane" if kind == "sub-group" and name.startswith("get_local") else _SEED_METHODS[name], text
                )
            if kind == "item" and name in ("get", "operator[]"):
                return Seed("global", text)
            if kind == "sub-group" and name == "load":
                return Varying(text)
            if kind == "sub-group" and name in ("shuffle", "select") and len(args) == 2:
                return Broadcast(lower(args[0]), lower(args[1]), "sub-group")
            if kind == "sub-group" and name in _SUB_GROUP_SHUFFLES:
                return Call(name, tuple(lower(a) for a in args))
            if kind == "sub-group" and name in ("get_group_id", "get_group_linear_id"):
                return SubGroupUniform(text)
            if kind == "sub-group" and name in ("get_max_local_range", "get_local_range"):
                return Uniform(text, sub_group_size=True)
            return Uniform(text)
        if name in _UNIVERSAL_SEEDS:
            return Seed(_SEED_METHODS[name], text)
        if name in ATOMIC_RMW_METHODS:
            return Varying(text)
    else:
        if function is not None and (
            function.type == "primitive_type" or name in _CASTS or _TYPE_NAMES.match(text_of(function))
        ):
            return lower(args[0]) if args else Const(None)
        if name in HANDLE_FREE_CALLS:
            return Uniform(text)
        group = handle(args[0]) if args else None
        scope = "sub-group" if group == "sub-group" else "work-group"
        if group is not None and name in ("select_from_group", "group_broadcast") and len(args) >= 2:
            return Broadcast(lower(args[1]), lower(args[2]) if len(args) >= 3 else None, scope)
        if group is not None and name in _UNIFORM_COLLECTIVES:
            return SubGroupUniform(text) if scope == "sub-group" else Uniform(text)
        if name in _SCANS or _ATOMIC_FREE.match(name):
            return Varying(text)
    if receiver is None and not units and args and handle(args[0]) is not None:
        args = args[1:]
    lowered = tuple(lower(a) for a in args)
    if units:
        return Call(name, lowered, unit=units[0])
    if receiver is not None:
        lowered = (lower(receiver),) + lowered
    return Call(name, lowered, monotone=name in _MONOTONE)
