"""How an OpenMP region of a Fortran file uses a mapped variable, one identifier at a time.

Each identifier that names a mapped variable is one `Access`: read, written, read-modified-written
(a store to a component of an element) or escaping (passed to a procedure that may change it, passed
by keyword, associated with a pointer). What the region hides as a whole (an included file, a pointer
associated outside the region, a procedure that may change a host or module variable) is an escape
too: a rule never narrows a map on what it cannot see.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common.nodes import text_of as _text
from kernlint.frontends.fortran.constants import UNITS
from kernlint.frontends.openmp.facts import Access

Point = tuple[int, int]

_CONDITIONAL = frozenset(
    {
        "if_statement",
        "elseif_clause",
        "else_clause",
        "select_case_statement",
        "case_statement",
        "where_statement",
        "where_construct",
    }
)
#: Intrinsics that only read a whole-array argument.
_READING_INTRINSICS = frozenset(
    {
        "size",
        "lbound",
        "ubound",
        "shape",
        "sum",
        "product",
        "maxval",
        "minval",
        "maxloc",
        "minloc",
        "any",
        "all",
        "count",
        "dot_product",
        "matmul",
        "norm2",
        "abs",
        "sqrt",
        "exp",
        "log",
        "sin",
        "cos",
        "real",
        "dble",
        "int",
        "nint",
        "allocated",
        "associated",
        "present",
        "kind",
        "len",
        "trim",
    }
)

#: Intrinsics that ask only for an array's shape or status, reading none of its elements.
_INQUIRIES = frozenset({"size", "lbound", "ubound", "shape", "allocated", "associated", "present", "kind", "len"})


class UsesSource(Protocol):
    """What the use analysis asks of the Fortran source: the tree, spans, query captures in a region
    and the declaration tables of program units."""

    root: tree_sitter.Node

    def node_span(self, node: tree_sitter.Node) -> Span: ...
    def captures_in(self, query: str, region: Span) -> dict[str, list[tree_sitter.Node]]: ...
    def unit_at(self, point: Point) -> tree_sitter.Node | None: ...
    def unit_table(self, point: Point) -> dict[str, Any] | None: ...
    def table(self, node: tree_sitter.Node) -> dict[str, Any]: ...


class FortranUses:
    """The uses of mapped variables in the regions of one file (procedure names read once)."""

    def __init__(self, source: UsesSource) -> None:
        self._source = source
        self._procedure_words: dict[str, set[str]] | None = None

    def accesses(self, region: Span, names: frozenset[str]) -> list[Access]:
        found = []
        arrays = None
        captures = self._source.captures_in("fortran_uses", region)
        for ident in captures.get("use", []):
            name = _text(ident).lower()
            if name not in names:
                continue
            if arrays is None:
                table = self._source.unit_table(ident.start_point)
                arrays = {n for n, d in (table["declared"] if table else {}).items() if d.is_array}
            access = self._classify(ident, name, region, arrays)
            if access is not None:
                found.append(access)
        return found + self._hidden(region, names, captures)

    def _hidden(self, region: Span, names: frozenset[str], captures: dict[str, list[tree_sitter.Node]]) -> list[Access]:
        """Uses the region's own identifiers do not show: included code, a pointer associated with a
        mapped array outside the region and used inside, and procedures called in the region when the
        variable is not declared in the program unit (a module or host variable they may change)."""
        found = [
            Access(
                name,
                "escape",
                self._source.node_span(include),
                detail=f"`{_text(include).strip()}` is included into the region",
            )
            for include in captures.get("include", [])
            for name in sorted(names)
        ]
        unit = self._source.unit_at((region.line - 1, region.column_byte))
        if unit is None:
            return found
        used = {_text(i).lower(): i for i in captures.get("use", [])}
        for ident in self._source.captures_in("fortran_uses", self._source.node_span(unit)).get("use", []):
            name = _text(ident).lower()
            holder = ident.parent
            if region.start_byte <= ident.start_byte < region.end_byte:
                continue  # inside the region an association is itself an escape (`_classify`)
            if (
                name not in names
                or holder is None
                or holder.type not in ("pointer_association_statement", "association")
            ):
                continue
            alias = _text(holder.named_children[0]).lower() if holder.named_children else ""
            if alias in used and alias != name and holder.named_children[0] != ident:
                found.append(
                    Access(
                        name,
                        "escape",
                        self._source.node_span(used[alias]),
                        detail=f"reached through `{alias}`, which is associated with it",
                    )
                )
        table = self._source.table(unit)
        for callee in captures.get("callee", []):
            called = _text(callee).lower()
            if called in names or called in table["declared"] or called in _READING_INTRINSICS:
                continue
            procedure = self._procedures().get(called)
            for name in sorted(names):
                if name not in table["declared"]:
                    why = f"`{called}` may change it (it is not declared in this unit)"
                elif procedure is not None and name in procedure:
                    why = f"`{called}` may change it (an internal procedure that names it)"
                else:
                    continue
                found.append(Access(name, "escape", self._source.node_span(callee), detail=why))
        return found

    def _procedures(self) -> dict[str, set[str]]:
        """The subroutines and functions of the file, by lower-cased name, with the names each mentions
        (lower-cased): an internal procedure reaches its host's variables by name."""
        if self._procedure_words is None:
            self._procedure_words = {}
            stack = [self._source.root]
            while stack:
                node = stack.pop()
                if node.type in ("subroutine", "function"):
                    statement = node.named_children[0] if node.named_children else None
                    name = statement.child_by_field_name("name") if statement is not None else None
                    if name is not None:
                        self._procedure_words[_text(name).lower()] = set(re.findall(r"[a-z_]\w*", _text(node).lower()))
                stack.extend(
                    c
                    for c in node.named_children
                    if c.type in UNITS or c.type in ("internal_procedures", "module", "program", "submodule")
                )
        return self._procedure_words

    def _classify(self, ident: tree_sitter.Node, name: str, region: Span, arrays: set[str]) -> Access | None:
        parent = ident.parent
        if parent is None:
            return None
        access = ident
        index = None
        section_all = False
        if parent.type == "call_expression" and parent.named_children and parent.named_children[0] == ident:
            access = parent
            arguments = next((c for c in parent.named_children if c.type == "argument_list"), None)
            items = [c for c in arguments.named_children if c.type != "comment"] if arguments is not None else []
            if len(items) == 1 and items[0].type != "extent_specifier":
                index = _text(items[0])
            section_all = bool(items) and all(i.type == "extent_specifier" and _text(i).strip() == ":" for i in items)
        value, member = _component_of(access)
        holder = value.parent
        kind = "read"
        whole = False
        detail = ""
        shape_only = False
        if holder is not None and holder.type == "assignment_statement" and holder.child_by_field_name("left") == value:
            kind, detail = ("rmw", "a component of an element is written") if member else ("write", "")
            whole = (access is ident or section_all) and not member
        elif (
            holder is not None
            and holder.type == "loop_control_expression"
            and access is ident
            and holder.named_children
            and holder.named_children[0] == ident
        ):
            kind = "write"
        elif holder is not None and holder.type == "argument_list" and holder.parent is not None:
            caller = holder.parent
            callee = _text(caller.named_children[0]).lower() if caller.named_children else ""
            shape_only = caller.type == "call_expression" and callee in _INQUIRIES and access is ident
            if caller.type == "subroutine_call":
                kind, detail = "escape", f"passed to `{callee}`"
            elif caller.type == "call_expression" and callee not in _READING_INTRINSICS and callee not in arrays:
                kind, detail = "escape", f"passed to `{callee}`, which may change it"
        elif holder is not None and holder.type == "keyword_argument":
            kind, detail = "escape", "passed by keyword"
        elif holder is not None and holder.type in ("pointer_association_statement", "association"):
            kind, detail = "escape", "a pointer or name is associated with it"
        loop, conditional = self._context(access)
        if kind == "write" and loop is not None and not conditional:
            conditional = _jump_before(access)  # `cycle`, `exit`, `return`, `go to`, `stop` may skip it
        depth = 1 if access is not ident else 0
        statement = access.parent
        while statement is not None and not statement.type.endswith("_statement"):
            statement = statement.parent
        return Access(
            name,
            kind,
            self._source.node_span(access),
            index,
            whole,
            loop,
            conditional,
            detail,
            depth,
            shape_only=shape_only,
            statement=self._source.node_span(statement) if statement is not None else None,
        )

    def _context(self, access: tree_sitter.Node) -> tuple[Span | None, bool]:
        conditional = False
        child = access
        node = access.parent
        while node is not None and node.type not in UNITS:
            if node.type == "do_loop" and child.type != "do_statement":
                return self._source.node_span(node), conditional
            if node.type in _CONDITIONAL and child.type != "parenthesized_expression":
                conditional = True
            child = node
            node = node.parent
        return None, conditional


