"""The host flows of a C/C++ file: each function that holds device work, its host loops and its steps.

Device steps come from `steps`; this module adds what happens on the host around them: calls of the
file's functions that submit device work (followed one level), clock reads, and every use the host
makes of data a device step touches, each in the order it runs. A loop's condition and increment are
placed after its body, where they decide whether to go round again; a `for` initialiser runs before.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

import tree_sitter

from kernlint.facts import Accessor, OmpConstruct, QueueConstruction, Span
from kernlint.facts.host import HostFlow, HostLoop, HostStep, UsmAllocation
from kernlint.facts.kinds import LoopKind
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common.nodes import arguments_of, inside_any, span_of, text_of
from kernlint.frontends.cpp.callees import Callees, parameters
from kernlint.frontends.cpp.host import calls_in_loops, loop_fact
from kernlint.frontends.cpp.hostflow.access import base_name, effect
from kernlint.frontends.cpp.hostflow.declarations import Declarations, declarator_name, word_positions
from kernlint.frontends.cpp.hostflow.steps import Found, StepReader
from kernlint.frontends.cpp.hostflow.usm import usm_allocation
from kernlint.frontends.cpp.openmp.nodes import CONDITIONAL_TYPES
from kernlint.frontends.cpp.openmp.syntax import for_condition, for_init
from kernlint.frontends.cpp.syntax import function_declarator, last_name
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

#: Calls that read a clock (or a timer object): a wait before one is timing a kernel on purpose. Any
#: call whose name says time, timer, clock or elapsed counts too (`wkf_timer_stop`, `StartTimer`).
TIMERS = frozenset(
    {
        "now",
        "omp_get_wtime",
        "MPI_Wtime",
        "gettimeofday",
        "clock_gettime",
        "clock",
        "get_time",
        "getTime",
        "wtime",
        "mysecond",
        "get_profiling_info",
        "sdkStartTimer",
        "sdkStopTimer",
        "sdkGetTimerValue",
        "start",
        "stop",
        "elapsed",
        "Elapsed",
        "elapsed_time",
        "tic",
        "toc",
        "__rdtsc",
    }
)
#: Where a clock's name may be: a known one, or one that says time, clock or elapsed (expanded to the
#: whole identifier around the match, then checked to be called).
_TIMER_WORD = re.compile(
    rb"\b(?:" + b"|".join(sorted(t.encode() for t in TIMERS)) + rb")\b|[Tt]ime|TIME|[Cc]lock|[Ee]lapsed"
)
_CALLED = re.compile(rb"\s*(?:<[^;()]*>\s*)?\(")
_PREPROCESSOR_ARMS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
_ACCUMULATE = frozenset({"+=", "-=", "*=", "|=", "&=", "^="})


def host_flows(
    unit: CppUnit,
    members: list[tuple[str, Node]],
    host_calls: list[tuple[Node, Node]],
    host_loops: list[tuple[LoopKind, Node]],
    accessors: Iterable[Accessor],
    queues: Iterable[QueueConstruction],
    constructs: tuple[OmpConstruct, ...],
    in_device: Callable[[Node], bool],
) -> tuple[tuple[HostFlow, ...], tuple[UsmAllocation, ...]]:
    """The file's host flows and USM allocations."""
    built = [q for q in queues if q.name]
    ordered = {q.name for q in built if any("in_order" in a for a in q.arguments)}
    every = bool(built) and len(ordered) == len(built)

    def in_order(queue: str | None) -> bool:
        """Whether work on `queue` runs in submission order: an in-order queue of the file, or any queue
        the file did not build (a parameter) or no named one when every queue it builds is in order."""
        return queue in ordered or (every and (queue is None or queue not in {q.name for q in built}))

    functions = unit.functions(prototypes=True)
    declarations = Declarations(unit, [node for nodes in functions.values() for node in nodes])
    usm = tuple(a for call, callee in host_calls if (a := usm_allocation(unit, declarations, call, callee)))
    callees = Callees(functions, unit.macros, by_reference=not unit.path.endswith(".c"))
    in_loop = inside_any([span_of(node) for _kind, node in host_loops])
    usm_kinds: dict[str, str] = {a.name: a.kind for a in usm if a.name}
    reader = StepReader(unit, declarations, callees, usm_kinds, in_device, in_loop, in_order)
    waits = [call for call, callee in host_calls if last_name(text_of(callee)).startswith("wait")]
    targets = SpanIndex((c.region, c.region) for c in constructs if c.region is not None and "target" in c.leaves)

    def in_target(span: Span) -> bool:
        return any(region != span for region in targets.containing(span))

    found = reader.sycl_steps(members, waits, accessors) + reader.openmp_steps(constructs, in_target)
    if not found:
        return (), usm
    builder = _FlowBuilder(unit, reader, host_loops, in_device, usm)
    return builder.flows(found), usm


