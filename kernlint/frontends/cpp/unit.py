"""One parsed C/C++ file, as every C++ analysis sees it.

The front-end parses a file once and hands this object to the analyses (launches, constructions,
accessor uses, device code, OpenMP); they never see the front-end itself, so calls go one way:
front-end -> analyses -> unit.
"""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.common.preprocess import blank_disabled_blocks, conditional_arms
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.pragma_operators import rewrite_pragma_operators
from kernlint.frontends.cpp.scan import file_matches, include_paths


class CppUnit:
    """A parsed file: its bytes, tree, file-wide query matches and constant table, and the arms of its
    `#if` groups (those known not to be compiled are blanked before parsing)."""

    def __init__(
        self, path: str, data: bytes, include_dirs: tuple[str, ...] = (), defines: dict[str, str] | None = None
    ) -> None:
        self.path = path
        self.data = data
        self.arms = conditional_arms(data, defines)
        # Directives written as `_Pragma("…")` or through a macro, by the offset of the `#pragma` line
        # the parser is given in their place.
        parsed, self.pragma_texts = rewrite_pragma_operators(blank_disabled_blocks(data, self.arms), defines)
        self.tree = treesitter.parser("cpp").parse(parsed)
        self.root = self.tree.root_node
        self.file_matches = file_matches(self.root)
        self.includes = include_paths(self.file_matches)
        symbols = treesitter.as_captures(self.file_matches["cpp_symbols"])
        self.symbols = {name: symbols.get(name, []) for name in ("var.decl", "param.name")}
        self.constants = CppConstants(
            self.root, path, include_dirs, defines, includes=self.includes, symbols=symbols, arms=self.arms
        )
        self._assigned = symbols.get("assigned.name", [])

    def init_text(self, name: str, at_byte: int) -> str | None:
        """The initialiser text of the variable `name` visible at `at_byte` (ranges are often built
        in a variable first), or None when it is written after it (`lws[2] = 64`, `init(lws)`)."""
        definition = self.constants.definition(name, at_byte)
        if definition is None or definition.kind != "var" or self.constants.written(definition):
            return None
        return definition.value_text

    def declared_type(self, node: tree_sitter.Node) -> str | None:
        """The declared type of a variable named by `node`, when the file declares it."""
        if node.type != "identifier":
            return None
        definition = self.constants.definition(text_of(node), node.start_byte)
        return definition.type_text if definition is not None and definition.kind == "var" else None

    def assigned_names(self, node: tree_sitter.Node) -> set[str]:
        """Names written inside `node` by an assignment (`=`, `+=`, …) or `++`/`--`, read from the
        symbol query's captures rather than by walking `node` again."""
        return {
            text_of(n)
            for n in self._assigned
            if node.start_byte <= n.start_byte
            and n.end_byte <= node.end_byte
            and n.parent is not None
            and n.parent.type in ("assignment_expression", "update_expression")
        }
