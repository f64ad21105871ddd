"""OpenMP constructs of a C/C++ file: each `#pragma omp` with the loop or block it applies to.

tree-sitter-cpp gives a `#pragma` as a `preproc_call` sibling *before* the statement it applies to, so
the association is "the next statement, skipping comments and other pragmas (and stepping out of an
`#ifdef` that holds only the pragma)". Everything language-neutral is decided by `openmp_facts`; this
module only answers its questions from the tree, with the `cpp_openmp_*.scm` queries run on one
region or function node at a time.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import tree_sitter

from kernlint.analysis.consteval import ARITHMETIC_SIZES
from kernlint.facts import Branch, OmpConstruct, Pragma, Span
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.arms import arm_costs, calls_one_of, defined_functions, rewritable, steers_loop
from kernlint.frontends.openmp.directives import OmpDirective, join_c_pragma, parse_directive
from kernlint.frontends.openmp.dependence import RawAssign, RawBranch, openmp_branches
from kernlint.frontends.openmp.expr import Expr, Scope, parse
from kernlint.frontends.openmp.facts import (
    Access, Declared, Located, RawCondition, RawLoop, TextLocator, build_constructs, has_region,
    is_loop_construct,
)

if TYPE_CHECKING:
    from kernlint.frontends.cpp.frontend import CppFrontend

_SKIPPED_SIBLINGS = frozenset({"comment", "preproc_call", "preproc_else", "preproc_elif", "preproc_elifdef"})
_PREPROC_BLOCKS = frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef"})
_LOOP_TYPES = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
_FUNCTION_TYPES = frozenset({"function_definition", "lambda_expression"})
_CONDITIONAL_TYPES = frozenset({"if_statement", "switch_statement", "case_statement", "conditional_expression"})
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "!="})
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def openmp_facts(frontend: "CppFrontend", pragmas: tuple[Pragma, ...]
                 ) -> tuple[tuple[OmpConstruct, ...], tuple[Branch, ...]]:
    """Every `#pragma omp` / `#pragma ompx` of the file as an OmpConstruct, and the id-dependent
    branches of its device parallel regions (for KL501)."""
    if not any(p.text.split()[:1] in (["omp"], ["ompx"]) for p in pragmas):
        return (), ()
    source = CppOmpSource(frontend, pragmas)
    constructs = build_constructs(source)
    return constructs, openmp_branches(constructs, source)


def _text(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


def _span(node: tree_sitter.Node) -> Span:
    return Span(node.start_byte, node.end_byte, node.start_point[0] + 1, node.start_point[1],
                node.end_point[0] + 1, node.end_point[1])


class CppOmpSource:
    """The C/C++ answers to `openmp_facts.OmpSource`."""

    fortran = False

    def __init__(self, frontend: "CppFrontend", pragmas: tuple[Pragma, ...]) -> None:
        self.frontend = frontend
        self.data = frontend.data
        self.root = frontend.root
        self.pragmas = pragmas
        self.nodes: dict[Span, tree_sitter.Node] = {}  # region spans and directive spans -> nodes
        self._assigned: dict[tuple[int, int], dict[str, list[int]]] = {}
        self._declarations: dict[tuple[int, int], dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]]] = {}
        self._locator: TextLocator | None = None
        self._ancestor_lists: dict[Span, list[tree_sitter.Node]] = {}
        self._raw_loops: dict[int, RawLoop] = {}
        self._values: dict[tuple[str, int], int | None] = {}
        self._definitions: dict[tuple[str, int], Expr | None] = {}

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
            raw = self.data[node.start_byte:end].decode("utf-8", errors="replace")
            span = self._directive_span(node, end)
            directive = parse_directive(join_c_pragma(raw), language="c", line=span.line, end_line=span.end_line)
            self.nodes[span] = node
            region = loops = None
            if isinstance(directive, OmpDirective) and has_region(directive):
                statement = _following_statement(node, end)
                if statement is not None:
                    region = _span(statement)
                    self.nodes[region] = statement
                    if is_loop_construct(directive):
                        loops = _associated_loops(statement, _collapse(directive, self, span.start_byte))
            found.append(Located(span, directive, region, tuple(_span(l) for l in loops or ()),
                                 append_at=self._append_at(span)))
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
            before = newline - 1 if newline > 0 and data[newline - 1:newline] != b"\r" else newline - 2
            if before >= 0 and data[before:before + 1] == b"\\":
                end = newline + 1
                continue
            return newline

    def _directive_span(self, node: tree_sitter.Node, end: int) -> Span:
        """The pragma from `#` to the end of its last line's text."""
        while end > node.start_byte and self.data[end - 1:end] in (b"\n", b"\r", b" ", b"\t"):
            end -= 1
        line_start = self.data.rfind(b"\n", 0, end) + 1
        end_line = node.start_point[0] + 1 + self.data.count(b"\n", node.start_byte, end)
        return Span(node.start_byte, end, node.start_point[0] + 1, node.start_point[1], end_line, end - line_start)

    def _append_at(self, span: Span) -> Span:
        """Just past the directive's last code character: where a clause can be added."""
        line_start = span.end_byte - span.end_column_byte
        line = self.data[line_start:span.end_byte].decode("utf-8", errors="replace")
        code = _strip_c_comment(line).rstrip()
        column = len(code.encode("utf-8"))
        offset = line_start + column
        return Span(offset, offset, span.end_line, column, span.end_line, column)

    def locate(self, span: Span, text: str) -> Span | None:
        if self._locator is None:
            text_lines = self.data.decode("utf-8", errors="replace").split("\n")
            starts, offset = [], 0
            for line in self.data.split(b"\n"):
                starts.append(offset)
                offset += len(line) + 1
            self._locator = TextLocator(text_lines, starts, fold=False)
        return self._locator.locate(span, text)

    # -- meaning of names ----------------------------------------------------------------------

    def value(self, text: str, at_byte: int) -> int | None:
        key = (text, at_byte)
        if key not in self._values:
            self._values[key] = self.frontend.constants.value(text, at_byte)
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
        definition = self.frontend.constants.definition(name, at_byte)
        if definition is None or definition.kind != "var" or not definition.value_text:
            return None
        if definition.value_text.startswith("{") or definition.type_text and definition.value_text.startswith(
                definition.type_text):
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
            if node is not None:
                for found in treesitter.captures("cpp", "cpp_openmp_decls", node).get("assigned", []):
                    table.setdefault(_text(found), []).append(found.start_byte)
            self._assigned[key] = table
        return self._assigned[key]

    def declared(self, name: str, at_byte: int) -> Declared | None:
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
                return _declared(declaration, declarator)
        return None

    def _declared_in(self, node: tree_sitter.Node) -> dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]]:
        key = (node.start_byte, node.end_byte)
        if key not in self._declarations:
            table: dict[str, list[tuple[int, tree_sitter.Node, tree_sitter.Node]]] = {}
            for _i, match in treesitter.matches("cpp", "cpp_openmp_decls", node):
                if "decl" not in match:
                    continue
                declaration, declarator = match["decl"][0], match["decl.declarator"][0]
                name = _declarator_name(declarator)
                if name:
                    table.setdefault(name, []).append((declarator.start_byte, declaration, declarator))
            for entries in table.values():
                entries.sort(key=lambda e: e[0])
            self._declarations[key] = table
        return self._declarations[key]

    # -- loops and conditions ------------------------------------------------------------------

    def loops_in(self, region: Span) -> list[RawLoop]:
        node = self.nodes.get(region)
        if node is None:
            return []
        found = treesitter.captures("cpp", "cpp_openmp_loops", node).get("loop", [])
        return [self._raw_loop(n) for n in sorted(found, key=lambda n: n.start_byte)]

    def loops_around(self, span: Span) -> list[RawLoop]:
        loops = [self._raw_loop(n) for n in self._ancestors(span) if n.type in _LOOP_TYPES]
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
                    found.append(RawCondition(_span(value), _text(value), negated))
            elif node.type in ("while_statement", "do_statement", "switch_statement"):
                condition = node.child_by_field_name("condition")
                if condition is not None and child != condition:
                    value = condition.child_by_field_name("value") or condition
                    text = _text(value)
                    if node.type == "switch_statement":
                        text = f"switch({text})"  # a case of a switch: not a bound test
                    found.append(RawCondition(_span(value), text.strip("()") if node.type == "do_statement" else text))
            elif node.type == "for_statement" and self._raw_loop(node).index is None:
                condition = node.child_by_field_name("condition")
                if condition is not None:
                    found.append(RawCondition(_span(condition), _text(condition)))
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
            while parent is not None and parent.type not in _FUNCTION_TYPES:
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
        body_span = _span(body) if body is not None else None
        if node.type != "for_statement":
            kind = {"for_range_loop": "range-for", "while_statement": "while", "do_statement": "do"}[node.type]
            return RawLoop(_span(node), body_span, None, None, None, None, None, kind)
        index, lower = _for_init(node.child_by_field_name("initializer"))
        compare, upper = _for_condition(node.child_by_field_name("condition"), index)
        step = _for_step(node.child_by_field_name("update"), index)
        return RawLoop(_span(node), body_span, index, lower, upper, compare, step, "for")

    # -- device code ---------------------------------------------------------------------------

    def device_code(self, region: Span) -> list[RawAssign | RawBranch]:
        return device_code(self, region)

    def is_array(self, name: str, at_byte: int) -> bool:
        return False  # C subscripts are their own syntax: a call is a call

    # -- uses ----------------------------------------------------------------------------------

    def accesses(self, region: Span, names: frozenset[str]) -> list[Access]:
        node = self.nodes.get(region)
        if node is None:
            return []
        found = []
        pointers: dict[str, bool] = {}
        wanted = {name.encode(): name for name in names}  # compared as bytes: most identifiers are other names
        for ident in treesitter.captures("cpp", "cpp_openmp_uses", node).get("use", []):
            name = wanted.get(ident.text)
            if name is None:
                continue
            if name not in pointers:
                declared = self.declared(name, ident.start_byte)
                pointers[name] = declared is None or declared.is_array
            found.append(_classify(ident, name, node, pointers[name]))
        return [a for a in found if a is not None]


