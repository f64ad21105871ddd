"""Device code of a C/C++ file: which code runs on the device, and what it does there.

A kernel's device code is its body plus the bodies of the functions and stored lambdas it calls that are
defined in the same file, transitively (a bounded call graph: free functions, templates, member
functions called as methods, `SYCL_EXTERNAL` definitions, lambdas stored in variables). Functions that
launch kernels themselves are host code and never join. `KernelLaunch.regions` lists that code, body
first, so loops and barriers in helpers count as device code.

In that code, work-item dependence (`cpp.dependence`) grades every if / else-if / ?: / switch / loop
condition; the dependent ones become `Branch` facts with the code they guard, the device functions they
reach and any early exit. Sub-group block loads and stores become `SubGroupBlockAccess` facts.
"""

from __future__ import annotations

import contextlib
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import replace

import tree_sitter

from kernlint import fanout
from kernlint.facts import Barrier, Branch, KernelLaunch, LimitReached, LocalAllocation, Span, SubGroupBlockAccess
from kernlint.facts.device import Reach
from kernlint.facts.kinds import BranchExit, BranchKind
from kernlint.facts.memory import MemoryAccess
from kernlint.frontends.common.nodes import contains, span_between, span_of, text_of
from kernlint.frontends.cpp.dependence.nodes import (
    Key,
    ParentOf,
    Parents,
    condition_of,
    key_of,
)
from kernlint.frontends.cpp.dependence.program import CppDependence
from kernlint.frontends.cpp.device import host_slice, reuse
from kernlint.frontends.cpp.device import limits as bounds
from kernlint.frontends.cpp.device.arms import ArmCounter, combines, comparison_of
from kernlint.frontends.cpp.device.barriers import barrier_macro, find_barriers
from kernlint.frontends.cpp.device.block_access import block_access
from kernlint.frontends.cpp.device.graph import DeviceGraph, body_of
from kernlint.frontends.cpp.device.memory import DeviceView, memory_accesses
from kernlint.frontends.cpp.device.result import DeviceCode
from kernlint.frontends.cpp.device.strides import grid_stride
from kernlint.frontends.cpp.types import CppTypes
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.records import record

Node = tree_sitter.Node


