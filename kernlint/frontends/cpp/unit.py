"""One parsed C/C++ file, as every C++ analysis sees it.

The front-end parses a file once and hands this object to the analyses (launches, constructions,
accessor uses, device code, OpenMP); they never see the front-end itself, so calls go one way:
front-end -> analyses -> unit.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.inside import NodesByPosition
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.common.preprocess import (
    ConditionalArm,
    blank_directive_comments,
    blank_disabled_blocks,
    chosen_arm,
    conditional_arms,
    one_arm,
    split_groups,
)
from kernlint.frontends.cpp import callees, scan
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.dialect import file_macros
from kernlint.frontends.cpp.pragma_operators import rewrite_pragma_operators
from kernlint.frontends.cpp.scan import file_matches, include_paths

if TYPE_CHECKING:
    from kernlint.frontends.cpp.types import FileTypes


class CppUnit:
    """A parsed file: its bytes, tree, file-wide query matches and constant table, and the arms of its
    `#if` groups (those known not to be compiled are blanked before parsing)."""

    def __init__(
        self,
        path: str,
        data: bytes,
        include_dirs: tuple[str, ...] = (),
        defines: dict[str, str] | None = None,
        macros: Mapping[str, str] | None = None,
        arm_choice: tuple[frozenset[int], int] | None = None,
        prepared: _Prepared | None = None,
    ) -> None:
        self.path = path
        self.data = data
        self._settings = (include_dirs, defines, macros)
        # `#if` groups whose arms cannot be read together (`split_groups`), read one arm at a time:
        # this parse keeps the `split_choice`-th arm of each.
        self.split: frozenset[int] = frozenset()
        self.split_choice = 0
        if prepared is None:
            # Attribute macros rewritten as the compiler expands them (`dialect`); directives written as
            # `_Pragma("…")` or through a macro, by the offset of the `#pragma` line given in their place.
            arms = conditional_arms(data, defines)
            live = blank_directive_comments(blank_disabled_blocks(data, arms))
            live = file_macros(path, data, include_dirs, defines, macros).apply(live)
            prepared = _Prepared(arms, *rewrite_pragma_operators(live, defines))
        self._prepared = prepared
        self.arms, parsed, self.pragma_texts = prepared
        if arm_choice is not None:
            self.split, self.split_choice = arm_choice
            parsed = one_arm(parsed, self.arms, set(self.split), self.split_choice)
        # (the language server's worker parses an edited document again from its last tree: `reparse`)
        self.tree, self.file_matches = scan.parsed(parsed, path if arm_choice is None else None)
        self.root = self.tree.root_node
        if self.root.has_error and arm_choice is None:
            self._parse_split_groups(parsed)
        self.includes = include_paths(self.file_matches)
        symbols = treesitter.as_captures(self.file_matches["cpp_symbols"])
        self.symbols = {name: symbols.get(name, []) for name in ("var.decl", "param.name")}
        self.constants = CppConstants(
            self.root, path, include_dirs, defines, includes=self.includes, symbols=symbols, arms=self.arms
        )
        self._assigned = sorted(symbols.get("assigned.name", []), key=lambda n: n.start_byte)
        self._assigned_starts = [n.start_byte for n in self._assigned]
        self._functions: dict[tuple[bool, bool], dict[str, list[tree_sitter.Node]]] = {}

    def _parse_split_groups(self, parsed: bytes) -> None:
        """Parse again with the first arm only of each `#if` group whose arms cannot be read together
        (braces opened in both arms, a directive inside an argument list), and keep that parse when it
        loses fewer lines; the front-end then reads the other arms in parses of their own
        (`other_arms`)."""
        errors = [match["error"][0] for _i, match in self.file_matches["cpp"] if "error" in match]
        near = [(max(0, at - _NEAR), at + _NEAR) for e in errors for at in (e.start_byte, e.end_byte)]
        groups = split_groups(parsed, self.arms, near)
        if not groups:
            return
        tree = treesitter.parser("cpp").parse(one_arm(parsed, self.arms, groups))
        matches = file_matches(tree.root_node)
        if _lost(matches) < _lost(self.file_matches):
            self.tree, self.root, self.file_matches = tree, tree.root_node, matches
            self.split = frozenset(groups)

    def with_arm(self, choice: int) -> CppUnit:
        """The file parsed again with the `choice`-th arm of each split group (`other_arms`); what its
        bytes give before an arm is chosen (arms, rewritten macros, directives) is this parse's."""
        return CppUnit(self.path, self.data, *self._settings, arm_choice=(self.split, choice), prepared=self._prepared)

    def other_arms(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """For each other choice of arm in the split groups, the (start, end) bytes of the arms that
        choice reads and this parse did not: where the facts of that choice's parse belong."""
        found = []
        widest = max((arm.index for arm in self.arms if arm.group in self.split), default=0)
        for choice in range(1, widest + 1):
            bodies = []
            for group in sorted(self.split):
                arm = chosen_arm(self.arms, group, choice)
                if arm != chosen_arm(self.arms, group, 0):
                    bodies.append((arm.start, arm.end))
            if bodies:
                found.append((choice, bodies))
        return found

    @property
    def configured_macros(self) -> tuple[tuple[str, str], ...]:
        """(name, body) of the -D macros and the configuration's macros the file is read with."""
        _include_dirs, defines, macros = self._settings
        return (*(defines or {}).items(), *(macros or {}).items())

    @cached_property
    def text(self) -> str:
        """The file's text, decoded once for the few readers that search it (type aliases)."""
        return self.data.decode("utf-8", errors="replace")

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

    def functions(self, *, prototypes: bool = False, members: bool = False) -> dict[str, list[tree_sitter.Node]]:
        """The file's function definitions by name (`callees.file_functions`), read once per kind:
        the accessor, OpenMP and host-flow readers all ask."""
        key = (prototypes, members)
        if key not in self._functions:
            self._functions[key] = callees.file_functions(self.root, prototypes=prototypes, members=members)
        return self._functions[key]

    @cached_property
    def file_types(self) -> FileTypes:
        """What reading declared types needs of the whole file (its structs, aliases and macros, its
        declarations by name), found once for the types of every kernel and OpenMP region (`CppTypes`)."""
        from kernlint.frontends.cpp.types import FileTypes  # (imported by the readers of types alone)

        return FileTypes(self.root, self.constants, self.symbols)

    @cached_property
    def macros(self) -> dict[str, callees.Macro]:
        """The macros the file `#define`s (`callees.file_macros`)."""
        return callees.file_macros(self.data)

    @cached_property
    def assignments(self) -> NodesByPosition:
        """The identifiers written by an assignment (`=`, `+=`, …) or `++`/`--` (the symbol query's
        `assigned.name` captures with such a parent: the same nodes a query of those two patterns on
        any node finds, which `inside` bisects instead of walking that node again)."""
        return NodesByPosition(
            [
                n
                for n in self._assigned
                if n.parent is not None and n.parent.type in ("assignment_expression", "update_expression")
            ]
        )

    @cached_property
    def loops(self) -> NodesByPosition:
        """Every `for`, range-`for`, `while` and `do` loop of the tree (the file query's single-node
        loop patterns), in document order: the loops a node holds are a bisection away."""
        found = [nodes[0] for _i, match in self.file_matches["cpp"] for name, nodes in match.items() if name in _LOOPS]
        return NodesByPosition(sorted(found, key=lambda n: (n.start_byte, -n.end_byte)))

    def assigned_names(self, node: tree_sitter.Node) -> set[str]:
        """Names written inside `node` by an assignment (`=`, `+=`, …) or `++`/`--`, read from the
        symbol query's captures (in document order: the ones inside `node` are found by bisection)
        rather than by walking `node` again."""
        first = bisect_left(self._assigned_starts, node.start_byte)
        last = bisect_right(self._assigned_starts, node.end_byte)
        return {
            text_of(n)
            for n in self._assigned[first:last]
            if n.end_byte <= node.end_byte
            and n.parent is not None
            and n.parent.type in ("assignment_expression", "update_expression")
        }


_LOOPS = frozenset({"loop.for", "loop.range-for", "loop.while", "loop.do"})  # the file query's loop captures
_NEAR = 256  # bytes from where a parse error starts or ends that a misread directive may lie


class _Prepared(NamedTuple):
    """What a file's bytes give before any split arm is chosen: its `#if` arms, the bytes to parse
    (dead arms and directive comments blanked, attribute macros rewritten) and the directives
    written through `_Pragma` or a macro (`pragma_operators`)."""

    arms: list[ConditionalArm]
    parsed: bytes
    pragma_texts: dict[int, str]


def _lost(matches: dict[str, list[treesitter.Match]]) -> int:
    """How many lines the error nodes of a parse cover."""
    return sum(
        match["error"][0].end_point[0] - match["error"][0].start_point[0] + 1
        for _i, match in matches["cpp"]
        if "error" in match
    )
