"""The `cpp_openmp_uses` captures of a function, found once and read for each region inside it.

How a region uses a mapped variable needs the query's captures in the region (identifiers, includes,
calls, `asm`), and the function's identifiers outside it (pointers into a mapped array made before
the region). The function is queried once; a region's captures are those of the function that the
region holds. Each pattern captures its own root, or a node below it through a path no region can
lie on (a call's callee, a prototype's parameter type): a region that could (`_ON_PATHS`, or a
callee itself) is queried on its own.
"""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.inside import NodesByPosition
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.openmp.nodes import FUNCTION_TYPES

Captures = dict[str, list[tree_sitter.Node]]

#: The node types between a pattern's root and what it captures below it (a prototype's parameter
#: type in `T obj(a, n);`).
_ON_PATHS = frozenset({"function_declarator", "parameter_list", "parameter_declaration", "type_identifier"})


class FunctionUses:
    """The query's captures per function, and its identifiers with their text (decoded once)."""

    def __init__(self) -> None:
        self._captures: dict[int, dict[str, NodesByPosition]] = {}
        self._uses: dict[int, list[tuple[tree_sitter.Node, str]]] = {}

    def of_region(self, region: tree_sitter.Node) -> Captures:
        """The query's captures in `region`: the same as the query run on it."""
        function = function_of(region)
        parent = region.parent
        if function is None or region.type in _ON_PATHS or (parent is not None and parent.type == "call_expression"):
            return treesitter.captures("cpp", "cpp_openmp_uses", region)
        return {name: nodes.inside(region) for name, nodes in self._of_function(function).items()}

    def identifiers(self, function: tree_sitter.Node) -> list[tuple[tree_sitter.Node, str]]:
        """The function's identifiers (`@use`) with their text."""
        found = self._uses.get(function.id)
        if found is None:
            uses = self._of_function(function).get("use")
            found = self._uses[function.id] = [(ident, text_of(ident)) for ident in uses.nodes] if uses else []
        return found

    def _of_function(self, function: tree_sitter.Node) -> dict[str, NodesByPosition]:
        found = self._captures.get(function.id)
        if found is None:
            whole = treesitter.captures("cpp", "cpp_openmp_uses", function)
            found = self._captures[function.id] = {name: NodesByPosition(nodes) for name, nodes in whole.items()}
        return found


def function_of(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The function (or lambda) `node` is in, not `node` itself."""
    function = node.parent
    while function is not None and function.type not in FUNCTION_TYPES:
        function = function.parent
    return function