# -- association -------------------------------------------------------------------------------


def _following_statement(node: tree_sitter.Node, end: int) -> tree_sitter.Node | None:
    """The statement a pragma applies to: the next sibling that is not a comment or pragma (nor the
    rest of the pragma's own line), stepping out of `#ifdef` blocks that end right after the pragma."""
    current = node
    while current is not None:
        sibling = current.next_named_sibling
        while sibling is not None and (sibling.type in _SKIPPED_SIBLINGS or sibling.start_byte < end):
            sibling = sibling.next_named_sibling
        if sibling is not None:
            if sibling.type in _PREPROC_BLOCKS:
                return None  # the statement itself is conditionally compiled: too uncertain
            return sibling
        parent = current.parent
        if parent is None or parent.type not in _PREPROC_BLOCKS:
            return None
        current = parent if parent.type != "preproc_else" else parent.parent
    return None


def _collapse(directive: OmpDirective, source: CppOmpSource, at: int) -> int:
    clause = directive.clause("collapse")
    if clause is None or not clause.expr:
        return 1
    value = source.value(clause.expr, at)
    return value if value is not None and 1 <= value <= 8 else 1


def _associated_loops(statement: tree_sitter.Node, depth: int) -> list[tree_sitter.Node]:
    """The loop a loop construct applies to and, for `collapse(n)`, the perfectly nested ones."""
    loops: list[tree_sitter.Node] = []
    node: tree_sitter.Node | None = statement
    while node is not None and node.type in ("for_statement", "for_range_loop") and len(loops) < depth:
        loops.append(node)
        body = node.child_by_field_name("body")
        if body is not None and body.type == "compound_statement":
            inner = [c for c in body.named_children if c.type not in ("comment", "preproc_call")]
            body = inner[0] if len(inner) == 1 else None
        node = body
    return loops