def _jump_before(access: tree_sitter.Node) -> bool:
    """A jump (`cycle`, `exit`, `return`, `go to`, `stop`) in the innermost `do` loop around `access`,
    before it; `continue`, a label's no-op, is none."""
    node = access.parent
    while node is not None and node.type not in UNITS and node.type != "do_loop":
        node = node.parent
    if node is None or node.type != "do_loop":
        return False
    stack = [c for c in node.named_children if c.type != "do_statement"]
    while stack:
        inner = stack.pop()
        if inner.start_byte >= access.start_byte:
            continue
        if inner.type == "stop_statement" or (
            inner.type == "keyword_statement" and not _text(inner).strip().lower().startswith("continue")
        ):
            return True
        stack.extend(inner.named_children)
    return False


def _component_of(access: tree_sitter.Node) -> tuple[tree_sitter.Node, bool]:
    """The expression whose context decides what is done to `access` (`a`, `a(i)`), and whether a
    component is named on the way (`a(i)%x`, `a(i)%v(k)`): a store to a component keeps the others,
    so it reads and writes the element."""
    value, member = access, False
    while value.parent is not None:
        up = value.parent
        if up.type == "parenthesized_expression":
            value = up
        elif (
            up.type in ("derived_type_member_expression", "call_expression")
            and up.named_children
            and up.named_children[0] == value
            and (member or up.type == "derived_type_member_expression")
        ):
            value, member = up, True
        else:
            break
    return value, member
