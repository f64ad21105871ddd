"""Whether a C/C++ variable is written after its initialiser: then the initialiser is not its value.

Writes are assignments and `++`/`--` (from the symbol query), and calls that may write an argument:
a function of the file whose parameter there is a non-const reference, a library call that writes
(`std::swap`), or any unknown call given an object rather than a number (it may take it by reference).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.frontends.common.nodes import arguments_of, text_of

_READING_CALLS = frozenset(
    {
        "parallel_for",
        "single_task",
        "parallel_for_work_group",
        "submit",
        "memcpy",
        "memset",
        "copy",
        "fill",
        "push_back",
        "emplace_back",
        "insert",
        "printf",
        "fprintf",
        "sprintf",
        "snprintf",
        "puts",
        "malloc",
        "calloc",
        "free",
        "assert",
        "min",
        "max",
        "abs",
        "ceil",
        "floor",
        "sqrt",
        "pow",
        "exp",
        "log",
        "size",
        "get_range",
        "get_global_range",
        "get_local_range",
        "malloc_device",
        "malloc_host",
        "malloc_shared",
        "range",
        "nd_range",
        "id",
        "buffer",
        "accessor",
        "local_accessor",
        "queue",
        "get_access",
    }
)
_WRITING_LIBRARY_CALLS = frozenset({"swap", "exchange", "getline", "iter_swap"})


def _writable(parameter: tree_sitter.Node) -> bool:
    """Whether a parameter can write the variable passed to it: a non-const (or forwarding) reference."""
    declarator = parameter.child_by_field_name("declarator")
    if declarator is None or declarator.type != "reference_declarator":
        return False
    constant = any(child.type == "type_qualifier" and text_of(child) == "const" for child in parameter.children)
    return not constant or text_of(declarator).startswith("&&")


class Variable(Protocol):
    """What the write search reads of a variable's definition (`constants.Definition` is one)."""

    @property
    def kind(self) -> str: ...
    @property
    def is_const(self) -> bool: ...
    @property
    def name(self) -> str: ...
    @property
    def start_byte(self) -> int: ...
    @property
    def scope(self) -> tuple[int, int]: ...
    @property
    def type_text(self) -> str | None: ...


