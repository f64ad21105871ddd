"""The array elements a C/C++ OpenMP device region uses, as the OpenMP memory pass reads them
(`kernlint.frontends.openmp.memory`): each subscript chain of an array or pointer declared outside
the region (what the region declares is its threads' own), with the element type, the declared
extents and, for `p[i].x`, the struct member, from `kernlint.frontends.cpp.types`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.dependence.nodes import Parents, same_node
from kernlint.frontends.cpp.device.memory import access_kind, address_taken, chain, member_of
from kernlint.frontends.cpp.types import CppTypes, Declared
from kernlint.frontends.openmp.memory import RawArrayAccess

if TYPE_CHECKING:
    from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node


class RegionArrays:
    """The array elements of a C/C++ file's OpenMP regions, with the file's declared types read once."""

    def __init__(self, unit: CppUnit) -> None:
        self._unit = unit
        self._types: CppTypes | None = None
        self._parents = Parents()

    def accesses(self, region: Node) -> list[RawArrayAccess]:
        if self._types is None:
            self._types = CppTypes(self._unit.root, self._unit.constants, self._parents, file=self._unit.file_types)
        return region_array_accesses(region, self._types, self._parents)


def region_array_accesses(region: Node, types: CppTypes, parent_of: Parents) -> list[RawArrayAccess]:
    found = []
    declared: dict[str, Declared | None] = {}  # a name the region does not declare means one array in it
    for node in treesitter.captures("cpp", "cpp_openmp_subscripts", region).get("subscript", []):
        parent = parent_of(node)
        if (
            parent is not None
            and parent.type == "subscript_expression"
            and same_node(parent.child_by_field_name("argument"), node)
        ):
            continue  # the inner part of `a[i][k]`
        indices, base = chain(node)
        if base is None or base.type != "identifier" or any(i is None for i in indices):
            continue
        name = text_of(base)
        if name not in declared:
            declared[name] = types.declared(name, node)
        access = _access(node, base, [i for i in indices if i is not None], region, types, parent_of, declared[name])
        if access is not None:
            found.append(access)
    return found


def _access(
    node: Node,
    base: Node,
    indices: list[Node],
    region: Node,
    types: CppTypes,
    parent_of: Parents,
    declared: Declared | None,
) -> RawArrayAccess | None:
    if declared is None or region.start_byte <= declared.start_byte < region.end_byte:
        return None
    extents = declared.shape
    if extents is None or len(extents) != len(indices):
        return None
    outer, member = member_of(node, parent_of)
    if address_taken(outer, parent_of):
        return None
    element = types.size(declared.type_text)
    pitch, struct = element, None
    sizes: tuple[tuple[str, int], ...] = ()
    if member is not None:
        layout = types.layout(declared.type_text)
        field = layout.member(member) if layout is not None else None
        if layout is None or field is None:
            return None
        struct, element = layout.name, types.size(field.type_text)
        sizes = tuple((m.name, m.size) for m in layout.members)
    return RawArrayAccess(
        span_of(outer),
        text_of(base),
        tuple(text_of(i) for i in indices),
        access_kind(outer, parent_of),
        element,
        tuple(str(e) if e is not None else None for e in extents),
        pitch,
        declared.type_text,
        struct,
        member,
        declared.start_byte,
        sizes,
    )