def analyse_device_code(
    unit: CppUnit,
    launches: list[KernelLaunch],
    unlaunched: list[KernelLaunch] | None = None,
    local_allocations: tuple[LocalAllocation, ...] = (),
    meanwhile: Callable[[tuple[KernelLaunch, ...]], object] | None = None,
) -> DeviceCode:
    """The device code of `launches` and of the `unlaunched` kernels (found by what they are) that are
    not part of another kernel's code: an `h_item` lambda inside a work-group kernel, or a function
    taking an `nd_item` that a kernel calls, is that kernel's code, not a kernel of its own.
    `meanwhile`: work of the caller's on the launches (with their regions) that no kernel's facts
    need, done while forked children analyse kernels, if they do (`fanout.forked_map`)."""
    if not launches and not unlaunched:
        return DeviceCode(())
    graph = DeviceGraph(unit.root, launches, unit.file_matches["cpp_device_index"])
    with_regions = [
        replace(launch, regions=regions, grid_stride=grid_stride(graph.scans.values(), regions, launch, unit))
        for launch, regions in zip(launches, graph.launch_regions)
    ]
    with_regions += graph.add_unlaunched(unlaunched or [])
    cut = tuple(graph.limits[at] for at in sorted(graph.limits))
    if not graph.scans:
        return DeviceCode(tuple(with_regions), limits=cut)
    launched = tuple(with_regions)
    cache = reuse.active()
    # Apart only when their facts are kept between edits: analysed together, the components share the
    # walks and tables of one file (the same facts, as the tests of `reuse` check, a little sooner).
    components = graph.components() if cache is not None else [list(graph.scans)]
    context = _context_key(unit, graph, components, launched, local_allocations) if cache is not None else None
    scope = cache.scope if cache is not None else None
    try:
        keyed = (
            [_key(graph, keys, launched, context.key(scope, c)) for c, keys in enumerate(components)] if context else []
        )
        ahead = _Ahead(unit, graph, components, launched, local_allocations, keyed, meanwhile) if keyed else None
        parts = [
            _component(unit, graph, keys, launched, local_allocations, keyed[c] if keyed else None, ahead, c)
            for c, keys in enumerate(components)
        ]
    except RecursionError:
        # The walks are iterative and expressions are read to a bounded depth, so this is not expected;
        # should some chain still exceed Python's stack, the facts are missing, and the report says so.
        first = min(with_regions, key=lambda launch: launch.span.start_byte)
        return DeviceCode(
            tuple(with_regions), complete=False, limits=(*cut, LimitReached(first.span, bounds.TOO_DEEP_FOR_PYTHON))
        )
    branches = sorted((b for p in parts for b in p.branches), key=lambda b: (b.span.start_byte, b.span.end_byte))
    accesses = sorted((a for p in parts for a in p.block_accesses), key=lambda a: a.span.start_byte)
    barriers = sorted((b for p in parts for b in p.barriers), key=lambda b: b.span.start_byte)
    memory = tuple(sorted((m for p in parts for m in p.memory), key=lambda m: m.span.start_byte))
    deep = sorted((entry for p in parts for entry in p.too_deep), key=lambda entry: entry[0], reverse=True)
    lines = {span.line: span for _at, span in deep}
    too_deep = tuple(LimitReached(span, bounds.TOO_DEEP_EXPRESSION) for span in lines.values())  # one a line
    limits = tuple(sorted(cut + too_deep, key=bounds.by_position))
    return DeviceCode(
        tuple(with_regions), tuple(branches), tuple(accesses), tuple(barriers), True, memory, limits=limits
    )


@record
class _ComponentFacts:
    """The device-code facts of one component of the call graph (a kernel and the code it reaches,
    kernels sharing code together), each kind in the order the whole file's analysis lists it;
    `too_deep`: (position, span) of each expression nested deeper than the lowering reads."""

    branches: tuple[Branch, ...]
    block_accesses: tuple[SubGroupBlockAccess, ...]
    barriers: tuple[Barrier, ...]
    memory: tuple[MemoryAccess, ...]
    too_deep: tuple[tuple[int, Span], ...]


def _component(
    unit: CppUnit,
    graph: DeviceGraph,
    keys: list[Key],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
    keyed: tuple[tuple[object, ...], tuple[tuple[int, int, int], ...]] | None,
    ahead: _Ahead | None,
    at: int,
) -> _ComponentFacts:
    """The facts of component `at`: from the cache of an edited document's earlier analysis when its
    code and everything it reads are unchanged (`keyed`: its key, what lies outside it and its own code,
    see `reuse`; and its regions), else worked out, here or (`ahead`) at once with the components after
    it that the cache does not hold either."""
    cache = reuse.active()
    if cache is None or keyed is None:
        return _analyse_component(unit, graph, keys, launches, local_allocations)
    key, regions = keyed
    found = cache.get(key, regions)
    if isinstance(found, _ComponentFacts):
        return found
    facts = ahead.take(at, cache) if ahead is not None else None
    if facts is None:
        facts = _analyse_component(unit, graph, keys, launches, local_allocations)
    cache.put(key, regions, facts, keep=not unit.root.has_error)
    return facts