class WriteFinder:
    """The writes of one file's variables, looked up lazily and remembered per variable."""

    def __init__(
        self,
        root: tree_sitter.Node,
        assigned_nodes: list[tree_sitter.Node],
        function_nodes: list[tree_sitter.Node],
        name_of: Callable[[tree_sitter.Node], str],
    ) -> None:
        self._root = root
        self._assigned_nodes = assigned_nodes
        self._function_nodes = function_nodes
        self._name_of = name_of
        self._assigned: dict[str, list[int]] | None = None
        self._functions: dict[str, list[tree_sitter.Node]] | None = None
        self._text: bytes | None = None
        self._written: dict[tuple[str, int], bool] = {}

    def written(self, definition: Variable) -> bool:
        """Whether a variable may be written after its initialiser, anywhere in its scope (so its
        initialiser is not its value)."""
        if definition.kind != "var" or definition.is_const:
            return False
        key = (definition.name, definition.start_byte)
        if key not in self._written:
            self._written[key] = self._find_write(definition)
        return self._written[key]

    def _find_write(self, definition: Variable) -> bool:
        if self._assigned is None:
            self._assigned = {}
            for node in self._assigned_nodes:
                self._assigned.setdefault(self._name_of(node), []).append(node.start_byte)
            for positions in self._assigned.values():
                positions.sort()
        lo, hi = definition.scope
        positions = self._assigned.get(definition.name, [])
        first = bisect_right(positions, max(lo - 1, definition.start_byte))  # the first write in its scope after it
        if first < len(positions) and positions[first] < hi:
            return True
        return any(
            self._call_may_write(node, definition)
            for node in self._arguments_named(definition.name, max(lo, definition.start_byte), hi)
        )

    def _arguments_named(self, name: str, lo: int, hi: int) -> list[tree_sitter.Node]:
        """The call arguments in bytes [lo, hi) that are the bare name `name` (`f(a, name)`), found in the
        text and checked in the tree: only the few variables looked up need them."""
        if self._text is None:
            self._text = self._root.text or b""  # from the root's first byte, which need not be 0
        base = self._root.start_byte
        found = []
        position = max(lo - base, 0)
        while (match := _argument(self._text, name, position, max(min(hi - base, len(self._text)), 0))) is not None:
            position = match[1]
            node = self._root.descendant_for_byte_range(base + match[0], base + match[1])
            if (
                node is not None
                and node.type == "identifier"
                and node.parent is not None
                and node.parent.type == "argument_list"
                and node.parent.parent is not None
                and node.parent.parent.type == "call_expression"
            ):
                found.append(node)
        return found

    def _call_may_write(self, argument: tree_sitter.Node, definition: Variable) -> bool:
        """Whether the call `argument` is passed to may write it: a function of the file whose parameter
        there is a non-const reference; for a function the file does not
        declare, a library call that writes (`std::swap`), or any other call given an object rather
        than a number (it may take it by reference)."""
        call = argument.parent.parent if argument.parent is not None else None
        function = call.child_by_field_name("function") if call is not None else None
        if call is None or function is None:
            return False
        callee = function.child_by_field_name("field") if function.type == "field_expression" else function
        if callee is not None and callee.type == "template_function":
            callee = callee.child_by_field_name("name")
        name = text_of(callee).split("::")[-1]
        index = arguments_of(argument.parent).index(argument)
        declared = self._parameters(name, index)
        if declared:
            return any(_writable(parameter) for parameter in declared)
        if name in _WRITING_LIBRARY_CALLS:
            return True
        if name in _READING_CALLS or text_of(callee).startswith(("std::", "sycl::", "::")):
            return False
        return type_size(definition.type_text or "") is None

    def _parameters(self, name: str, index: int) -> list[tree_sitter.Node]:
        """Parameter `index` of every function named `name` the file declares."""
        if self._functions is None:
            self._functions = {}
            for node in self._function_nodes:
                if node.parent is not None:
                    self._functions.setdefault(self._name_of(node), []).append(node.parent)
        found = []
        for declarator in self._functions.get(name, ()):
            parameters = arguments_of(declarator.child_by_field_name("parameters"))
            if index < len(parameters):
                found.append(parameters[index])
            elif parameters and text_of(parameters[-1]) == "...":
                found.append(parameters[-1])
        return found


def _argument(text: bytes, name: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the first whole call argument `name` of `text[start:end]` is (`(name,`, `, name)`; spaces
    allowed around it), as `_argument_pattern(name).search(text, start, end)` finds it. An identifier
    is looked for with `bytes.find` (most variables have names no expression was compiled for yet)."""
    if not _IDENTIFIER.fullmatch(name):
        match = _argument_pattern(name).search(text, start, end)
        return None if match is None else (match.start(1), match.end(1))
    word, end = name.encode(), min(end, len(text))
    at = text.find(word, start, end)
    while at >= 0:
        before, after = at - 1, at + len(word)
        while before >= start and text[before] in _SPACES:
            before -= 1
        while after < end and text[after] in _SPACES:
            after += 1
        if before >= start and text[before] in b"(," and after < end and text[after] in b",)":
            return at, at + len(word)
        at = text.find(word, at + 1, end)
    return None


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*", re.ASCII)
_SPACES = frozenset(b" \t\n\r\f\v")  # what `\s` matches in a bytes expression


@lru_cache(maxsize=1024)
def _argument_pattern(name: str) -> re.Pattern[bytes]:
    """`name` as a whole call argument, compiled once per name (more names than `re`'s cache keeps)."""
    return re.compile(rb"[(,]\s*(" + re.escape(name.encode()) + rb")\s*[,)]")
