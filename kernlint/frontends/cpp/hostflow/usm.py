"""SYCL USM allocations: `sycl::malloc_shared<float>(n, q)`, `(float *) malloc_device(bytes, q)`,
`aligned_alloc_host<T>(align, n, q)`, with the variable each is stored in and its size when constant.
The host flows use them to tell device memory from host memory; KL704 reads the shared ones."""

from __future__ import annotations

import re

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.facts.host import UsmAllocation, UsmKind
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.host import defining_function
from kernlint.frontends.cpp.hostflow.declarations import Declarations
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

_ALLOCATOR = re.compile(r"(?:^|:)(aligned_alloc|malloc)_(shared|device|host)\s*(?:<(.*)>)?\s*$", re.DOTALL)


def usm_allocation(unit: CppUnit, declarations: Declarations, call: Node, callee: Node) -> UsmAllocation | None:
    """The allocation `call` makes, None when `callee` is no USM allocator."""
    match = _ALLOCATOR.search(text_of(callee))
    if match is None or call.type != "call_expression":
        return None
    kind: UsmKind = match.group(2)  # type: ignore[assignment]
    args = arguments_of(call.child_by_field_name("arguments"))
    if match.group(1) == "aligned_alloc":
        args = args[1:]  # the alignment comes first
    name = _stored_in(call)
    # Only a shared allocation's size is priced (KL704); evaluating a size can cost a constant search.
    size = unit.constants.node_value(args[0]) if args and kind == "shared" else None
    if match.group(3) is not None:  # the typed form counts elements
        element = type_size(match.group(3).strip())
        count = size
    else:  # the untyped form counts bytes
        declared = declarations.declared(name, call.start_byte) if name else None
        element = declared.element_bytes if declared is not None and declared.is_array else None
        count = size // element if size is not None and element else None
    nbytes = count * element if count is not None and element is not None else None
    if match.group(3) is None and size is not None:
        nbytes = size
    return UsmAllocation(span_of(call), name, kind, element, count, nbytes, defining_function(call))


def _stored_in(call: Node) -> str | None:
    """The variable `T *p = malloc_…(…)` or `p = (T *) malloc_…(…)` stores the allocation in."""
    node = call
    while node.parent is not None and node.parent.type in ("cast_expression", "parenthesized_expression"):
        node = node.parent
    parent = node.parent
    target = None
    if parent is not None and parent.type == "init_declarator":
        target = parent.child_by_field_name("declarator")
    elif parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        target = parent.child_by_field_name("left")
    while target is not None and target.type in ("pointer_declarator", "reference_declarator"):
        target = target.child_by_field_name("declarator")
    return text_of(target) if target is not None and target.type == "identifier" else None