class _Ahead:
    """Components analysed ahead of their turn, at once in forked children (`fanout`: where the
    language server's worker turned it on). At the first component the cache misses, that one and every
    later one the cache does not hold are shared out, each child's worked out as if `_component` had
    called `_analyse_component` itself (the same stack room); each component's turn then takes its
    facts in order, so the cache sees the same lookups and stores, and a component whose facts did
    not come back (its child failed) is analysed in its turn, meeting any exception there."""

    def __init__(
        self,
        unit: CppUnit,
        graph: DeviceGraph,
        components: list[list[Key]],
        launches: tuple[KernelLaunch, ...],
        local_allocations: tuple[LocalAllocation, ...],
        keyed: list[tuple[tuple[object, ...], tuple[tuple[int, int, int], ...]]],
        meanwhile: Callable[[tuple[KernelLaunch, ...]], object] | None = None,
    ) -> None:
        self._calls = [(unit, graph, keys, launches, local_allocations) for keys in components]
        self._keyed = keyed
        self._meanwhile = (lambda: meanwhile(launches)) if meanwhile is not None else None
        self._done: dict[int, _ComponentFacts] | None = None

    def take(self, at: int, cache: reuse.ComponentCache) -> _ComponentFacts | None:
        if self._done is None:
            self._done = {}
            missed = [at] + [c for c in range(at + 1, len(self._calls)) if not cache.holds(*self._keyed[c])]
            if len(missed) > 1 and fanout.children():
                weights = [
                    _COMPONENT_BYTES + sum(_size(self._calls[c][1], k) for k in self._calls[c][2]) for c in missed
                ]
                calls = [self._calls[c] for c in missed]
                _read_whole_file(*self._calls[0][:2])
                found = fanout.forked_map(
                    _analyse_component, calls, weights, _SHARE_BYTES, stacklevel=2, meanwhile=self._meanwhile
                )
                self._done = {missed[index]: facts for index, facts in found.items()}
        return self._done.pop(at, None)


def _read_whole_file(unit: CppUnit, graph: DeviceGraph) -> None:
    """Read what every component's analysis reads of the whole file, once, before the children are forked
    (each would read it again otherwise). Should reading fail, each component reads it in its turn, and
    meets the failure where it did before."""
    with contextlib.suppress(Exception):
        for _found in (unit.file_types.definitions, unit.file_types.symbols, graph.text_marks):
            pass


def _size(graph: DeviceGraph, key: Key) -> int:
    root = graph.roots[key]
    return root.end_byte - root.start_byte


# What a component's analysis costs, as bytes of its code: its size, and a part that does not grow
# with it (tables and walks of its own; about 3-5 ms here, each kilobyte 2-5 ms more).
_COMPONENT_BYTES = 1024
# What a forked child's share must weigh at least (some 10-15 ms of analysis here): a child costs its
# parent about 1-2 ms to fork and costs itself about 10 ms of pages copied as it writes (the memory it
# shares with its parent), so a lighter share is analysed sooner in the parent.
_SHARE_BYTES = 4096


def _key(
    graph: DeviceGraph, keys: list[Key], launches: tuple[KernelLaunch, ...], context: tuple[object, ...]
) -> tuple[tuple[object, ...], tuple[tuple[int, int, int], ...]]:
    """A component's key in the cache, and its regions (start byte, end byte, first line)."""
    roots = [graph.roots[k] for k in keys]
    regions = tuple((r.start_byte, r.end_byte, r.start_point[0]) for r in roots)
    spans = [span_of(r) for r in roots]
    inside = [launch for launch in launches if launch.body is not None and any(r.contains(launch.body) for r in spans)]
    return (context, tuple((r.text, r.start_point[1]) for r in roots), reuse.without_spans(tuple(inside))), regions


