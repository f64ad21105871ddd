"""OpenMP constructs of a Fortran file: each `!$omp` directive with the loop or block it applies to.

To tree-sitter-fortran a directive is a comment, so directives are found line by line (with their
continuations) by the shared scanner, and associated by position: a loop construct applies to the
`do` loop on the next code line, a block construct (`target data`, `target`, `parallel` …) to the
lines up to its `!$omp end …`. Everything language-neutral is decided by `openmp.facts`; this module
answers its questions from the tree, running the `fortran_*.scm` queries over one region at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property, partial

import tree_sitter

from kernlint.facts import Span
from kernlint.facts.kinds import BranchKind
from kernlint.facts.openmp_directive import OmpDirective, OmpParseError
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of as _text
from kernlint.frontends.fortran.arms import arm_costs, do_trips
from kernlint.frontends.fortran.constants import UNITS, FortranConstants
from kernlint.frontends.fortran.declarations import declarations
from kernlint.frontends.fortran.memory import region_array_accesses
from kernlint.frontends.fortran.openmp_uses import FortranUses
from kernlint.frontends.fortran.procedures import file_procedures, procedure_calls, raw_procedure
from kernlint.frontends.fortran.source import LineMap
from kernlint.frontends.openmp.dependence import BranchShape, RawAssign, RawBranch, RawCall, RawFunction
from kernlint.frontends.openmp.directives import parse_directive
from kernlint.frontends.openmp.expr import Expr, Scope, linear_text, parse
from kernlint.frontends.openmp.facts import (
    Access,
    Located,
    RawCondition,
    RawLoop,
    has_region,
    is_loop_construct,
)
from kernlint.frontends.openmp.lanes import scaling_of
from kernlint.frontends.openmp.locate import TextLocator
from kernlint.frontends.openmp.maps import Declared
from kernlint.frontends.openmp.memory import RawArrayAccess
from kernlint.frontends.openmp.source import code_end

Point = tuple[int, int]

#: The query's capture names for conditionals, as branch kinds (every other capture is a loop).
_BRANCH_KINDS: dict[str, BranchKind] = {"if": "if", "elseif": "else-if", "switch": "switch"}


class FortranOmpSource:
    """The Fortran answers to `kernlint.frontends.openmp.facts.OmpSource`."""

    fortran = True

    def __init__(
        self,
        root: tree_sitter.Node,
        lines: list[str],
        code_lines: list[str],
        linemap: LineMap,
        constants: FortranConstants,
        directives: list[tuple[int, int, str]],
        fixed_form: bool,
    ) -> None:
        self.root = root
        self.lines = lines  # original text lines
        self.code_lines = code_lines  # the parsed (normalised) lines
        self.linemap = linemap
        self.constants = constants
        self.directives = directives
        self.fixed_form = fixed_form
        self._units: dict[tuple[int, int], dict] = {}
        self._uses: FortranUses | None = None
        self.locator = TextLocator(lines, linemap.starts, fold=True)
        self._raw_loops: dict[int, RawLoop] = {}

    # -- positions -----------------------------------------------------------------------------

    def span(self, start: Point, end: Point) -> Span:
        return Span(self.linemap.offset(*start), self.linemap.offset(*end), start[0] + 1, start[1], end[0] + 1, end[1])

    def node_span(self, node: tree_sitter.Node) -> Span:
        return self.span(node.start_point, node.end_point)

    def point(self, offset: int) -> Point:
        return self.linemap.point(offset)

    # -- directives ----------------------------------------------------------------------------

    def located(self) -> list[Located]:
        parsed = []
        for start, end, text in self.directives:
            directive = parse_directive(text, language="fortran", line=start, end_line=end)
            parsed.append((start, end, directive))
        found = []
        for position, (start, end, directive) in enumerate(parsed):
            span = self._directive_span(start, end)
            region: Span | None = None
            loops: tuple[Span, ...] = ()
            if isinstance(directive, OmpDirective) and has_region(directive):
                if is_loop_construct(directive):
                    statement = self._statement_after(end)
                    if statement is not None and statement.type == "do_loop":
                        region = self.node_span(statement)
                        loops = tuple(
                            self.node_span(n) for n in _associated_loops(statement, self._collapse(directive, span))
                        )
                else:
                    close = _matching_end(parsed, position)
                    if close is not None and close - 1 > end:
                        last = close - 2  # 0-based row of the line before the end directive
                        region = self.span((end, 0), (last, len(self.code_lines[last].encode("utf-8"))))
            found.append(Located(span, directive, region, loops, *self._append_at(end)))
        return found

    def _directive_span(self, start: int, end: int) -> Span:
        first = self.lines[start - 1]
        column = len(first) - len(first.lstrip())
        last = self.lines[end - 1].rstrip()
        return self.span((start - 1, len(first[:column].encode("utf-8"))), (end - 1, len(last.encode("utf-8"))))

    def _append_at(self, end: int) -> tuple[Span, int]:
        line = self.lines[end - 1]
        indent = len(line) - len(line.lstrip())
        code = line[: code_end(line, indent + 5)].rstrip()
        column = len(code.encode("utf-8"))
        return self.span((end - 1, column), (end - 1, column)), (72 if self.fixed_form else 132)

    def _collapse(self, directive: OmpDirective, span: Span) -> int:
        clause = directive.clause("collapse")
        value = self.value(clause.expr, span.start_byte) if clause is not None and clause.expr else 1
        return value if value is not None and 1 <= value <= 8 else 1

    def _statement_after(self, end: int) -> tree_sitter.Node | None:
        """The statement on the first code line after 1-based line `end` (comments, blank lines,
        other directives and preprocessor lines skipped)."""
        for row in range(end, len(self.code_lines)):
            stripped = self.code_lines[row].strip()
            if not stripped or stripped.startswith(("!", "#")):
                continue
            line = self.code_lines[row]
            column = len(line[: len(line) - len(line.lstrip())].encode("utf-8"))
            node = self.root.named_descendant_for_point_range((row, column), (row, column + 1))
            while (
                node is not None
                and node.parent is not None
                and node.parent.start_point == node.start_point
                and node.parent.type != "translation_unit"
            ):
                node = node.parent
            return node
        return None

    # -- meaning of names ----------------------------------------------------------------------

    def value(self, text: str, at_byte: int) -> int | None:
        point = self.point(at_byte)
        value = self.constants.value(text, point)
        if value is None:
            result = linear_text(text, fortran=True, scope=self.scope(at_byte))
            value = result.constant if result is not None and result.is_constant else None
        return value

    def scope(self, at_byte: int) -> Scope:
        point = self.point(at_byte)
        return Scope(lambda name: self.constants.known(name, point), lambda name: self.definition(name, point))

    def definition(self, name: str, point: Point) -> Expr | None:
        """The right side of a variable's only assignment in its program unit, when it comes first."""
        table = self.unit_table(point)
        if table is None:
            return None
        assignments = table["assigned"].get(name.lower(), [])
        if len(assignments) != 1 or assignments[0][0] >= point:
            return None
        return parse(assignments[0][1], fortran=True)

    def declared(self, name: str, at_byte: int) -> Declared | None:
        table = self.unit_table(self.point(at_byte))
        declaration = table["declared"].get(name.lower()) if table is not None else None
        if declaration is not None:
            return replace(declaration, local=True)
        return self._file_table()["declared"].get(name.lower())

    def varying_in(self, region: Span) -> frozenset[str] | None:
        table = self.unit_table((region.line - 1, region.column_byte))
        if table is None:
            return None
        start, end = (region.line - 1, region.column_byte), (region.end_line - 1, region.end_column_byte)
        return frozenset(  # assignments, not `do` controls (which have no right-hand side)
            name
            for name, entries in table["assigned"].items()
            if any(start <= at < end and text for at, text in entries)
        )

    def unit_of(self, span: Span) -> Span | None:
        unit = self.unit_at(self.point(span.start_byte))
        return self.node_span(unit) if unit is not None else None

    def pointer_members(self, type_name: str) -> tuple[str, ...]:
        return ()  # derived types' pointer components are not read yet

    def device_pointers(self) -> frozenset[str]:
        return frozenset()

    def unit_at(self, point: Point) -> tree_sitter.Node | None:
        node = self.root.named_descendant_for_point_range(point, (point[0], point[1] + 1))
        while node is not None and node.type not in UNITS:
            node = node.parent
        return node

    def unit_table(self, point: Point) -> dict | None:
        unit = self.unit_at(point)
        return self.table(unit) if unit is not None else None

    def _file_table(self) -> dict:
        return self.table(self.root)

    def table(self, node: tree_sitter.Node) -> dict:
        key = (node.start_byte, node.end_byte)
        if key not in self._units:
            assigned: dict[str, list[tuple[Point, str]]] = {}
            declared: dict[str, Declared] = {}
            captures = treesitter.captures("fortran", "fortran_decls", node)
            for ident in captures.get("assigned", []):
                statement = ident.parent
                right = statement.child_by_field_name("right") if statement is not None else None
                assigned.setdefault(_text(ident).lower(), []).append(
                    (
                        ident.start_point,
                        _text(right)
                        if right is not None and statement is not None and statement.type == "assignment_statement"
                        else "",
                    )
                )
            for declaration in captures.get("decl", []):
                for name, info in declarations(declaration, self.constants):
                    declared.setdefault(name, info)
            self._units[key] = {"assigned": assigned, "declared": declared}
        return self._units[key]

    # -- loops and conditions ------------------------------------------------------------------

    def _in_region(self, query: str, region: Span) -> list[tree_sitter.Node]:
        nodes = [n for ns in self.captures_in(query, region).values() for n in ns]
        return sorted(nodes, key=lambda n: n.start_byte)

    def captures_in(self, query: str, region: Span) -> dict[str, list[tree_sitter.Node]]:
        """The query's captures that lie inside `region`, by capture name, each list in source order
        (a preprocessor line counts when it starts inside: its node ends on the next line)."""
        start = (region.line - 1, region.column_byte)
        end = (region.end_line - 1, region.end_column_byte)
        return {
            name: sorted(
                (
                    n
                    for n in nodes
                    if start <= n.start_point
                    and (n.end_point <= end or (n.type.startswith("preproc") and n.start_point < end))
                ),
                key=lambda n: n.start_byte,
            )
            for name, nodes in treesitter.raw_captures("fortran", query, self.root, (start, end)).items()
        }

    def loops_in(self, region: Span) -> list[RawLoop]:
        return [self._raw_loop(n) for n in self._in_region("fortran_loops", region)]

    def _node_at(self, span: Span) -> tree_sitter.Node | None:
        """The node of a directive's first character (its comment)."""
        point = (span.line - 1, span.column_byte)
        return self.root.descendant_for_point_range(point, (point[0], point[1] + 1))

    def _ancestors(self, span: Span) -> list[tree_sitter.Node]:
        node = self._node_at(span)
        out = []
        parent = node.parent if node is not None else None
        while parent is not None and parent.type not in UNITS:
            out.append(parent)
            parent = parent.parent
        return out

    def loops_around(self, span: Span) -> list[RawLoop]:
        return [self._raw_loop(n) for n in self._ancestors(span) if n.type == "do_loop"][::-1]

    def conditions_around(self, span: Span) -> list[RawCondition]:
        found: list[RawCondition] = []
        child = self._node_at(span)
        for node in self._ancestors(span):
            if node.type in ("if_statement", "elseif_clause"):
                condition = next((c for c in node.named_children if c.type == "parenthesized_expression"), None)
                if condition is not None and child != condition:
                    negated = (
                        node.type == "if_statement"
                        and child is not None
                        and child.type in ("elseif_clause", "else_clause")
                    )
                    found.append(RawCondition(self.node_span(condition), _text(condition), negated))
            elif node.type == "select_case_statement":
                selector = next((c for c in node.named_children if c.type == "selector"), None)
                if selector is not None:
                    found.append(RawCondition(self.node_span(selector), f"select{_text(selector)}"))
            elif node.type == "do_loop":
                statement = node.named_children[0] if node.named_children else None
                condition = _while_condition(statement)
                if condition is not None:
                    found.append(RawCondition(self.node_span(condition), _text(condition)))
            child = node
        return found[::-1]

    def _trips(self, node: tree_sitter.Node) -> int | None:
        raw = self._raw_loop(node)
        return do_trips(raw.lower, raw.upper, raw.step, lambda text: self.value(text, raw.span.start_byte))

    def raw_loop(self, node: tree_sitter.Node) -> RawLoop:
        """A `do` loop's control as written (the host flows read host loops' bounds with it)."""
        return self._raw_loop(node)

    def trips(self, node: tree_sitter.Node) -> int | None:
        """How many times a `do` loop's body runs, when its control says so with constants."""
        return self._trips(node)

    def _raw_loop(self, node: tree_sitter.Node) -> RawLoop:
        """A loop read once: nested regions and the directives inside them see the same loops."""
        found = self._raw_loops.get(node.id)
        if found is None:
            found = self._raw_loops[node.id] = self._read_loop(node)
        return found

    def _read_loop(self, node: tree_sitter.Node) -> RawLoop:
        statement = next((c for c in node.named_children if c.type == "do_statement"), None)
        end = next((c for c in node.named_children if c.type.startswith("end_do")), None)
        body = None
        if statement is not None:
            body = self.span(statement.end_point, end.start_point if end is not None else node.end_point)
        control = (
            next((c for c in statement.named_children if c.type == "loop_control_expression"), None)
            if statement is not None
            else None
        )
        if control is None:
            return RawLoop(self.node_span(node), body, None, None, None, None, None, "while")
        parts = [c for c in control.named_children if c.type != "comment"]
        index = _text(parts[0]).lower() if parts and parts[0].type == "identifier" else None
        lower = _text(parts[1]) if len(parts) > 1 else None
        upper = _text(parts[2]) if len(parts) > 2 else None
        step = _text(parts[3]) if len(parts) > 3 else None
        compare: str | None = "<="
        if step is not None:
            value = self.value(step, self.linemap.offset(*control.start_point))
            compare = ">=" if value is not None and value < 0 else ("<=" if value is not None and value > 0 else None)
        return RawLoop(self.node_span(node), body, index, lower, upper, compare, step, "for")

    # -- device code ---------------------------------------------------------------------------

    def is_array(self, name: str, at_byte: int) -> bool:
        declared = self.declared(name, at_byte)
        return declared is not None and declared.is_array

    def declared_in(self, region: Span) -> frozenset[str] | None:
        return None  # declarations sit at the top of the unit: which names a team shares needs the clauses

    def calls(self, region: Span) -> list[RawCall]:
        if not self._procedures:
            return []
        start = (region.line - 1, region.column_byte)
        end = (region.end_line - 1, region.end_column_byte)
        return procedure_calls(
            self.root,
            start,
            end,
            self._procedures,
            lambda name, call: self.is_array(name, self.linemap.offset(*call.start_point)),
            lambda call: (self.node_span(call), self._guards(call, start)),
        )

    def function(self, name: str) -> RawFunction | None:
        return raw_procedure(name.lower(), self._procedures.get(name.lower(), []), self.span)

    @cached_property
    def _procedures(self) -> dict[str, list[tree_sitter.Node]]:
        return file_procedures(self.root)

    def device_code(self, region: Span) -> list[RawAssign | RawBranch]:
        """Assignments and conditionals of one device region, in source order (for
        `kernlint.frontends.openmp.dependence`)."""
        start = (region.line - 1, region.column_byte)
        end = (region.end_line - 1, region.end_column_byte)
        assigns: list[tuple[tree_sitter.Node, RawAssign]] = []
        branches: list[tuple[tree_sitter.Node, tree_sitter.Node | None, str]] = []
        loops: list[tree_sitter.Node] = []
        for _i, match in treesitter.matches("fortran", "fortran_device", self.root, (start, end)):
            node = next(iter(match[k][0] for k in ("assign", "if", "elseif", "switch", "loop") if k in match))
            if not (start <= node.start_point and node.end_point <= end):
                continue
            if "assign" in match:
                assigns.append(
                    (
                        node,
                        RawAssign(
                            _text(match["name"][0]).lower(),
                            _text(match["value"][0]),
                            self.node_span(node),
                            self._guards(node, start),
                            scaling=scaling_of(_text(match["name"][0]), _text(match["value"][0])),
                        ),
                    )
                )
            elif "loop" in match:
                loops.append(node)
            else:
                kind: str = next(k for k in ("if", "elseif", "switch") if k in match)
                branches.append((node, match["condition"][0], kind))
        items: list[tuple[tree_sitter.Point, RawAssign | RawBranch]] = [(n.start_point, a) for n, a in assigns]
        for node in loops:
            raw = self._raw_loop(node)
            statement = node.named_children[0] if node.named_children else None
            if raw.index is not None and raw.lower is not None and statement is not None:
                items.append(
                    (
                        node.start_point,
                        RawAssign(raw.index, raw.lower, self.node_span(statement), self._guards(node, start)),
                    )
                )
            if raw.index is not None and raw.upper is not None and raw.compare is not None:
                control = (
                    next((c for c in statement.named_children if c.type == "loop_control_expression"), statement)
                    if statement is not None
                    else None
                )
                text, condition = f"{raw.index} {raw.compare} ({raw.upper})", control
            else:
                condition = _while_condition(statement)
                text = _text(condition)
            if condition is not None and statement is not None:
                branches.append((node, condition, "loop:" + text))
        for node, condition, kind in branches:
            assert condition is not None
            around = [a for a in _ancestors_within(node, start, include_self=True) if a.type == "do_loop"]
            varying = sorted(
                {
                    a.name
                    for n, a in assigns
                    for loop in around
                    if loop.start_byte <= n.start_byte and n.end_byte <= loop.end_byte
                }
                | {self._raw_loop(loop).index or "" for loop in around} - {""}
            )
            text = kind[5:] if kind.startswith("loop:") else _text(condition)
            region_span = self.span(condition.end_point, node.end_point)
            items.append(
                (
                    node.start_point,
                    RawBranch(
                        self.node_span(node),
                        self.node_span(condition),
                        text,
                        _BRANCH_KINDS.get(kind, "loop"),
                        (region_span,),
                        self._guards(node, start),
                        tuple(varying),
                        self.node_span(node.parent) if kind == "elseif" and node.parent is not None else None,
                        shape=partial(_shape, node, self._trips),
                    ),
                )
            )
        return [item for _p, item in sorted(items, key=lambda pair: pair[0])]

    def _guards(self, node: tree_sitter.Node, start: Point) -> tuple[Span, ...]:
        """The conditionals (and loops) inside the region whose guarded part holds `node`."""
        found: list[Span] = []
        child = node
        current = node.parent
        while current is not None and current.start_point >= start and current.type not in UNITS:
            if current.type in ("if_statement", "elseif_clause", "select_case_statement") and child.type not in (
                "parenthesized_expression",
                "selector",
            ):
                found.append(self.node_span(current))  # (an else-if also runs under its if's test)
            elif current.type == "do_loop" and child.type != "do_statement":
                found.append(self.node_span(current))
            child = current
            current = current.parent
        return tuple(found[::-1])

    # -- uses ----------------------------------------------------------------------------------

    def array_accesses(self, region: Span) -> list[RawArrayAccess]:
        return region_array_accesses(self, region)

    def referenced(self, region: Span) -> frozenset[str]:
        return frozenset(_text(n).lower() for n in self.captures_in("fortran_uses", region).get("use", []))

    def accesses(self, region: Span, names: frozenset[str]) -> list[Access]:
        if self._uses is None:
            self._uses = FortranUses(self)
        return self._uses.accesses(region, names)