# -- loops -------------------------------------------------------------------------------------


def _for_init(init: tree_sitter.Node | None) -> tuple[str | None, str | None]:
    if init is None:
        return None, None
    if init.type == "declaration":
        declarators = init.children_by_field_name("declarator")
        if len(declarators) == 1 and declarators[0].type == "init_declarator":
            name = declarators[0].child_by_field_name("declarator")
            value = declarators[0].child_by_field_name("value")
            if name is not None and name.type == "identifier" and value is not None:
                return _text(name), _text(value)
    if init.type == "assignment_expression" and _text(init.child_by_field_name("operator")) == "=":
        left = init.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            return _text(left), _text(init.child_by_field_name("right"))
    return None, None


def _for_condition(condition: tree_sitter.Node | None, index: str | None) -> tuple[str | None, str | None]:
    if condition is None or index is None or condition.type != "binary_expression":
        return None, None
    op = _text(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if op not in _COMPARISONS or left is None or right is None:
        return None, None
    if left.type == "identifier" and _text(left) == index:
        return op, _text(right)
    if right.type == "identifier" and _text(right) == index:
        return _FLIPPED[op], _text(left)
    return None, None


def _for_step(update: tree_sitter.Node | None, index: str | None) -> str | None:
    if update is None or index is None:
        return None
    if update.type == "update_expression":
        argument = update.child_by_field_name("argument")
        if _text(argument) != index:
            return None
        return "1" if "++" in _text(update) else "-1"
    if update.type == "assignment_expression":
        left = update.child_by_field_name("left")
        right = update.child_by_field_name("right")
        op = _text(update.child_by_field_name("operator"))
        if _text(left) != index or right is None:
            return None
        if op == "+=":
            return _text(right)
        if op == "-=":
            return f"-({_text(right)})"
        if op == "=" and right.type == "binary_expression":
            inner_left = right.child_by_field_name("left")
            inner_op = _text(right.child_by_field_name("operator"))
            if _text(inner_left) == index and inner_op in ("+", "-"):
                step = _text(right.child_by_field_name("right"))
                return step if inner_op == "+" else f"-({step})"
    return None


# -- declarations ------------------------------------------------------------------------------


def _declarator_name(declarator: tree_sitter.Node) -> str | None:
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type != "identifier":
        if node.type in ("function_declarator",):
            return None
        node = node.child_by_field_name("declarator")
    return _text(node) if node is not None else None


def _declared(declaration: tree_sitter.Node, declarator: tree_sitter.Node) -> Declared:
    type_text = " ".join(_text(declaration.child_by_field_name("type")).split())
    type_text = re.sub(r"^(?:std::|sycl::)", "", type_text)
    element = ARITHMETIC_SIZES.get(type_text)
    node: tree_sitter.Node | None = declarator
    upper = None
    is_array = False
    while node is not None and node.type != "identifier":
        if node.type == "init_declarator":
            node = node.child_by_field_name("declarator")
            continue
        if node.type in ("pointer_declarator", "reference_declarator", "abstract_pointer_declarator"):
            is_array = is_array or node.type == "pointer_declarator"
        elif node.type == "array_declarator":
            size = node.child_by_field_name("size")
            is_array = True
            inner = node.child_by_field_name("declarator")
            if inner is not None and inner.type == "identifier" and size is not None:
                upper = f"({_text(size)}) - 1"
        node = node.child_by_field_name("declarator") if node.child_by_field_name("declarator") is not None else (
            next((c for c in node.named_children if c.type == "identifier"), None))
    return Declared(element, "0" if is_array else None, upper, is_array)


# -- uses --------------------------------------------------------------------------------------


def _classify(ident: tree_sitter.Node, name: str, region: tree_sitter.Node, pointer: bool) -> Access | None:
    """How one identifier uses a mapped variable: read, write, read-modify-write or escape."""
    parent = ident.parent
    if parent is None:
        return None
    access = ident
    index: str | None = None
    if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == ident:
        access = parent
        while access.parent is not None and access.parent.type == "subscript_expression" \
                and access.parent.child_by_field_name("argument") == access:
            access = access.parent
        node = access
        dims = 0  # subscripts of `x[i][j]`: only a one-dimensional index is kept
        while node.type == "subscript_expression":
            dims += 1
            if node.child_by_field_name("argument") == ident:
                index = _subscript_text(node.child_by_field_name("indices"))
            node = node.child_by_field_name("argument")
        if dims != 1:
            index = None
    elif parent.type == "pointer_expression" and _text(parent.child_by_field_name("operator")) == "*":
        access = parent
    elif parent.type == "call_expression" and parent.child_by_field_name("function") == ident:
        return None  # a function that happens to share the name
    loop, conditional = _context(access, region)
    if (parent.type == "field_expression" and parent.child_by_field_name("argument") == ident) or (
            parent.type in ("declaration", "init_declarator", "parameter_declaration")
            and parent.child_by_field_name("declarator") == ident):
        # members of a mapped aggregate, or a local that shadows the name: not followed
        return Access(name, "escape", _span(access), None, False, loop, conditional)
    return Access(name, _use_kind(access, ident, pointer), _span(access), index, False, loop, conditional)


def _subscript_text(indices: tree_sitter.Node | None) -> str | None:
    """The index of `[i]` (a `subscript_argument_list`), None for `[i, j]` or nothing."""
    if indices is None:
        return None
    inner = [c for c in indices.named_children if c.type != "comment"]
    return _text(inner[0]) if len(inner) == 1 else None


def _use_kind(access: tree_sitter.Node, ident: tree_sitter.Node, pointer: bool) -> str:
    parent = access.parent
    if parent is None:
        return "read"
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == access:
        return "write" if _text(parent.child_by_field_name("operator")) == "=" else "rmw"
    if parent.type == "update_expression":
        return "rmw"
    if parent.type == "pointer_expression" and _text(parent.child_by_field_name("operator")) == "&":
        return "escape"
    if access is ident and pointer:
        if parent.type == "binary_expression" and _text(parent.child_by_field_name("operator")) in (
                "==", "!=", "<", ">", "<=", ">="):
            return "read"
        return "escape"  # a bare pointer or array: passed on, aliased or used in arithmetic
    return "read"


def _context(access: tree_sitter.Node, region: tree_sitter.Node) -> tuple[Span | None, bool]:
    """The innermost loop around a use (inside the region) and whether a condition sits in between."""
    conditional = False
    child = access
    node = access.parent
    while node is not None:
        if node.type in _LOOP_TYPES:
            body = node.child_by_field_name("body")
            if body is not None and body.start_byte <= access.start_byte and access.end_byte <= body.end_byte:
                return _span(node), conditional
        if node.type in _CONDITIONAL_TYPES and child != node.child_by_field_name("condition"):
            conditional = True
        if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) in ("&&", "||") \
                and child == node.child_by_field_name("right"):
            conditional = True
        if node == region or node.type in _FUNCTION_TYPES:
            break
        child = node
        node = node.parent
    return None, conditional