class _FlowBuilder:
    def __init__(
        self,
        unit: CppUnit,
        reader: StepReader,
        host_loops: list[tuple[LoopKind, Node]],
        in_device: Callable[[Node], bool],
        usm: tuple[UsmAllocation, ...],
    ) -> None:
        self.usm = usm
        # a kernel may write partial results per work-group through a device function of the file
        self._groups_anywhere = b"get_group" in unit.data
        self.unit = unit
        self.reader = reader
        self.host_loops = host_loops
        self.in_device = in_device
        self._timed: dict[int, bool] = {}

    def flows(self, found: list[Found]) -> tuple[HostFlow, ...]:
        by_function: dict[int, list[Found]] = {}
        functions: dict[int, Node] = {}
        for item in found:
            by_function.setdefault(item.function.id, []).append(item)
            functions[item.function.id] = item.function
        names = {name: key for key, node in functions.items() if (name := _name(node)) is not None}
        # A call of a function that submits work matters to KL701 (one call level into a target region)
        # in any loop, and to the waits of a flow asked for anyway; without OpenMP, only the latter.
        openmp = any(f.step.construct is not None for f in found)
        callers = None if openmp else [functions[key] for key, items in by_function.items() if self._asked(items)]
        for item in self._calls(names, by_function, callers):
            by_function.setdefault(item.function.id, []).append(item)
            functions[item.function.id] = item.function
        flows = [self._flow(functions[key], items) for key, items in by_function.items() if self._asked(items)]
        return tuple(sorted(flows, key=lambda flow: flow.span.start_byte))

    def _asked(self, items: list[Found]) -> bool:
        """Whether a rule can ask anything of this function's flow: a wait, an OpenMP copy or a call in
        a host loop, an OpenMP target region, copies back and out of the same host data, a copy back of
        what a kernel indexed by work-group wrote, or shared USM. Other functions get no flow: reading
        their host code would cost time for no finding."""
        back = {n for f in items if f.step.kind == "copy" and f.step.direction == "to-host" for n in f.step.writes}
        out = {n for f in items if f.step.kind == "copy" and f.step.direction == "to-device" for n in f.step.reads}
        sources = {n for f in items if f.step.kind == "copy" and f.step.direction == "to-host" for n in f.step.reads}
        for f in items:
            step = f.step
            if step.kind == "launch" and step.construct is not None:
                return True  # an OpenMP target region: in a loop, or in a function called from one
            waits = step.kind in ("wait", "call") or (step.kind == "copy" and step.construct is not None)
            if (waits or step.callee is not None) and self.reader.in_loop(f.node):
                return True
            if step.kind == "launch" and sources and b"get_group" in (f.node.text or b""):
                return True
        function = items[0].function
        shared = any(
            a.kind == "shared" and function.start_byte <= a.span.start_byte < function.end_byte for a in self.usm
        )
        return bool(back & out) or shared or (bool(sources) and self._groups_anywhere)

    # -- calls of functions that hold device work ------------------------------------------------

    def _calls(
        self, names: dict[str, int], by_function: dict[int, list[Found]], callers: list[Node] | None
    ) -> list[Found]:
        """Calls, inside host loops (of `callers` when given), of the file's functions that hold device
        steps: a launch when the function only submits work, an opaque call when it also waits or
        reads a clock."""
        loops = [
            span_of(node)
            for _kind, node in self.host_loops
            if callers is None or any(f.start_byte <= node.start_byte < f.end_byte for f in callers)
        ]
        called = set(names) - {"main"}  # nothing calls `main`
        found: list[Found] = []
        if not loops or not called:
            return found
        for call in calls_in_loops(self.unit, called, loops, self.in_device):
            node = self.unit.root.descendant_for_byte_range(call.span.start_byte, call.span.end_byte)
            while node is not None and node.type != "call_expression":
                node = node.parent
            function = node
            while function is not None and function.type != "function_definition":
                function = function.parent
            if node is None or function is None or names[call.callee] == function.id:
                continue
            steps = [f.step for f in by_function[names[call.callee]]]
            opaque = any(step.kind in ("wait", "call") for step in steps) or self._times(
                by_function, names[call.callee]
            )
            args = arguments_of(node.child_by_field_name("arguments"))
            bases = [base_name(a) for a in args]
            arguments = tuple(text_of(a) if a.type == "identifier" else None for a in args)
            data = tuple(dict.fromkeys(a for a in bases if a and self.reader.is_data(a, node.start_byte)))
            step = HostStep(
                span_of(node),
                "call" if opaque else "launch",
                f"{call.callee}(…)",
                data,
                data,
                callee=call.callee,
                arguments=arguments,
            )
            found.append(Found(step, node, function, node.start_byte))
        return found

    def _times(self, by_function: dict[int, list[Found]], key: int) -> bool:
        if key not in self._timed:
            function = by_function[key][0].function
            self._timed[key] = bool(self._timers(function, [], [(function.start_byte, function.end_byte)]))
        return self._timed[key]

    # -- one function ------------------------------------------------------------------------------

    def _flow(self, function: Node, items: list[Found]) -> HostFlow:
        loops = self._loops(function, [f for f in items if f.step.kind in ("launch", "copy", "wait", "call")])
        hot = self._hot(function, items, loops)
        items = [
            replace(f, step=self.reader.with_data(f.step, f.node))
            if f.step.kind == "launch"
            and f.step.construct is None
            and f.step.callee is None
            and _inside_cover(f.node.start_byte, hot)
            else f
            for f in items
        ]
        covers = _merged(
            [(f.node.start_byte, f.node.end_byte) for f in items]
            + [(span.start_byte, span.end_byte) for f in items for span in f.covers]
        )
        data = {name for f in items for name in (*f.step.reads, *f.step.writes)}
        copied = {  # data whose uses matter outside loops too: copied, or mapped by an OpenMP construct
            name
            for f in items
            if f.step.kind == "copy" or f.step.construct is not None
            for name in (*f.step.reads, *f.step.writes)
        }
        items = items + self._timers(function, covers, hot)  # a clock read matters where a wait repeats
        items += self._uses(data, copied, hot, covers, function)
        items = self._partials(items)
        _price_round_trips(items)
        placed = [self._place(item, loops) for item in items]
        placed.sort(key=lambda pair: pair[0])
        return HostFlow(
            _name(function),
            span_of(function),
            tuple(n for p in parameters(function) if (n := declarator_name(p)) is not None),
            tuple(loop for _node, loop in loops),
            tuple(step for _order, step in placed),
        )

    def _hot(self, function: Node, items: list[Found], loops: list[tuple[Node, HostLoop]]) -> list[tuple[int, int]]:
        """The loops whose host code a rule reads (as merged byte ranges): those holding a wait, a call,
        an OpenMP construct or a launch through a call; every loop when the function allocates shared
        USM (its loops are where only kernels may touch it)."""
        shared = any(
            a.kind == "shared" and function.start_byte <= a.span.start_byte < function.end_byte for a in self.usm
        )
        marks = [
            f.node.start_byte
            for f in items
            if f.step.kind in ("wait", "call") or f.step.construct is not None or f.step.callee is not None
        ]
        return _merged(
            [
                (node.start_byte, node.end_byte)
                for node, _loop in loops
                if shared or any(node.start_byte <= at < node.end_byte for at in marks)
            ]
        )

    def _named(
        self, words: Iterable[str], ranges: list[tuple[int, int]], covers: list[tuple[int, int]]
    ) -> Iterator[Node]:
        """The identifiers in `ranges` outside `covers` (and outside comments and strings) that are one
        of `words`, in source order: a search of the bytes, then the node at each match."""
        data = self.unit.data
        positions = sorted(
            (at, len(word))
            for word in {w.encode() for w in words}
            for start, end in ranges
            for at in word_positions(data, word, start, end)
        )
        for at, length in positions:
            if _inside_cover(at, covers):
                continue
            node = self.unit.root.descendant_for_byte_range(at, at + length)
            if node is not None and node.type == "identifier" and node.start_byte == at:
                yield node

    def _timers(self, function: Node, covers: list[tuple[int, int]], ranges: list[tuple[int, int]]) -> list[Found]:
        found = []
        data = self.unit.data
        seen = -1
        matches = (m for lo, hi in ranges for m in _TIMER_WORD.finditer(data, lo, hi))
        for match in matches:
            start, end = match.start(), match.end()
            while start > 0 and (data[start - 1 : start].isalnum() or data[start - 1 : start] == b"_"):
                start -= 1
            while end < len(data) and (data[end : end + 1].isalnum() or data[end : end + 1] == b"_"):
                end += 1
            if start <= seen or _inside_cover(start, covers) or not _CALLED.match(data, end):
                continue
            seen = start
            name = self.unit.root.descendant_for_byte_range(start, end)
            call = name.parent if name is not None and name.type in ("identifier", "field_identifier") else None
            while call is not None and call.type in ("field_expression", "qualified_identifier", "template_function"):
                call = call.parent
            if call is None or call.type != "call_expression" or self.in_device(call):
                continue
            step = HostStep(span_of(call), "timer", text_of(call.child_by_field_name("function")))
            found.append(Found(step, call, function, call.start_byte))
        return found

    def _uses(
        self,
        data: set[str],
        copied: set[str],
        looped: list[tuple[int, int]],
        covers: list[tuple[int, int]],
        function: Node,
    ) -> list[Found]:
        """The host's uses of `data` inside the loops that hold device steps (`looped`), and of the
        data copies move (`copied`) anywhere: what happens before or after a loop matters only to a
        copy made there. A name made to point into the data (`float *p = s.field;` for the data `p`,
        or `T *q = p;`) is the data too: its uses count as the data's."""
        whole = [(function.start_byte, function.end_byte)]
        aliases = self._aliases(data, function)
        found: list[Found] = []
        pending = {name: {name} for name in data} | aliases
        while pending:
            inside = {n for n, targets in pending.items() if not targets & copied}
            idents = [*self._named(inside, looped, covers), *self._named(set(pending) - inside, whole, covers)]
            more: dict[str, set[str]] = {}
            for ident in sorted(idents, key=lambda node: node.start_byte):
                if self.in_device(ident):
                    continue
                name = text_of(ident)
                targets = tuple(sorted(pending[name]))
                use = effect(ident, self.reader.is_data(name, ident.start_byte), self.reader.callees)
                if use is None:
                    copy = _pointer_copy(ident)
                    if copy is not None and copy not in data and copy not in aliases:
                        more[copy] = aliases[copy] = set(targets)
                    continue
                reads, writes = (targets if use[0] else ()), (targets if use[1] else ())
                step = HostStep(span_of(ident), "use", name, reads, writes, reduces=bool(reads) and _reduces(ident))
                found.append(Found(step, ident, function, ident.start_byte))
            pending = more
        return found

    def _partials(self, items: list[Found]) -> list[Found]:
        """Read which arrays the launches before a copy back whose data a host loop then folds write
        one element of per work-group (partial results), and what else they touch."""
        ordered = sorted(items, key=lambda f: f.order)
        last = -1
        for index, item in enumerate(ordered):
            if item.step.kind == "use" and item.step.reduces:
                folded = item.step.reads[0]
                copies = (f for f in reversed(ordered[:index]) if f.step.kind == "copy" and folded in f.step.writes)
                copy = next(copies, None)
                if copy is not None:
                    copy.priced = True
                    last = max(last, copy.order)
        if last < 0:
            return items
        return [
            replace(f, step=self.reader.with_data(f.step, f.node, groups=True))
            if f.step.kind == "launch" and f.step.construct is None and f.step.callee is None and f.order < last
            else f
            for f in items
        ]

    def _aliases(self, data: set[str], function: Node) -> dict[str, set[str]]:
        """Names the data's pointers were made from (`float *p = s.field;`: `s` for `p`)."""
        found: dict[str, set[str]] = {}
        for name in data:
            value = self.reader.declarations.initializer(name, function.end_byte - 1)
            source = base_name(value) if value is not None else None
            if source is not None and source != name and source not in data:
                found.setdefault(source, set()).add(name)
        return found

    # -- loops and placement -----------------------------------------------------------------------

    def _loops(self, function: Node, device: list[Found]) -> list[tuple[Node, HostLoop]]:
        """The host loops of `function` that hold a device step, outermost first."""
        found = []
        for kind, node in self.host_loops:
            if not (function.start_byte <= node.start_byte and node.end_byte <= function.end_byte):
                continue
            if not any(node.start_byte <= f.node.start_byte and f.node.end_byte <= node.end_byte for f in device):
                continue
            trip = loop_fact(self.unit, kind, node, "host", True).trip_count
            found.append((node, HostLoop(span_of(node), kind, trip, _bound(kind, node))))
        return sorted(found, key=lambda pair: pair[0].start_byte)

    def _place(self, item: Found, loops: list[tuple[Node, HostLoop]]) -> tuple[tuple[int, int], HostStep]:
        """The step with its loops (innermost first) and guard, and the position it runs at."""
        node = item.node
        order = item.order
        around: list[int] = []
        for index, (loop, _fact) in enumerate(loops):
            if not (loop.start_byte <= node.start_byte and node.end_byte <= loop.end_byte):
                continue
            body = loop.child_by_field_name("body")
            if body is not None and not (body.start_byte <= node.start_byte and node.end_byte <= body.end_byte):
                initializer = loop.child_by_field_name("initializer")
                if initializer is not None and initializer.start_byte <= node.start_byte < initializer.end_byte:
                    continue  # runs once, before the loop
                if loop.type != "do_statement":
                    order = max(order, body.end_byte)  # the condition or increment: after the body
            around.append(index)
        around.sort(key=lambda i: loops[i][0].start_byte, reverse=True)
        stop = loops[around[0]][0] if around else item.function
        step = item.step
        nbytes = (
            self.reader.copy_bytes(item) if item.priced and item.size is not None and step.bytes is None else step.bytes
        )
        return (order, node.start_byte), replace(
            step, loops=tuple(around), conditional=_guarded(node, stop), bytes=nbytes
        )


