"""Which arrays a C/C++ target region may map without a clause: the names it subscripts (read from its
bytes) that are declared with a size (`float a[N];`) in its function before it or at file scope. The
language-neutral rule (`openmp.mapped`: the clauses, `defaultmap`, arrays a target region declares
itself) asks this module its `referenced` question, answered cheaply: a byte search for each name, then
only the few declarators found."""

from __future__ import annotations

import re
from functools import cached_property

import tree_sitter

from kernlint.frontends.cpp.openmp.nodes import FUNCTION_TYPES

Node = tree_sitter.Node

_SUBSCRIPTED = re.compile(rb"\b([A-Za-z_]\w*)\s*\[")
_DECLARED_AFTER = re.compile(rb"\s*\[\s*[^\]\s]")  # `a[N]`: a size, not `a[]`


class ImplicitArrays:
    """The sized arrays the target regions of one file may map implicitly."""

    def __init__(self, data: bytes, root: Node) -> None:
        self.data = data
        self.root = root

    def referenced(self, region: Node) -> frozenset[str]:
        """The sized arrays `region` subscripts."""
        function: Node | None = region
        while function is not None and function.type not in FUNCTION_TYPES:
            function = function.parent
        return frozenset(
            raw.decode()
            for raw in set(_SUBSCRIPTED.findall(self.data, region.start_byte, region.end_byte))
            if self._sized_array(raw, function, region.start_byte)
        )

    def _sized_array(self, name: bytes, function: Node | None, before: int) -> bool:
        """Whether `name` is declared with a size in `function` before `before`, or at file scope."""
        data = self.data
        at = data.find(name, function.start_byte if function is not None else 0, before)
        while at >= 0:
            end = at + len(name)
            if data[at - 1 : at].isalnum() or data[at - 1 : at] == b"_" or not _DECLARED_AFTER.match(data, end):
                at = data.find(name, end, before)
                continue
            ident = self.root.descendant_for_byte_range(at, end)
            parent = ident.parent if ident is not None and ident.type == "identifier" else None
            if parent is not None and parent.type == "array_declarator" and parent.child_by_field_name("size"):
                return parent.child_by_field_name("declarator") == ident
            at = data.find(name, end, before)
        return function is not None and name in self._file_arrays

    @cached_property
    def _file_arrays(self) -> frozenset[bytes]:
        """The names the file declares at file scope as arrays with a size (`float grid[N];`)."""
        found = set()
        for declaration in self.root.named_children:
            if declaration.type != "declaration":
                continue
            for top in declaration.children_by_field_name("declarator"):
                node: Node | None = top
                while node is not None and node.type in ("init_declarator", "array_declarator"):
                    if node.type == "array_declarator" and node.child_by_field_name("size") is not None:
                        inner = node.child_by_field_name("declarator")
                        if inner is not None and inner.type == "identifier":
                            found.add(inner.text or b"")
                        break
                    node = node.child_by_field_name("declarator")
        return frozenset(found)
