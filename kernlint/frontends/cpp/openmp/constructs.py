"""OpenMP constructs of a C/C++ file: each `#pragma omp` with the loop or block it applies to.

tree-sitter-cpp gives a `#pragma` as a `preproc_call` sibling *before* the statement it applies to, so
the association is "the next statement, skipping comments and other pragmas (and stepping out of an
`#ifdef` that holds only the pragma)". Everything language-neutral is decided by `openmp.facts`; this
module only answers its questions from the tree, with the `cpp_openmp_*.scm` queries run on one
region or function node at a time (how a region uses a variable: `uses`; its device code for
the dependence analysis: `device`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

import tree_sitter

from kernlint.facts import Pragma, Span
from kernlint.facts.kinds import LoopKind
from kernlint.facts.openmp_directive import OmpDirective
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.inside import NodesByPosition, holds
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.callees import Callees
from kernlint.frontends.cpp.openmp.device import calls_in, device_code, raw_function
from kernlint.frontends.cpp.openmp.function_uses import FunctionUses, function_of
from kernlint.frontends.cpp.openmp.implicit import ImplicitArrays
from kernlint.frontends.cpp.openmp.nodes import FUNCTION_TYPES, LOOP_TYPES
from kernlint.frontends.cpp.openmp.syntax import (
    associated_loops,
    collapse_depth,
    declarator_name,
    declared_from,
    following_statement,
    for_condition,
    for_init,
    for_step,
    in_loop_header,
    strip_c_comment,
    struct_pointers,
)
from kernlint.frontends.cpp.openmp.uses import alias_source, alias_target, classify_use, macro_like, quiet_call
from kernlint.frontends.cpp.syntax import last_name
from kernlint.frontends.openmp.device_code import RawAssign, RawBranch, RawCall, RawFunction
from kernlint.frontends.openmp.directives import join_c_pragma, parse_directive
from kernlint.frontends.openmp.expr import Expr, Scope, parse
from kernlint.frontends.openmp.facts import (
    Access,
    Located,
    RawCondition,
    RawLoop,
    has_region,
    is_loop_construct,
)
from kernlint.frontends.openmp.locate import TextLocator
from kernlint.frontends.openmp.maps import Declared

if TYPE_CHECKING:
    from kernlint.frontends.cpp.unit import CppUnit

_LOOP_KINDS: dict[str, LoopKind] = {"for_range_loop": "range-for", "while_statement": "while", "do_statement": "do"}


class CppOmpSource:
    """The C/C++ answers to `kernlint.frontends.openmp.facts.OmpSource`."""

    fortran = False

    def __init__(self, unit: CppUnit, pragmas: tuple[Pragma, ...]) -> None:
        self.unit = unit
        self.data = unit.data
        self.root = unit.root
        self.pragmas = pragmas
        self.nodes: dict[Span, tree_sitter.Node] = {}  # region spans and directive spans -> nodes
        self._assigned: dict[tuple[int, int], dict[str, list[int]]] = {}
        self._declarations: dict[tuple[int, int], dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]]] = {}
        self._ancestor_lists: dict[Span, list[tree_sitter.Node]] = {}
        self._raw_loops: dict[int, RawLoop] = {}
        self._held_lists: dict[str, list[tuple[tree_sitter.Node, NodesByPosition]]] = {}  # nodes queried, by query
        self._values: dict[tuple[str, int], int | None] = {}
        self._declared: dict[tuple[str, int], Declared | None] = {}
        self._definitions: dict[tuple[str, int], Expr | None] = {}
        self._uses = FunctionUses()  # the `cpp_openmp_uses` captures of each function with a region
        self._words_by_function: dict[int, set[str]] = {}
        self._declared_names: dict[int, frozenset[str]] = {}
        self._declared_by_region: dict[int, list[tree_sitter.Node]] = {}
        self._calls: dict[Span, list[RawCall]] = {}
        self._jumps: dict[int, list[int]] = {}  # loop body -> where its jumps start (`classify_use`)
        self._implicit = ImplicitArrays(unit.data, unit.root)

    # -- directives ----------------------------------------------------------------------------

    def located(self) -> list[Located]:
        found = []
        for pragma in self.pragmas:
            if pragma.text.split()[:1] not in (["omp"], ["ompx"]):
                continue
            node = self.root.descendant_for_byte_range(pragma.span.start_byte, pragma.span.start_byte + 1)
            while node is not None and node.type != "preproc_call":
                node = node.parent
            if node is None:
                continue
            end = self._logical_end(node)
            raw = self.data[node.start_byte : end].decode("utf-8", errors="replace")
            span = self._directive_span(node, end)
            directive = parse_directive(join_c_pragma(raw), language="c", line=span.line, end_line=span.end_line)
            self.nodes[span] = node
            region = loops = None
            if isinstance(directive, OmpDirective) and has_region(directive):
                statement = following_statement(node, end)
                if statement is not None:
                    region = span_of(statement)
                    self.nodes[region] = statement
                    if is_loop_construct(directive):
                        loops = associated_loops(statement, collapse_depth(directive, self.value, span.start_byte))
            found.append(
                Located(
                    span,
                    directive,
                    region,
                    tuple(span_of(loop) for loop in loops or ()),
                    append_at=self._append_at(span),
                )
            )
        return found

    def _logical_end(self, node: tree_sitter.Node) -> int:
        """Where a pragma's logical line ends (its newline not escaped by `\\`). The node can end
        earlier: tree-sitter stops a `#pragma` at a block comment."""
        end = node.start_byte
        data = self.data
        while True:
            newline = data.find(b"\n", end)
            if newline < 0:
                return len(data)
            before = newline - 1 if newline > 0 and data[newline - 1 : newline] != b"\r" else newline - 2
            if before >= 0 and data[before : before + 1] == b"\\":
                end = newline + 1
                continue
            return newline

    def _directive_span(self, node: tree_sitter.Node, end: int) -> Span:
        """The pragma from `#` to the end of its last line's text."""
        while end > node.start_byte and self.data[end - 1 : end] in (b"\n", b"\r", b" ", b"\t"):
            end -= 1
        line_start = self.data.rfind(b"\n", 0, end) + 1
        end_line = node.start_point[0] + 1 + self.data.count(b"\n", node.start_byte, end)
        return Span(node.start_byte, end, node.start_point[0] + 1, node.start_point[1], end_line, end - line_start)

    def _append_at(self, span: Span) -> Span:
        """Just past the directive's last code character: where a clause can be added."""
        line_start = span.end_byte - span.end_column_byte
        line = self.data[line_start : span.end_byte].decode("utf-8", errors="replace")
        code = strip_c_comment(line).rstrip()
        column = len(code.encode("utf-8"))
        offset = line_start + column
        return Span(offset, offset, span.end_line, column, span.end_line, column)

    @cached_property
    def locator(self) -> TextLocator:
        text_lines = self.data.decode("utf-8", errors="replace").split("\n")
        starts, offset = [], 0
        for line in self.data.split(b"\n"):
            starts.append(offset)
            offset += len(line) + 1
        return TextLocator(text_lines, starts, fold=False)

    # -- meaning of names ----------------------------------------------------------------------

    def value(self, text: str, at_byte: int) -> int | None:
        key = (text, at_byte)
        if key not in self._values:
            self._values[key] = self.unit.constants.value(text, at_byte)
        return self._values[key]

    def scope(self, at_byte: int) -> Scope:
        return Scope(lambda name: self.value(name, at_byte), lambda name: self.definition(name, at_byte))

    def definition(self, name: str, at_byte: int) -> Expr | None:
        """The initialiser of a local defined once (`int next = j + TILE + u;`), when never reassigned."""
        key = (name, at_byte)
        if key not in self._definitions:
            self._definitions[key] = self._definition(name, at_byte)
        return self._definitions[key]

    def _definition(self, name: str, at_byte: int) -> Expr | None:
        definition = self.unit.constants.definition(name, at_byte)
        if definition is None or definition.kind != "var" or not definition.value_text:
            return None
        if definition.value_text.startswith("{") or (
            definition.type_text and definition.value_text.startswith(definition.type_text)
        ):
            return None
        lo, hi = definition.scope
        if lo == 0:
            return None  # file-scope variables may be written anywhere
        assigned = self._assignments(lo, hi).get(name, [])
        if any(pos > definition.start_byte for pos in assigned):
            return None
        return parse(definition.value_text, fortran=False)

    def _assignments(self, lo: int, hi: int) -> dict[str, list[int]]:
        key = (lo, hi)
        if key not in self._assigned:
            node = self.root.descendant_for_byte_range(lo, hi)
            table: dict[str, list[int]] = {}
            for found in self._assigned_in(node) if node is not None else ():
                table.setdefault(text_of(found), []).append(found.start_byte)
            self._assigned[key] = table
        return self._assigned[key]

    def _assigned_in(self, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """`cpp_openmp_decls`' `@assigned` captures in `node`: the file's symbol query found them (the
        same patterns), except in a name, which is below its match."""
        if node.type == "identifier":
            return treesitter.captures("cpp", "cpp_openmp_decls", node).get("assigned", [])
        return self.unit.assignments.inside(node)

    def declared(self, name: str, at_byte: int) -> Declared | None:
        key = (name, at_byte)
        if key not in self._declared:
            self._declared[key] = self._declared_at(name, at_byte)
        return self._declared[key]

    def _declared_at(self, name: str, at_byte: int) -> Declared | None:
        node = self.root.descendant_for_byte_range(at_byte, at_byte)
        function = node
        while function is not None and function.type != "function_definition":
            function = function.parent
        for scope_node in ([function] if function is not None else []) + [self.root]:
            entries = self._declared_in(scope_node).get(name, [])
            before = [e for e in entries if e[0] <= at_byte]
            if scope_node is self.root:
                before = [e for e in before if e[1].parent is not None and e[1].parent.type == "translation_unit"]
            if before:
                _pos, declaration, declarator = before[-1]
                found = declared_from(declaration, declarator)
                return replace(found, local=True) if scope_node is not self.root else found
        return None

    def unit_of(self, span: Span) -> Span | None:
        node = self.nodes.get(span) or self.root.descendant_for_byte_range(span.start_byte, span.start_byte)
        while node is not None and node.type != "function_definition":
            node = node.parent
        return span_of(node) if node is not None else None

    def _declared_in(self, node: tree_sitter.Node) -> dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]]:
        key = (node.start_byte, node.end_byte)
        if key not in self._declarations:
            table: dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]] = {}
            for _i, match in treesitter.matches("cpp", "cpp_openmp_decls", node):
                if "decl" not in match:
                    continue
                declaration, declarator = match["decl"][0], match["decl.declarator"][0]
                name = declarator_name(declarator)
                if name:
                    table.setdefault(name, []).append((declarator.start_byte, declaration, declarator))
            for entries in table.values():
                entries.sort(key=lambda e: e[0])
            self._declarations[key] = table
        return self._declarations[key]

    def pointer_members(self, type_name: str) -> tuple[str, ...]:
        return self._struct_pointers.get(type_name, ())

    @cached_property
    def _struct_pointers(self) -> dict[str, tuple[str, ...]]:
        return struct_pointers(self.root)

    def device_pointers(self) -> frozenset[str]:
        return self._device_pointers

    @cached_property
    def _device_pointers(self) -> frozenset[str]:
        """Pointers the file gives device memory: assigned a device allocator's result, or passed by
        address to one (`cudaMalloc(&p, …)`)."""
        text = self.data.decode("utf-8", errors="replace")
        if not any(word in text for word in _ALLOCATOR_WORDS):
            return frozenset()  # (most files: neither expression can match, and both are slow to say so)
        return frozenset(m.group(1) for m in _DEVICE_ASSIGNMENT.finditer(text)) | frozenset(
            m.group(1) for m in _DEVICE_OUT_PARAMETER.finditer(text)
        )

    # -- loops and conditions ------------------------------------------------------------------

    def loops_in(self, region: Span) -> list[RawLoop]:
        node = self.nodes.get(region)
        return [self._raw_loop(n) for n in self.loop_nodes(node)] if node is not None else []

    def loop_nodes(self, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The loops `node` is or holds, in document order."""
        return self._held("cpp_openmp_loops", "loop", node)

    def _held(self, query_file: str, capture: str, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The nodes a query captures in `node`, in document order: from a node queried before that
        holds it, if any (a node not of `_ON_PATTERN_PATHS` holds a capture iff it holds its match)."""
        lists = self._held_lists.setdefault(query_file, [])
        reusable = node.type not in _ON_PATTERN_PATHS
        for outer, found in lists if reusable else ():
            if holds(outer, node):
                return found.inside(node)
        nodes = treesitter.captures("cpp", query_file, node).get(capture, [])
        if reusable:
            lists.append((node, NodesByPosition(nodes)))
        return nodes

    def loops_around(self, span: Span) -> list[RawLoop]:
        loops = [self._raw_loop(n) for n in self._ancestors(span) if n.type in LOOP_TYPES]
        return loops[::-1]

    def conditions_around(self, span: Span) -> list[RawCondition]:
        found: list[RawCondition] = []
        child = self.nodes.get(span)
        for node in self._ancestors(span):
            if node.type == "if_statement":
                condition = node.child_by_field_name("condition")
                value = condition.child_by_field_name("value") if condition is not None else None
                if value is not None and child is not None and child != condition:
                    negated = child.type == "else_clause"
                    found.append(RawCondition(span_of(value), text_of(value), negated))
            elif node.type in ("while_statement", "do_statement", "switch_statement"):
                condition = node.child_by_field_name("condition")
                if condition is not None and child != condition:
                    value = condition.child_by_field_name("value") or condition
                    text = text_of(value)
                    if node.type == "switch_statement":
                        text = f"switch({text})"  # a case of a switch: not a bound test
                    elif node.type == "do_statement":
                        text = text.strip("()")
                    found.append(RawCondition(span_of(value), text))
            elif node.type == "for_statement" and self._raw_loop(node).index is None:
                condition = node.child_by_field_name("condition")
                if condition is not None:
                    found.append(RawCondition(span_of(condition), text_of(condition)))
            child = node
        return found[::-1]

    def _ancestors(self, span: Span) -> list[tree_sitter.Node]:
        """Enclosing nodes of a directive up to its function (innermost first); asked for the loops
        and again for the conditions around it, so walked once."""
        found = self._ancestor_lists.get(span)
        if found is None:
            node = self.nodes.get(span)
            found = self._ancestor_lists[span] = []
            parent = node.parent if node is not None else None
            while parent is not None and parent.type not in FUNCTION_TYPES:
                found.append(parent)
                parent = parent.parent
        return found

    def _raw_loop(self, node: tree_sitter.Node) -> RawLoop:
        """A loop read once: nested regions and the directives inside them see the same loops."""
        found = self._raw_loops.get(node.id)
        if found is None:
            found = self._raw_loops[node.id] = self._read_loop(node)
        return found

    def _read_loop(self, node: tree_sitter.Node) -> RawLoop:
        body = node.child_by_field_name("body")
        body_span = span_of(body) if body is not None else None
        if node.type != "for_statement":
            return RawLoop(span_of(node), body_span, None, None, None, None, None, _LOOP_KINDS[node.type])
        index, lower = for_init(node.child_by_field_name("initializer"))
        compare, upper = for_condition(node.child_by_field_name("condition"), index)
        step = for_step(node.child_by_field_name("update"), index)
        return RawLoop(span_of(node), body_span, index, lower, upper, compare, step, "for")

    # -- device code ---------------------------------------------------------------------------

    def device_code(self, region: Span) -> list[RawAssign | RawBranch]:
        root = self.nodes.get(region)
        if root is None:
            return []
        found = (self.unit.loops, self.unit.assignments)  # (region nodes are nodes of the unit's tree)
        return device_code(root, self.function_names, self.unit.constants.value, found)

    def declared_in(self, region: Span) -> frozenset[str] | None:
        root = self.nodes.get(region)  # (every target construct asks of every target region)
        if root is None:
            return None
        found = self._declared_names.get(root.id)
        if found is None:
            found = self._declared_names[root.id] = frozenset(text_of(n) for n in self._declared_nodes(root))
        return found

    def _declared_nodes(self, root: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The names declared inside `root` (`cpp_openmp_declared`), found once per region."""
        found = self._declared_by_region.get(root.id)
        if found is None:
            found = self._declared_by_region[root.id] = self._held("cpp_openmp_declared", "declared", root)
        return found

    def varying_in(self, region: Span) -> frozenset[str] | None:
        root = self.nodes.get(region)
        if root is None:
            return None
        assigned = self._assigned_in(root)
        return frozenset(text_of(n) for n in self._declared_nodes(root) + assigned if not in_loop_header(n))

    def calls(self, region: Span) -> list[RawCall]:
        found = self._calls.get(region)  # (asked of a target region and again of it as a parallel region)
        if found is None:
            root = self.nodes.get(region)
            calls = self._held("cpp_openmp_calls", "call", root) if root is not None else []
            found = self._calls[region] = calls_in(root, self.functions, calls) if root is not None else []
        return found

    def function(self, name: str) -> RawFunction | None:
        return raw_function(name, self.functions.get(name, []), self.nodes)

    def is_array(self, name: str, at_byte: int) -> bool:
        return False  # C subscripts are their own syntax: a call is a call

    # -- uses ----------------------------------------------------------------------------------

    def referenced(self, region: Span) -> frozenset[str]:
        return self._implicit.referenced(self.nodes[region]) if region in self.nodes else frozenset()

    def accesses(self, region: Span, names: frozenset[str]) -> list[Access]:
        node = self.nodes.get(region)
        if node is None:
            return []
        found = []
        pointers: dict[str, bool] = {}
        wanted = {name.encode(): name for name in names}  # compared as bytes: most identifiers are other names
        captures = self._uses.of_region(node)
        for ident in captures.get("use", []):
            name = wanted.get(ident.text or b"")
            if name is None:
                continue
            if name not in pointers:
                declared = self.declared(name, ident.start_byte)
                pointers[name] = declared is None or declared.is_array
            found.append(classify_use(ident, name, node, pointers[name], self.callees, self._jumps))
        return [a for a in found if a is not None] + self._hidden(node, names, captures, pointers)

    @cached_property
    def functions(self) -> dict[str, list[tree_sitter.Node]]:
        """The file's function definitions by name."""
        return self.unit.functions()

    @cached_property
    def function_names(self) -> frozenset[str]:
        """The names of the file's functions, member functions included (calls to them are work)."""
        return frozenset(self.unit.functions(members=True))

    @cached_property
    def callees(self) -> Callees:
        """The file's definitions, prototypes and macros; C passes every argument by value."""
        return Callees(self.unit.functions(prototypes=True), self.unit.macros, by_reference=self.unit.path[-2:] != ".c")

    def _hidden(
        self,
        region: tree_sitter.Node,
        names: frozenset[str],
        captures: dict[str, list[tree_sitter.Node]],
        pointers: dict[str, bool],
    ) -> list[Access]:
        """Uses the region's own identifiers do not show: code `#include`d into it, macros naming a
        mapped variable, pointers into a mapped array made outside it and used inside (or a mapped
        pointer made from a variable the region uses), calls that may reach a variable that is not
        local to the function (a global or a class member), and local lambdas that name it."""
        found = [
            Access(name, "escape", span_of(include), detail=f"`{text_of(include).strip()}` is included into the region")
            for include in captures.get("include", [])
            for name in sorted(names)
        ]
        found += [
            Access(name, "escape", span_of(asm), detail="an `asm` statement may use it")
            for asm in captures.get("asm", [])
            for name in sorted(names)
        ]
        macros = self.callees.macros
        unseen = names - pointers.keys()  # names no identifier of the region spells
        for callee in captures.get("callee", []) if unseen else ():
            called = text_of(callee)
            if macro_like(called) and called not in macros and called not in self.functions:
                found += [
                    Access(name, "escape", span_of(callee), detail=f"`{called}` may be a macro that names it")
                    for name in sorted(unseen)
                ]
        uses = captures.get("use", [])
        texts = [text_of(ident) for ident in uses]  # (each identifier decoded once)
        for ident, text in zip(uses, texts):
            macro = macros.get(text)
            found += (
                [
                    Access(name, "escape", span_of(ident), detail=f"macro `{text}` names it")
                    for name in sorted(names & macro.words)
                ]
                if macro is not None
                else []
            )
        function = function_of(region)
        if function is None:
            return found
        used = dict(zip(texts, uses))
        outside = [
            i
            for i, text in self._uses.identifiers(function)
            if text in names and not (region.start_byte <= i.start_byte < region.end_byte)
        ]
        calls = [c for c in captures.get("callee", []) if not quiet_call(text_of(c))]
        for ident in outside:
            alias = alias_target(ident) if pointers.get(text_of(ident), True) else None
            if alias is not None and alias != text_of(ident) and (alias in used or calls):
                found.append(
                    Access(
                        text_of(ident),
                        "escape",
                        span_of(used[alias] if alias in used else calls[0]),
                        detail=f"reached through `{alias}`, which points into it"
                        + ("" if alias in used else " and which a call in the region may read"),
                    )
                )
            source = alias_source(ident)
            if source is not None and source in used and source != text_of(ident):
                found.append(
                    Access(
                        text_of(ident),
                        "escape",
                        span_of(used[source]),
                        detail=f"it points into `{source}`, which the region also uses",
                    )
                )
        local = self._declared_in(function) if function.type == "function_definition" else {}
        for name in sorted(n for n in names if n not in local):
            for callee in captures.get("callee", []):
                if not quiet_call(text_of(callee)) and self._may_reach(text_of(callee), name):
                    found.append(
                        Access(
                            name,
                            "escape",
                            span_of(callee),
                            detail=f"`{text_of(callee)}()` may write it (it is not local)",
                        )
                    )
        for callee in captures.get("callee", []):  # a lambda or function object made in the function
            for _position, declaration, _declarator in local.get(text_of(callee), []):
                found += [
                    Access(name, "escape", span_of(callee), detail=f"`{text_of(callee)}` refers to it")
                    for name in sorted(names & self._words(declaration))
                ]
        return found

    def _words(self, node: tree_sitter.Node) -> set[str]:
        """The names a function definition or a declaration mentions."""
        found = self._words_by_function.get(node.id)
        if found is None:
            found = self._words_by_function[node.id] = set(re.findall(r"[A-Za-z_]\w*", text_of(node)))
        return found

    def _may_reach(self, callee: str, name: str) -> bool:
        """Whether a call to `callee` may use the non-local `name`: not defined in the file, or
        defined there with a body that names it or calls a function that may."""
        pending, seen = [last_name(callee)], set()
        while pending:
            function = pending.pop()
            if function in seen:
                continue
            seen.add(function)
            definitions = self.functions.get(function)
            if not definitions:
                return True
            for definition in definitions:
                words = self._words(definition)
                if name in words:
                    return True
                pending += [w for w in words if w in self.functions and w not in seen]
        return False


#: The node types between a pattern's root and what it captures, in the files `_held` reads (the
#: declarators of `cpp_openmp_declared`; the loop and call patterns capture their own root).
_ON_PATTERN_PATHS = frozenset(
    {"identifier", "init_declarator", "array_declarator", "pointer_declarator", "reference_declarator"}
)
#: Allocators that return device (or unified shared) memory, and those that write it through an
#: out-parameter: a pointer given such memory is a device address, which a map copies as it is.
_DEVICE_ALLOCATORS = (
    r"omp_target_alloc\w*|llvm_omp_target_alloc_\w+|malloc_device|malloc_shared|aligned_alloc_device"
    r"|aligned_alloc_shared|acc_malloc|hipMallocManaged|cudaMallocManaged"
)
#: A word every allocator above, and every out-parameter one below, spells.
_ALLOCATOR_WORDS = ("omp_target_alloc", "alloc_device", "alloc_shared", "acc_malloc", "Malloc")
_DEVICE_ASSIGNMENT = re.compile(
    r"\b([A-Za-z_]\w*)\s*=\s*(?:\([^;=]*?\)\s*)?(?:[A-Za-z_]\w*\s*::\s*)*(?:" + _DEVICE_ALLOCATORS + r")\b"
)
_DEVICE_OUT_PARAMETER = re.compile(
    r"\b(?:cudaMalloc\w*|hipMalloc\w*)\s*\(\s*(?:\(\s*void\s*\*\s*\*\s*\)\s*)?&\s*([A-Za-z_]\w*)"
)
