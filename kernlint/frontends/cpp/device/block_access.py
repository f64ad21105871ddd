"""Sub-group block loads and stores in device code (`SubGroupBlockAccess` facts): the builtins
(`intel_sub_group_block_read4`, …), `sg.load<4>(…)` / `sg.store(…)` on a sub-group and the free
`group_load` / `sub_group_store` functions given one. Split from `device.code` to keep it one job."""

from __future__ import annotations

import re

from tree_sitter import Node

from kernlint.facts import SubGroupBlockAccess
from kernlint.facts.kinds import BlockDirection
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.dependence.program import CppDependence

_BLOCK_BUILTIN = re.compile(
    r"^(?:intel_sub_group_block_(?P<a>read|write)\w*|__spirv_SubgroupBlock(?P<b>Read|Write)INTEL)$"
)
_BLOCK_FREE = frozenset({"group_load", "group_store", "load", "store", "sub_group_load", "sub_group_store"})


def block_access(call: Node, dependence: CppDependence) -> SubGroupBlockAccess | None:
    """The block load or store `call` makes (a call, or `sg.load<4>(…)` parsed as comparisons), if any."""
    if call.type == "binary_expression":
        left = call.child_by_field_name("left")
        if left is None or left.type != "binary_expression":
            return None
    receiver, name, args = dependence.scopes.parts(call)
    builtin = _BLOCK_BUILTIN.match(name)
    if builtin:
        direction: BlockDirection = (
            "store" if (builtin.group("a") or builtin.group("b") or "").lower() == "write" else "load"
        )
        return SubGroupBlockAccess(span_of(call), name, direction)
    if receiver is not None:
        if name not in ("load", "store") or dependence.handle_kind(receiver) != "sub-group":
            return None
        return SubGroupBlockAccess(span_of(call), _callee_text(call), "load" if name == "load" else "store")
    if name in _BLOCK_FREE and args and dependence.handle_kind(args[0]) == "sub-group":
        return SubGroupBlockAccess(span_of(call), name, "store" if "store" in name else "load")
    return None


def _callee_text(call: Node) -> str:
    """`sg.load<4>` as written (spacing removed), for messages."""
    if call.type == "binary_expression":
        callee = call.child_by_field_name("left")
        return re.sub(r"\s+", "", text_of(callee)) + ">" if callee is not None else ""
    function = call.child_by_field_name("function")
    return re.sub(r"\s+", "", text_of(function)).replace(".template", ".")