def _strip_c_comment(line: str) -> str:
    """`line` up to its first `//` or `/*` outside string literals."""
    if "/" not in line:
        return line
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "/" and line[i + 1:i + 2] in ("/", "*"):
            return line[:i]
        i += 1
    return line


# -- device code for the dependence analysis (KL501) -------------------------------------------

_GUARDING = {"if_statement": ("consequence", "alternative"), "conditional_expression": ("consequence", "alternative"),
             "switch_statement": ("body",), "for_statement": ("body",), "while_statement": ("body",),
             "do_statement": ("body",)}


def device_code(source: CppOmpSource, region: Span) -> list[RawAssign | RawBranch]:
    """Assignments and conditionals of one device region, in source order (see openmp_dependence)."""
    root = source.nodes.get(region)
    if root is None:
        return []
    assigns: list[tuple[tree_sitter.Node, RawAssign]] = []
    branches: list[tuple[tree_sitter.Node, tree_sitter.Node, str]] = []
    for _i, match in treesitter.matches("cpp", "cpp_openmp_device", root):
        if "assign" in match:
            statement = match["assign"][0]
            operator = _text(statement.child_by_field_name("operator")) if statement.type == "assignment_expression" \
                else "="
            assigns.append((statement, RawAssign(_text(match["name"][0]), _text(match["value"][0]), _span(statement),
                                                 _guards(statement, root), operator != "=")))
        elif "update" in match:
            statement = match["update"][0]
            assigns.append((statement, RawAssign(_text(match["name"][0]), None, _span(statement),
                                                 _guards(statement, root), True)))
        else:
            kind = next(k for k in ("if", "switch", "loop", "ternary") if k in match)
            branches.append((match[kind][0], match["condition"][0], kind))
    items: list[tuple[int, RawAssign | RawBranch]] = [(n.start_byte, a) for n, a in assigns]
    is_work = calls_one_of(defined_functions(root)) if branches else calls_one_of(frozenset())
    for node, condition, kind in branches:
        loops = [a for a in _ancestors_within(node, root, include_self=True) if a.type in _LOOP_TYPES]
        varying = sorted({a.name for n, a in assigns for loop in loops
                          if loop.start_byte <= n.start_byte and n.end_byte <= loop.end_byte})
        fields = _GUARDING.get(node.type, ())
        regions = tuple(_span(r) for r in (node.child_by_field_name(f) for f in fields) if r is not None)
        text = _text(condition)
        if node.type == "do_statement" and text.startswith("(") and text.endswith(")"):
            text = text[1:-1]
        is_else_if = node.type == "if_statement" and node.parent is not None and node.parent.type == "else_clause"
        items.append((node.start_byte, RawBranch(
            _span(node), _span(condition), text, "else-if" if is_else_if else kind, regions, _guards(node, root),
            tuple(varying), _chain_head(node) if is_else_if else None,
            kind == "ternary" and _select_like(node), arm_costs(node, is_work), steers_loop(node),
            rewritable(node))))
    return [item for _start, item in sorted(items, key=lambda pair: pair[0])]


