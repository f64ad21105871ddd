"""The host flows of a Fortran file: each program unit that holds OpenMP device work, its host `do`
loops and its steps in the order they run (`kernlint.facts.host`), as the C/C++ front-end gives them.

Device steps are the unit's directives on the host: target regions (launches, with the data their
maps and implicit maps copy), `target update`, `target enter data` / `exit data` (copies) and
`taskwait` (a wait). A `call` inside a host loop of a subroutine of the file that holds device steps is
a launch through that call (one level). Around them: the host's uses of the data the device steps
touch, read and classified by the region-use analysis (`openmp_uses`) over the whole unit, outside its
target regions and its internal procedures, and clock reads (`cpu_time`, `system_clock`,
`omp_get_wtime`). A `do while` condition is placed after the loop's body, where it decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import tree_sitter

from kernlint.facts import OmpConstruct, Span
from kernlint.facts.host import HostFlow, HostLoop, HostStep
from kernlint.facts.openmp import section_bytes
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.fortran.constants import UNITS
from kernlint.frontends.fortran.openmp import FortranOmpSource

Node = tree_sitter.Node

_TIMERS = frozenset({"cpu_time", "system_clock", "omp_get_wtime", "mpi_wtime", "date_and_time"})
_CONDITIONAL = frozenset({"if_statement", "elseif_clause", "else_clause", "select_case_statement", "case_statement"})
_DECLARING = frozenset(
    {
        "variable_declaration",
        "subroutine_statement",
        "function_statement",
        "program_statement",
        "parameter_statement",
        "use_statement",
        "implicit_statement",
        "derived_type_definition",
    }
)
_TO = frozenset({"to", "tofrom"})
_FROM = frozenset({"from", "tofrom"})


def fortran_flows(
    source: FortranOmpSource, constructs: tuple[OmpConstruct, ...], loop_nodes: Iterable[Node]
) -> tuple[HostFlow, ...]:
    """The host flows of the file whose directives are `constructs` and whose host loops are `loop_nodes`."""
    # target regions by span: containment by bisection (a scan of every region per question is quadratic)
    targets = SpanIndex((c.region, c.region) for c in constructs if c.region is not None and "target" in c.leaves)
    steps: dict[int, list[tuple[int, HostStep]]] = {}
    units: dict[int, Node] = {}
    for index, construct in enumerate(constructs):
        directive = construct.directive
        if directive is None or any(r != construct.span for r in targets.containing(construct.span)):
            continue
        unit = source.unit_at((construct.span.line - 1, construct.span.column_byte))
        if unit is None:
            continue
        found = _device_steps(construct, index, constructs)
        if found:
            units[unit.id] = unit
            steps.setdefault(unit.id, []).extend((construct.span.start_byte, s) for s in found)
    if not steps:
        return ()
    host_loops = [node for node in loop_nodes if not targets.containing(source.node_span(node))]
    builder = _Builder(source, targets, host_loops)
    for unit, order, step in builder.calls(units, steps):
        units[unit.id] = unit
        steps.setdefault(unit.id, []).append((order, step))
    return tuple(
        builder.flow(units[key], items) for key, items in sorted(steps.items(), key=lambda kv: units[kv[0]].start_byte)
    )


def _device_steps(construct: OmpConstruct, index: int, constructs: tuple[OmpConstruct, ...]) -> list[HostStep]:
    directive = construct.directive
    assert directive is not None
    kind = directive.kind
    if kind == "taskwait":
        return [HostStep(construct.span, "wait", "!$omp taskwait", construct=index, waits_all=True)]
    if kind == "target update":
        blocking = not directive.has("nowait")
        return [
            _motion(construct, index, item.name.lower(), item.text, clause.name, blocking, constructs)
            for clause in directive.clauses
            if clause.name in ("to", "from")
            for item in clause.items
        ]
    if kind in ("target enter data", "target exit data"):
        wanted, way = (_TO, "to") if kind == "target enter data" else (_FROM, "from")
        return [
            _motion(construct, index, m.item.name.lower(), m.item.text, way, True, constructs)
            for m in directive.map_items
            if m.map_type in wanted
        ]
    if "target" in construct.leaves and kind != "target data" and not directive.is_end:
        reads = {m.item.name.lower(): None for m in directive.map_items if m.map_type in _TO or m.map_type is None}
        writes = {m.item.name.lower(): None for m in directive.map_items if m.map_type in _FROM or m.map_type is None}
        for implicit in construct.implicit_maps:
            reads[implicit.name] = writes[implicit.name] = None
        return [
            HostStep(
                construct.span,
                "launch",
                f"!$omp {kind}",
                tuple(reads),
                tuple(writes),
                construct=index,
                blocking=not directive.has("nowait"),
            )
        ]
    return []


def _motion(
    construct: OmpConstruct,
    index: int,
    name: str,
    text: str,
    way: str,
    blocking: bool,
    constructs: tuple[OmpConstruct, ...],
) -> HostStep:
    return HostStep(
        construct.locate(text),
        "copy",
        f"!$omp {construct.kind} {way}({text})",
        (name,) if way == "to" else (),
        (name,) if way == "from" else (),
        direction="to-device" if way == "to" else "to-host",
        bytes=section_bytes(constructs, text),
        size_text=text,
        construct=index,
        blocking=blocking,
    )


class _Builder:
    def __init__(self, source: FortranOmpSource, targets: SpanIndex[Span], loops: list[Node]) -> None:
        self.source = source
        self.targets = targets
        self.loops = loops

    def calls(
        self, units: dict[int, Node], steps: dict[int, list[tuple[int, HostStep]]]
    ) -> list[tuple[Node, int, HostStep]]:
        """`call s(…)` in a host loop, `s` a subroutine of the file holding device steps: a launch
        through the call when `s` does not wait itself, else an opaque call."""
        by_name = {_unit_name(node): key for key, node in units.items() if _unit_name(node)}
        found = []
        for loop in self.loops:
            span = self.source.node_span(loop)
            for call in self.source.captures_in("fortran_host_calls", span).get("call", []):
                if call.type != "subroutine_call":
                    continue
                name = text_of(call.named_children[0]).lower() if call.named_children else ""
                key = by_name.get(name)
                unit = self.source.unit_at(call.start_point)
                if key is None or unit is None or unit.id == key:
                    continue
                opaque = any(step.kind == "wait" for _order, step in steps[key])
                arguments = next((c for c in call.named_children if c.type == "argument_list"), None)
                names = tuple(
                    text_of(a).lower() if a.type == "identifier" else None
                    for a in (arguments.named_children if arguments is not None else [])
                )
                data = tuple(n for n in names if n)
                step = HostStep(
                    self.source.node_span(call),
                    "call" if opaque else "launch",
                    f"call {name}(…)",
                    data,
                    data,
                    callee=name,
                    arguments=names,
                )
                found.append((unit, call.start_byte, step))
        return found

    def flow(self, unit: Node, items: list[tuple[int, HostStep]]) -> HostFlow:
        unit_span = self.source.node_span(unit)
        inner = [self.source.node_span(n) for n in _internal_units(unit)]
        names = frozenset(n for _o, s in items for n in (*s.reads, *s.writes))
        covers = SpanIndex((r, r) for r in inner + [s.span for _o, s in items if s.callee is not None])
        for access in self.source.accesses(unit_span, names) if names else []:
            span = access.span
            if self.targets.containing(span) or covers.containing(span) or self._declares(span):
                continue
            reads = (access.name,) if access.kind != "write" else ()
            writes = (access.name,) if access.kind != "read" else ()
            items.append((span.start_byte, HostStep(span, "use", access.name, reads, writes)))
        for call in self.source.captures_in("fortran_host_calls", unit_span).get("call", []):
            name = text_of(call.named_children[0]).lower() if call.named_children else ""
            span = self.source.node_span(call)
            if name in _TIMERS and not (self.targets.containing(span) or any(r.contains(span) for r in inner)):
                items.append((span.start_byte, HostStep(span, "timer", name)))
        loops = [
            n
            for n in self.loops
            if unit.start_byte <= n.start_byte < unit.end_byte
            and not any(r.contains(self.source.node_span(n)) for r in inner)
            and any(s.kind != "use" and n.start_byte <= o < n.end_byte for o, s in items)
        ]
        loops.sort(key=lambda n: n.start_byte)
        placed = []
        for order, step in items:
            around = [i for i, n in enumerate(loops) if n.start_byte <= step.span.start_byte < n.end_byte]
            around.sort(key=lambda i: loops[i].start_byte, reverse=True)
            if around and step.kind == "use":
                header = loops[around[0]].named_children[0] if loops[around[0]].named_children else None
                if header is not None and header.start_byte <= step.span.start_byte < header.end_byte:
                    order = loops[around[0]].end_byte  # a `do while` condition decides after the body
            node = self.source.root.descendant_for_byte_range(step.span.start_byte, step.span.start_byte + 1)
            stop = loops[around[0]] if around else unit
            placed.append(
                ((order, step.span.start_byte), replace(step, loops=tuple(around), conditional=_guarded(node, stop)))
            )
        placed.sort(key=lambda pair: pair[0])
        statement = unit.named_children[0] if unit.named_children else None
        parameters = next((c for c in statement.named_children if c.type == "parameters"), None) if statement else None
        return HostFlow(
            _unit_name(unit),
            unit_span,
            tuple(text_of(p).lower() for p in (parameters.named_children if parameters is not None else [])),
            tuple(self._loop(n) for n in loops),
            tuple(step for _key, step in placed),
        )

    def _declares(self, span: Span) -> bool:
        """Whether `span` lies in a declaration or a unit's opening statement (not a use)."""
        node = self.source.root.descendant_for_byte_range(span.start_byte, span.start_byte + 1)
        while node is not None and node.type not in UNITS:
            if node.type in _DECLARING:
                return True
            node = node.parent
        return False

    def _loop(self, node: Node) -> HostLoop:
        raw = self.source.raw_loop(node)
        return HostLoop(raw.span, raw.kind if raw.index is not None else "while", self.source.trips(node), raw.upper)


def _guarded(node: Node | None, stop: Node) -> bool:
    while node is not None and node != stop and node.type not in UNITS:
        if node.type in _CONDITIONAL:
            return True
        node = node.parent
    return False


def _internal_units(unit: Node) -> list[Node]:
    found = []
    stack = list(unit.named_children)
    while stack:
        node = stack.pop()
        if node.type in UNITS:
            found.append(node)
        elif node.type in ("internal_procedures", "module_procedures"):
            stack.extend(node.named_children)
    return found


def _unit_name(unit: Node) -> str | None:
    statement = unit.named_children[0] if unit.named_children else None
    name = statement.child_by_field_name("name") if statement is not None else None
    if name is None and statement is not None:
        name = next((c for c in statement.named_children if c.type == "name"), None)
    return text_of(name).lower() if name is not None else None