def _ancestors_within(node: tree_sitter.Node, start: Point, include_self: bool = False) -> list[tree_sitter.Node]:
    found = [node] if include_self else []
    current = node.parent
    while current is not None and current.start_point >= start and current.type not in UNITS:
        found.append(current)
        current = current.parent
    return found


def _matching_end(parsed: list[tuple[int, int, OmpDirective | OmpParseError]], position: int) -> int | None:
    """The 1-based first line of the `end` directive closing the block directive at `position`."""
    kind = parsed[position][2].kind  # type: ignore[union-attr]
    depth = 0
    for start, _end, other in parsed[position + 1 :]:
        if not isinstance(other, OmpDirective):
            continue
        if other.kind == kind:
            depth += 1
        elif other.kind == "end " + kind:
            if depth == 0:
                return start
            depth -= 1
    return None


def _associated_loops(loop: tree_sitter.Node, depth: int) -> list[tree_sitter.Node]:
    """The loop of a loop construct and, with `collapse(n)`, the perfectly nested ones."""
    loops = [loop]
    while len(loops) < depth:
        inner = [
            c
            for c in loops[-1].named_children
            if c.type not in ("do_statement", "comment") and not c.type.startswith("end_do")
        ]
        if len(inner) != 1 or inner[0].type != "do_loop":
            break
        loops.append(inner[0])
    return loops


def _shape(node: tree_sitter.Node, trips: Callable[[tree_sitter.Node], int | None]) -> BranchShape:
    """What a Fortran construct's arms cost (asked only of divergent ones)."""
    return BranchShape(arms=arm_costs(node, trips))


def _while_condition(statement: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The parenthesised test of a `do while (…)` statement, None for any other `do`."""
    if statement is None:
        return None
    loop_while = next((c for c in statement.named_children if c.type == "while_statement"), None)
    if loop_while is None:
        return None
    return next((c for c in loop_while.named_children if c.type == "parenthesized_expression"), None)