def _merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Byte intervals merged into sorted disjoint ones, for `_covered`."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _covered(node: Node, covers: list[tuple[int, int]]) -> bool:
    """Whether `node` lies inside one of the disjoint sorted intervals `covers`."""
    at = bisect_right(covers, (node.start_byte, 1 << 62)) - 1
    return at >= 0 and node.end_byte <= covers[at][1]


def _inside_cover(offset: int, covers: list[tuple[int, int]]) -> bool:
    at = bisect_right(covers, (offset, 1 << 62)) - 1
    return at >= 0 and offset < covers[at][1]


def _price_round_trips(items: list[Found]) -> None:
    """Mark for pricing the copies outside loops that may make a round trip: a copy back to the host
    and a copy out to the device of the same host data (sizes are evaluated only where asked)."""
    back = {name for f in items if f.step.kind == "copy" and f.step.direction == "to-host" for name in f.step.writes}
    out = {name for f in items if f.step.kind == "copy" and f.step.direction == "to-device" for name in f.step.reads}
    for f in items:
        if f.step.kind == "copy" and (back & out) & {*f.step.reads, *f.step.writes}:
            f.priced = True


def _pointer_copy(ident: Node) -> str | None:
    """The variable `T *p = ident…;` or `p = ident…;` makes point into `ident`'s data, if any."""
    node = ident
    while node.parent is not None and node.parent.type in ("parenthesized_expression", "cast_expression"):
        node = node.parent
    if node.parent is not None and node.parent.type == "binary_expression":
        node = node.parent  # `p = a + offset`
    holder = node.parent
    target = None
    if holder is not None and holder.type == "init_declarator" and holder.child_by_field_name("value") == node:
        target = declarator_name(holder)
    elif holder is not None and holder.type == "assignment_expression" and holder.child_by_field_name("right") == node:
        left = holder.child_by_field_name("left")
        target = text_of(left) if left is not None and left.type == "identifier" else None
    return target


