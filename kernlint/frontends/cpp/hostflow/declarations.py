"""What the declaration of a name visible at a point says: element size, array bounds, pointer or not.

The host flows ask it of the few names device steps touch (is it data, or a scalar passed by value?
where does it live?), in the few functions that hold device work. So a name's declarations are found
where they are asked for: a search of the function's bytes for the name, skipping the occurrences
whose preceding character makes them uses, then the node of each candidate, climbed through its
declarators. Answers are kept per name and function; the file scope is read from its top-level
declarations once. (`CppOmpSource.declared` answers the same question for map sections with a query
per function: it asks of many names in every region.)
"""

from __future__ import annotations

from bisect import bisect_right

import tree_sitter

from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.openmp.syntax import declared_from
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.frontends.openmp.facts import Declared

Node = tree_sitter.Node
_Entry = tuple[int, Node, Node]  # (position, declaration, its declarator)
_FILE_SCOPES = frozenset({"translation_unit", "declaration_list", "linkage_specification", "namespace_definition"})
_DECLARATORS = frozenset(
    {"pointer_declarator", "reference_declarator", "array_declarator", "init_declarator", "function_declarator"}
)  # a function declarator too: `sycl::queue q(sycl::gpu_selector_v);` parses as one
_DECLARATIONS = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration"})
#: Characters that, before a name (spaces skipped), make it a use, never a declaration.
_USE_BEFORE = frozenset(b"=+-/%<!?:;([{|^~.")


class Declarations:
    """The declarations of the names asked about, in the function where they are asked or at file scope."""

    def __init__(self, unit: CppUnit, functions: list[Node]) -> None:
        self.data = unit.data
        self.root = unit.root
        definitions = [f for f in functions if f.type == "function_definition"]
        self._functions = sorted((f.start_byte, f.end_byte) for f in definitions)
        self._found: dict[tuple[str, int], list[_Entry]] = {}
        self._file: dict[str, list[_Entry]] | None = None
        self._declared: dict[int, Declared] = {}

    def declared(self, name: str, at_byte: int) -> Declared | None:
        """The last declaration of `name` before `at_byte` in its function, else at file scope."""
        entry = self.entry(name, at_byte)
        if entry is None:
            return None
        found = self._declared.get(entry[0])
        if found is None:
            found = self._declared[entry[0]] = declared_from(entry[1], entry[2])
        return found

    def type_text(self, name: str, at_byte: int) -> str | None:
        """The declared type of `name` as written (`sycl::queue`, `std::vector<float>`)."""
        entry = self.entry(name, at_byte)
        return text_of(entry[1].child_by_field_name("type")) if entry is not None else None

    def initializer(self, name: str, at_byte: int) -> Node | None:
        """The value `name` is declared with (`T *p = (T *) malloc(n)`), None when it has none."""
        entry = self.entry(name, at_byte)
        declarator = entry[2] if entry is not None else None
        if declarator is None or declarator.type != "init_declarator":
            return None
        return declarator.child_by_field_name("value")

    def entry(self, name: str, at_byte: int) -> _Entry | None:
        """The declaration of `name` visible at `at_byte`: (position, declaration, declarator)."""
        scope = self.scope_of(at_byte)
        if scope >= 0:
            key = (name, scope)
            if key not in self._found:
                self._found[key] = self._search(name, scope)
            before = [e for e in self._found[key] if e[0] <= at_byte]
            if before:
                return before[-1]
        found = self._file_scope().get(name)
        return found[-1] if found else None

    def scope_of(self, at_byte: int) -> int:
        """The start of the function definition around `at_byte`, -1 outside one."""
        at = bisect_right(self._functions, (at_byte, 1 << 62)) - 1
        while at >= 0:
            start, end = self._functions[at]
            if at_byte < end:
                return start
            at -= 1
        return -1

    def _search(self, name: str, scope: int) -> list[_Entry]:
        """The declarations of `name` in the function starting at `scope`, in source order."""
        end = next(e for s, e in self._functions if s == scope)
        found = []
        word = name.encode()
        for start in word_positions(self.data, word, scope, end):
            before = self.data[max(0, start - 80) : start].rstrip()[-1:]
            if before and before[0] in _USE_BEFORE:
                continue
            node = self.root.descendant_for_byte_range(start, start + len(word))
            if node is not None and node.type == "identifier":
                entry = _declaration(node)
                if entry is not None:
                    found.append(entry)
        return found

    def _file_scope(self) -> dict[str, list[_Entry]]:
        if self._file is None:
            table: dict[str, list[_Entry]] = {}
            stack = list(self.root.named_children)
            while stack:
                node = stack.pop()
                if node.type == "declaration":
                    for declarator in node.children_by_field_name("declarator"):
                        name = declarator_name(declarator)
                        if name:
                            table.setdefault(name, []).append((declarator.start_byte, node, declarator))
                elif node.type in _FILE_SCOPES:
                    stack.extend(node.named_children)
            self._file = table
        return self._file


def word_positions(data: bytes, word: bytes, start: int, end: int) -> list[int]:
    """Where `word` occurs in `data[start:end]` as a whole identifier (a plain search: no regex to
    compile for each of the many names asked about)."""
    found = []
    size = len(word)
    at = data.find(word, start, end)
    while at >= 0:
        after = at + size
        if (at == 0 or data[at - 1] not in _WORD_BYTES) and (after >= len(data) or data[after] not in _WORD_BYTES):
            found.append(at)
        at = data.find(word, after, end)
    return found


_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _declaration(ident: Node) -> _Entry | None:
    """The declaration `ident` is the declared name of, with the declarator holding it."""
    child, parent = ident, ident.parent
    while parent is not None and parent.type in _DECLARATORS:
        if parent.type != "reference_declarator" and parent.child_by_field_name("declarator") != child:
            return None  # a name in an initialiser or an array size
        child, parent = parent, parent.parent
    if parent is None or parent.type not in _DECLARATIONS:
        return None
    if child not in parent.children_by_field_name("declarator"):
        return None
    return (ident.start_byte, parent, child)


def declarator_name(declarator: Node) -> str | None:
    """The name a declarator declares (`*p`, `&h`, `a[n]`, `x = 0`); None for a function."""
    node: Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type == "function_declarator":
            return None
        inner = node.child_by_field_name("declarator")
        node = (
            inner
            if inner is not None
            else next((c for c in node.named_children if "declarator" in c.type or c.type == "identifier"), None)
        )
    return text_of(node) if node is not None else None