def _context_key(
    unit: CppUnit,
    graph: DeviceGraph,
    components: list[list[Key]],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
) -> _Context:
    """What each component's facts may read outside its own code (see `reuse`); the host text without
    the lines of statements that none can read (`host_slice`)."""
    data = unit.root.text or b""
    host, at = [], 0
    regions = sorted((r.start_byte, r.end_byte) for r in graph.roots.values())
    for start, end in regions:
        if start > at:
            host.append((at, data[at:start]))
        at = max(at, end)
    host.append((at, data[at:]))
    headers = reuse.header_stamps(unit.constants.included())
    cuts = _unread_lines(unit, regions, headers, launches, local_allocations)
    types = unit.file_types.captures
    shared = (
        headers,
        tuple(sorted((name, text_of(node)) for name, nodes in types.items() for node in nodes)),
        reuse.without_spans(local_allocations),
    )
    owner = sorted(
        (graph.roots[k].start_byte, graph.roots[k].end_byte, c) for c, keys in enumerate(components) for k in keys
    )
    starts = [start for start, _end, _c in owner]
    names: list[list[tuple[str, str]]] = [[] for _ in components]
    for _pattern, match in unit.file_matches["cpp_symbols"]:
        for capture, nodes in match.items():
            for node in nodes:
                at = bisect_left(starts, node.start_byte + 1) - 1
                if at >= 0 and node.end_byte <= owner[at][1]:
                    names[owner[at][2]].append((capture, text_of(node)))
    texts = [b"\n".join(graph.roots[k].text or b"" for k in keys) for keys in components]
    return _Context(
        shared,
        b"\0".join(reuse.without_trailing_comments(host_slice.without(text, start, cuts)) for start, text in host),
        tuple((tuple(sorted(names[c])), reuse.binding_lines(text)) for c, text in enumerate(texts)),
        [frozenset(_WORD.findall(text.decode("utf-8", "replace"))) for text in texts],
        [tuple(bisect_left(regions, (graph.roots[k].start_byte, -1)) for k in keys) for keys in components],
    )


def _unread_lines(
    unit: CppUnit,
    regions: list[tuple[int, int]],
    headers: tuple[tuple[str, int, int], ...],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
) -> list[tuple[int, int]]:
    """The lines of host statements no component's facts can read (`host_slice`), cut from the keys."""
    spans = [launch.span for launch in launches] + [allocation.span for allocation in local_allocations]
    kept = [(span.start_byte, span.end_byte) for span in spans]
    configured = " ".join(f"{name} {body}" for name, body in unit.configured_macros).encode()
    read = [host_slice.header_words(stamp) for stamp in headers]
    elsewhere = [words for words in read if words is not None]
    if len(elsewhere) < len(read):
        return []  # a header that cannot be read now: what it spells is unknown
    elsewhere.append(host_slice.words_of(configured))
    return host_slice.unread_lines(unit.root, regions, kept, elsewhere, unit.constants.macro_names())


_WORD = re.compile(r"[A-Za-z_]\w*")


@record
class _Context:
    """What lies outside the components of a file: `shared`, what any component may read (headers,
    type definitions, local allocations); the host text, the lines of the statements no component
    can read cut (`host_slice`), comments between statements dropped (`reuse.without_trailing_comments`)
    and its pieces between device regions joined by NULs; of each component, the names its code
    declares or assigns and its binding lines (`own`), the words it spells, and where its regions lie
    among the file's device regions (`places`: which gaps of the host text they fill)."""

    shared: tuple[object, ...]
    host: bytes
    own: tuple[tuple[tuple[tuple[str, str], ...], tuple[bytes, ...]], ...]
    words: list[frozenset[str]]
    places: list[tuple[int, ...]]

    def key(self, scope: object, component: int) -> tuple[object, ...]:
        """Everything outside component `component` that its facts may read: the host text and where
        in it the component lies; of the other components, the names that it spells they declare or
        assign, and their binding lines."""
        spelt = self.words[component]
        others = tuple(
            (tuple(n for n in names if n[1] in spelt), lines)
            for c, (names, lines) in enumerate(self.own)
            if c != component
        )
        return (scope, self.shared, self.host, self.places[component], others)