def _guarded(node: Node, stop: Node) -> bool:
    """Whether an `if`, `switch`, `?:`, `&&`, `||` or an undecided `#if` arm between `node` and `stop`
    decides whether it runs."""
    child, parent = node, node.parent
    while parent is not None and parent != stop:
        if parent.type in CONDITIONAL_TYPES and child != parent.child_by_field_name("condition"):
            return True
        if parent.type in _PREPROCESSOR_ARMS:
            return True  # an `#if` arm kernlint could not decide: it may not be compiled
        if (
            parent.type == "binary_expression"
            and text_of(parent.child_by_field_name("operator")) in ("&&", "||")
            and child == parent.child_by_field_name("right")
        ):
            return True
        child, parent = parent, parent.parent
    return False


def _reduces(ident: Node) -> bool:
    """Whether `ident[i]` is folded into a scalar by the only statement of a `for` loop:
    `s += p[i]`, `s = s + p[i]`, `s = max(s, p[i])`."""
    element = ident.parent
    if element is None or element.type != "subscript_expression" or element.child_by_field_name("argument") != ident:
        return False
    statement: Node | None = element
    while statement is not None and statement.type != "expression_statement":
        statement = statement.parent
    assignment = statement.named_children[0] if statement is not None and statement.named_children else None
    if assignment is None or assignment.type != "assignment_expression":
        return False
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    operator = text_of(assignment.child_by_field_name("operator"))
    if left is None or right is None or left.type != "identifier" or not (right.start_byte <= element.start_byte):
        return False
    folds = operator in _ACCUMULATE or (operator == "=" and text_of(left) in {text_of(n) for n in _identifiers(right)})
    holder: Node | None = statement.parent if statement is not None else None
    if holder is not None and holder.type == "compound_statement" and holder.named_child_count == 1:
        holder = holder.parent
    return folds and holder is not None and holder.type == "for_statement"


def _identifiers(node: Node) -> list[Node]:
    stack, found = [node], []
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.append(current)
        stack.extend(current.children)
    return found


def _bound(kind: LoopKind, node: Node) -> str | None:
    """The bound of `for (i = 0; i < repeat; i++)` as written, when the loop counts up to one."""
    if kind != "for":
        return None
    index, _lower = for_init(node.child_by_field_name("initializer"))
    compare, upper = for_condition(node.child_by_field_name("condition"), index)
    return upper if compare in ("<", "<=", "!=") else None


def _name(function: Node) -> str | None:
    declarator = function_declarator(function)
    name = declarator.child_by_field_name("declarator") if declarator is not None else None
    return last_name(text_of(name)) if name is not None else None
