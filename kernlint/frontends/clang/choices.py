"""Constants that hang on an `#if` choice the tree-sitter front-end could not make.

A file read with kernlint's default flags (no compile-database entry, no neighbour's flags, no `-D`
given) has its `#if`/`#ifdef` arms chosen by clang from default macros: `#ifdef WAVE64` is false only
because nobody said otherwise. That choice is a guess about the build, so a constant whose value
depends on it must not be taken from clang then; it stays unknown, as the tree-sitter front-end left
it. A constant depends on such a choice when a name it reads, directly or through the definitions it
reads in turn (in the file and in the quoted includes tree-sitter read), has a definition inside an
arm whose condition tree-sitter left unknown, or one with such an arm inside it (a `constexpr`
function whose body holds the `#ifdef`). Include guards are no choice.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.common.preprocess import ConditionalArm, conditional_arms

_NAME = re.compile(r"[A-Za-z_]\w*")
_NAME_NODES = frozenset({"identifier", "field_identifier", "type_identifier"})
# The node a binding name belongs to: its text is the definition, its extent what an arm may touch.
_DEFINITIONS = frozenset(
    {
        "declaration",
        "field_declaration",
        "function_definition",
        "preproc_def",
        "preproc_function_def",
        "alias_declaration",
        "type_definition",
        "enumerator",
        "struct_specifier",
        "class_specifier",
        "union_specifier",
        "enum_specifier",
    }
)
_UNDEF = re.compile(rb"^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)", re.M)
_MAX_NAMES = 512  # a closure larger than this is taken as depending on a choice


class _Source:
    """One file's bindings by name, and the arms of its `#if` groups whose condition is unknown."""

    def __init__(self, data: bytes, root: tree_sitter.Node, arms: list[ConditionalArm]) -> None:
        self.data = data
        self.root = root
        self.choices = [arm for arm in arms if arm.state is None and not _guard(data, arm, arms)]
        self._found: dict[str, list[tuple[bool, str]]] = {}

    def definitions(self, name: str) -> list[tuple[bool, str]]:
        """(whether an unknown arm touches it, its text) for each definition of `name`."""
        if name not in self._found:
            self._found[name] = self._definitions(name)
        return self._found[name]

    def _definitions(self, name: str) -> list[tuple[bool, str]]:
        found: list[tuple[bool, str]] = []
        for match in re.finditer(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])", self.data):
            node = self.root.descendant_for_byte_range(match.start(), match.end())
            definition = _definition_of(node) if node is not None else None
            if definition is not None:
                found.append((self._touches(definition.start_byte, definition.end_byte), text_of(definition)))
        for match in _UNDEF.finditer(self.data):
            if match.group(1).decode() == name:
                found.append((self._touches(match.start(), match.end()), ""))
        return found

    def _touches(self, start: int, end: int) -> bool:
        return any(arm.start < end and start < arm.end for arm in self.choices)


def _definition_of(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The definition `node` is the name of (through its declarators), or None when it is a use."""
    if node.type not in _NAME_NODES:
        return None
    child, parent = node, node.parent
    while parent is not None:
        named = child in (parent.child_by_field_name("name"), parent.child_by_field_name("declarator"))
        if not named and parent.type != "reference_declarator":
            return None
        if parent.type in _DEFINITIONS:
            return parent
        if not parent.type.endswith("declarator") and parent.type != "qualified_identifier":
            return None
        child, parent = parent, parent.parent
    return None


def _guard(data: bytes, arm: ConditionalArm, arms: list[ConditionalArm]) -> bool:
    """Whether `arm` is an include guard: the only arm of `#ifndef X` (or `#if !defined X`) whose
    body opens with `#define X`."""
    if any(other.group == arm.group and other.index != arm.index for other in arms):
        return False
    directive = data[arm.group : arm.start].decode("utf-8", "replace")
    opened = re.match(r"\s*#\s*(?:ifndef\s+|if\s*!\s*defined\s*\(?\s*)([A-Za-z_]\w*)", directive)
    if opened is None:
        return False
    body = data[arm.start : arm.end].decode("utf-8", "replace")
    return re.match(rf"\s*#\s*define\s+{opened.group(1)}\b", body) is not None


class ConditionalChoices:
    """Answers whether a constant expression of one file depends on an `#if` choice left unknown."""

    def __init__(
        self,
        data: bytes,
        root: tree_sitter.Node,
        arms: list[ConditionalArm],
        headers: list[str],
        defines: dict[str, str],
    ) -> None:
        self._main = _Source(data, root, arms)
        self._headers = headers
        self._defines = defines

    @cached_property
    def _sources(self) -> list[_Source]:
        """The file, then the quoted includes tree-sitter read (parsed on the first question)."""
        sources = [self._main]
        for header in self._headers:
            try:
                data = Path(header).read_bytes()
            except OSError:
                continue
            arms = conditional_arms(data, self._defines)
            sources.append(_Source(data, treesitter.parser("cpp").parse(data).root_node, arms))
        return sources

    def decides(self, text: str) -> bool:
        """Whether the value of expression `text` may hang on an `#if` choice tree-sitter left unknown."""
        if not any(source.choices for source in self._sources):
            return False
        pending = list(dict.fromkeys(_NAME.findall(text)))
        seen = set(pending)
        while pending:
            if len(seen) > _MAX_NAMES:
                return True
            name = pending.pop()
            for source in self._sources:
                for chosen, definition in source.definitions(name):
                    if chosen:
                        return True
                    fresh = [n for n in dict.fromkeys(_NAME.findall(definition)) if n not in seen]
                    seen.update(fresh)
                    pending.extend(fresh)
        return False