def _ancestors_within(node: tree_sitter.Node, root: tree_sitter.Node, include_self: bool = False
                      ) -> list[tree_sitter.Node]:
    found = [node] if include_self else []
    current = node
    while current != root and current.parent is not None:
        current = current.parent
        found.append(current)
    return found


def _guards(node: tree_sitter.Node, root: tree_sitter.Node) -> tuple[Span, ...]:
    """The conditionals (and loops) inside `root` whose guarded part holds `node`, outermost first."""
    found: list[Span] = []
    child = node
    current = node.parent
    while current is not None and child != root:
        fields = _GUARDING.get(current.type)
        if fields and any(current.child_by_field_name(f) == child for f in fields):
            found.append(_span(current))  # (code under `else` reaches here through the else_clause)
        child = current
        current = current.parent
    return tuple(found[::-1])


def _chain_head(node: tree_sitter.Node) -> Span:
    head = node
    while head.parent is not None and head.parent.type == "else_clause" and head.parent.parent is not None:
        head = head.parent.parent
    return _span(head)


def _select_like(node: tree_sitter.Node) -> bool:
    """A ?: whose arms only compute values (no assignment, increment or call): a select."""
    for field in ("consequence", "alternative"):
        stack = [node.child_by_field_name(field)]
        while stack:
            current = stack.pop()
            if current is None:
                continue
            if current.type in ("assignment_expression", "update_expression", "call_expression"):
                return False
            stack.extend(current.named_children)
    return True