def _analyse_component(
    unit: CppUnit,
    graph: DeviceGraph,
    keys: list[Key],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
) -> _ComponentFacts:
    scans = {k: graph.scans[k] for k in keys}
    types = CppTypes(unit.root, unit.constants, file=unit.file_types)
    dependence = CppDependence(
        graph.unit_sources(scans),
        graph.callees,
        unit.constants.value,
        unit.root,
        lambda name: barrier_macro(name, types.function_macro) == "work-group",
    )
    types.use_parents(dependence.parent_of)
    branches = sorted(_branches(unit, graph, scans, dependence), key=lambda b: (b.span.start_byte, b.span.end_byte))
    accesses = sorted(_block_accesses(graph, scans, dependence), key=lambda a: a.span.start_byte)
    barriers = sorted(find_barriers(scans.values(), dependence, types.function_macro), key=lambda b: b.span.start_byte)
    view = DeviceView(scans, graph.callees, graph.names, frozenset(graph.kernels), graph.owner)
    memory = memory_accesses(unit, view, dependence, launches, local_allocations, types)
    too_deep = tuple((at, span_of(node)) for at, node in dependence.too_deep.items())
    return _ComponentFacts(tuple(branches), tuple(accesses), tuple(barriers), memory, too_deep)


# -- branches ------------------------------------------------------------------------------------


def _branches(
    unit: CppUnit, graph: DeviceGraph, scans: dict[Key, dict[str, list[Node]]], dependence: CppDependence
) -> Iterable[Branch]:
    arms = ArmCounter(
        lambda call: bool(graph.callees(call)),
        dependence.scopes.constant,
        Parents(graph.root),
        graph.text_marks.marks,
        (unit.loops, unit.assignments) if graph.root == unit.root else None,
    )
    heads = _ChainHeads(arms.parent_of)
    code_only = graph.text_marks.code_only
    for captures in scans.values():
        for kind in ("if", "ternary", "switch", "loop"):
            for node in captures.get(kind, []):
                grade = dependence.grade(node)
                condition = condition_of(node)
                if grade is None or condition is None:
                    continue
                regions = _guarded_regions(node)
                exit_kind, skipped = _early_exit(graph, captures, node, regions)
                owner = graph.owner(node)
                yield Branch(
                    span=span_of(node),
                    condition=span_of(condition),
                    kind=_branch_kind(node, arms.parent_of),
                    dependence=grade.dependence,
                    reason=grade.reason,
                    regions=tuple(span_of(r) for r in regions),
                    lanes=grade.lanes,
                    origin=grade.origin,
                    id_scope=grade.id_scope,  # type: ignore[arg-type]
                    bound=grade.bound,
                    loop=_enclosing_loop(node, arms),
                    combines=grade.reason == "loop-bound" and combines(node),  # a tree's step, a prefix loop
                    reaches=tuple(Reach(span_of(r)) for r in regions)
                    + tuple(graph.reach([span_of(r) for r in regions])),
                    exit=exit_kind,
                    skipped=skipped,
                    head=heads(node),
                    select_like=node.type == "conditional_expression" and _select_like(graph, node),
                    function=graph.names.get(key_of(owner))
                    if owner is not None and key_of(owner) not in graph.kernels
                    else None,
                    arms=arms.costs(node),
                    steers_loop=arms.steers_loop(node),
                    rewritable=code_only(node),
                    comparison=comparison_of(condition),
                )


_LOOP_NODES = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})


def _enclosing_loop(node: Node, arms: ArmCounter) -> Span | None:
    """The innermost loop around `node` inside its function or lambda (asked of the counter, which
    remembers each node's answer on the way up)."""
    around = arms.enclosing(node)
    return span_of(around) if around is not None and around.type in _LOOP_NODES else None


def _branch_kind(node: Node, parent_of: ParentOf) -> BranchKind:
    if node.type == "if_statement":
        parent = parent_of(node)
        return "else-if" if parent is not None and parent.type == "else_clause" else "if"
    if node.type == "conditional_expression":
        return "ternary"
    return "switch" if node.type == "switch_statement" else "loop"


class _ChainHeads:
    """The `if` that starts the else-if chain of an `else if` (None for any other node), each link's
    head remembered: the links of a long chain share the climb."""

    def __init__(self, parent_of: ParentOf) -> None:
        self._parent_of = parent_of
        self._heads: dict[int, Node] = {}

    def __call__(self, node: Node) -> Span | None:
        if node.type != "if_statement" or not self._continues(node):
            return None
        path = []
        head: Node = node
        while head.id not in self._heads and self._continues(head):
            path.append(head)
            clause = self._parent_of(head)
            above = self._parent_of(clause) if clause is not None else None
            if above is None:
                break
            head = above
        head = self._heads.get(head.id, head)
        for link in path:
            self._heads[link.id] = head
        return span_of(head)

    def _continues(self, node: Node) -> bool:
        """Whether `node` is the `if` of an `else` clause (a link after the first)."""
        parent = self._parent_of(node)
        return parent is not None and parent.type == "else_clause" and self._parent_of(parent) is not None


def _guarded_regions(node: Node) -> list[Node]:
    fields: tuple[str, ...] = (
        ("consequence", "alternative") if node.type in ("if_statement", "conditional_expression") else ("body",)
    )
    return [r for r in (node.child_by_field_name(f) for f in fields) if r is not None]


def _early_exit(
    graph: DeviceGraph, captures: dict[str, list[Node]], node: Node, regions: list[Node]
) -> tuple[BranchExit | None, tuple[Reach, ...]]:
    """A `return`, `break` or `continue` under the branch that leaves code around it, and that code."""
    if node.type not in ("if_statement", "switch_statement") or not regions:
        return None, ()
    owner = graph.owner(node)
    for jump in captures.get("return", []) + captures.get("jump", []):
        if not any(contains(r, jump) for r in regions) or graph.owner(jump) != owner:
            continue
        if jump.type == "return_statement":
            body = body_of(owner) if owner is not None else None
            if body is None:
                continue
            rest = span_between(node, body, after_first=True)
            return "return", (Reach(rest),) + tuple(graph.reach([rest]))
        target = _jump_target(jump)
        if target is not None and contains(target, node) and target != node:
            word: BranchExit = "break" if jump.type == "break_statement" else "continue"
            body = body_of(target) if word == "continue" else None
            if body is not None:  # `continue` skips the rest of this iteration only
                rest = span_between(node, body, after_first=True)
                return word, (Reach(rest),) + tuple(graph.reach([rest]))
            return word, (Reach(span_of(target)),) + tuple(graph.reach([span_of(target)]))
    return None, ()


def _jump_target(jump: Node) -> Node | None:
    parent = jump.parent
    while parent is not None and parent.type not in ("lambda_expression", "function_definition"):
        if parent.type in ("for_statement", "while_statement", "do_statement", "for_range_loop"):
            return parent
        if parent.type == "switch_statement" and jump.type == "break_statement":
            return parent
        parent = parent.parent
    return None


def _select_like(graph: DeviceGraph, node: Node) -> bool:
    """A ?: whose arms only compute values (no assignment, no call into device code): a select."""
    for field in ("consequence", "alternative"):
        arm = node.child_by_field_name(field)
        stack = [arm] if arm is not None else []
        while stack:
            current = stack.pop()
            if current.type in ("assignment_expression", "update_expression", "lambda_expression"):
                return False
            if current.type == "call_expression" and graph.callees(current):
                return False
            stack.extend(current.named_children)
    return True


# -- sub-group block accesses --------------------------------------------------------------------


def _block_accesses(
    graph: DeviceGraph, scans: dict[Key, dict[str, list[Node]]], dependence: CppDependence
) -> Iterable[SubGroupBlockAccess]:
    seen: set[tuple[int, int]] = set()
    for captures in scans.values():
        for call in captures.get("call", []) + captures.get("tcall", []):
            access = block_access(call, dependence)
            if access is None or (call.start_byte, call.end_byte) in seen:
                continue
            seen.add((call.start_byte, call.end_byte))
            owner = graph.owner(call)
            function = (
                graph.names.get(key_of(owner)) if owner is not None and key_of(owner) not in graph.kernels else None
            )
            yield replace(access, function=function)
