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

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, replace

import tree_sitter

from kernlint.facts import Barrier, Branch, KernelLaunch, LimitReached, LocalAllocation, Span, SubGroupBlockAccess
from kernlint.facts.device import Reach
from kernlint.facts.kinds import BranchExit, BranchKind
from kernlint.facts.memory import MemoryAccess
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import contains, node_at, span_between, span_of, text_of
from kernlint.frontends.cpp.dependence.context import UnitSource
from kernlint.frontends.cpp.dependence.nodes import (
    Key,
    Owners,
    ParentOf,
    Parents,
    call_parts,
    callee_name,
    condition_of,
    key_of,
)
from kernlint.frontends.cpp.dependence.program import CppDependence
from kernlint.frontends.cpp.device import limits as bounds
from kernlint.frontends.cpp.device import reuse
from kernlint.frontends.cpp.device.arms import ArmCounter, CodeOnly, combines, comparison_of
from kernlint.frontends.cpp.device.barriers import find_barriers
from kernlint.frontends.cpp.device.block_access import block_access
from kernlint.frontends.cpp.device.memory import DeviceView, memory_accesses
from kernlint.frontends.cpp.device.strides import grid_stride
from kernlint.frontends.cpp.syntax import function_declarator
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

_HOST_MARKERS = re.compile(rb"\.\s*(?:parallel_for|single_task|submit|parallel_for_work_group)\b|\bmain\s*\(")
_INDEX_HANDLES = {
    "nd_item": "item",
    "item": "item",
    "h_item": "item",
    "id": "item",
    "integral": "item",
    "auto": "item",
    "group": "group",
}


@dataclass(frozen=True)
class DeviceCode:
    """Launches with their device regions filled in (the unlaunched kernels that no other kernel
    reaches after them), the device-code facts found in them, and whether the analysis of their code
    ran to the end. `barriers` is None when the device code was not analysed (the caller then reads
    them as written)."""

    launches: tuple[KernelLaunch, ...]
    branches: tuple[Branch, ...] = ()
    block_accesses: tuple[SubGroupBlockAccess, ...] = ()
    barriers: tuple[Barrier, ...] | None = None
    complete: bool = True
    memory_accesses: tuple[MemoryAccess, ...] = ()
    limits: tuple[LimitReached, ...] = ()  # where the analysis of device code stopped at one of its bounds


def analyse_device_code(
    unit: CppUnit,
    launches: list[KernelLaunch],
    unlaunched: list[KernelLaunch] | None = None,
    local_allocations: tuple[LocalAllocation, ...] = (),
) -> DeviceCode:
    """The device code of `launches` and of the `unlaunched` kernels (found by what they are) that are
    not part of another kernel's code: an `h_item` lambda inside a work-group kernel, or a function
    taking an `nd_item` that a kernel calls, is that kernel's code, not a kernel of its own."""
    if not launches and not unlaunched:
        return DeviceCode(())
    graph = _DeviceGraph(unit.root, launches, unit.file_matches["cpp_device_index"])
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
    components = graph.components()
    context = _context_key(unit, graph, components) if cache is not None else None
    scope = cache.scope if cache is not None else None
    try:
        parts = [
            _component(unit, graph, keys, launched, local_allocations, context.key(scope, c) if context else None)
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


@dataclass(frozen=True)
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
    graph: _DeviceGraph,
    keys: list[Key],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
    context: tuple[object, ...] | None,
) -> _ComponentFacts:
    """The facts of one component: from the cache of an edited document's earlier analysis when its
    code and everything it reads are unchanged (`context`: what lies outside it; see `reuse`), else
    worked out."""
    cache = reuse.active()
    if cache is None or context is None:
        return _analyse_component(unit, graph, keys, launches, local_allocations)
    roots = [graph.roots[k] for k in keys]
    regions = tuple((r.start_byte, r.end_byte, r.start_point[0]) for r in roots)
    spans = [span_of(r) for r in roots]
    inside = [launch for launch in launches if launch.body is not None and any(r.contains(launch.body) for r in spans)]
    key = (context, tuple((r.text, r.start_point[1]) for r in roots), reuse.without_spans(tuple(inside)))
    found = cache.get(key, regions)
    if isinstance(found, _ComponentFacts):
        return found
    facts = _analyse_component(unit, graph, keys, launches, local_allocations)
    cache.put(key, regions, facts)
    return facts


def _context_key(unit: CppUnit, graph: _DeviceGraph, components: list[list[Key]]) -> _Context:
    """What a component's facts may read outside its own code (see `reuse`): the text outside every
    device region and the headers (`shared`), and of each component's code the names it declares
    and assigns and its lines that may bind a name file-wide (`own`, by component)."""
    data = unit.root.text or b""
    spans = sorted((r.start_byte, r.end_byte) for r in graph.roots.values())
    host, at = [], 0
    for start, end in spans:
        if start >= at:
            host.append(data[at:start])
        at = max(at, end)
    host.append(data[at:])
    unit.constants._ensure()  # reads the quoted headers now, so that all of them are listed
    shared = (b"\0".join(host), reuse.header_stamps(unit.constants.dependencies))
    owner: list[tuple[int, int, int]] = sorted(
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
    own = tuple((tuple(sorted(names[c])), reuse.binding_lines(text)) for c, text in enumerate(texts))
    words = [frozenset(_WORD.findall(text.decode("utf-8", "replace"))) for text in texts]
    return _Context(shared, own, words)


_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class _Context:
    shared: tuple[object, ...]
    own: tuple[tuple[tuple[tuple[str, str], ...], tuple[bytes, ...]], ...]
    words: list[frozenset[str]]  # the identifiers each component's code spells

    def key(self, scope: object, component: int) -> tuple[object, ...]:
        """Everything outside component `component` that its facts may read: the names other
        components declare or assign that it spells too, and their binding lines."""
        spelt = self.words[component]
        others = tuple(
            (tuple(n for n in names if n[1] in spelt), lines)
            for c, (names, lines) in enumerate(self.own)
            if c != component
        )
        return (scope, self.shared, others)


def _analyse_component(
    unit: CppUnit,
    graph: _DeviceGraph,
    keys: list[Key],
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
) -> _ComponentFacts:
    scans = {k: graph.scans[k] for k in keys}
    dependence = CppDependence(graph.unit_sources(scans), graph.callees, unit.constants.value, unit.root)
    branches = sorted(_branches(graph, scans, dependence), key=lambda b: (b.span.start_byte, b.span.end_byte))
    accesses = sorted(_block_accesses(graph, scans, dependence), key=lambda a: a.span.start_byte)
    barriers = sorted(find_barriers(scans.values(), dependence), key=lambda b: b.span.start_byte)
    view = DeviceView(scans, graph.callees, graph.names, frozenset(graph.kernels), graph.owner)
    memory = memory_accesses(unit, view, dependence, launches, local_allocations)
    too_deep = tuple((at, span_of(node)) for at, node in dependence.too_deep.items())
    return _ComponentFacts(tuple(branches), tuple(accesses), tuple(barriers), memory, too_deep)


def _body(root: Node) -> Node | None:
    return root.child_by_field_name("body")


# -- the call graph ------------------------------------------------------------------------------


class _FunctionIndex:
    """Function definitions and stored lambdas of the file, by name (from the matches of
    `queries/cpp_device_index.scm` over the file)."""

    def __init__(self, matches: list[treesitter.Match]) -> None:
        self.by_name: dict[str, list[tuple[Node, bool]]] = {}  # name -> [(definition, is member)]
        self.lambda_names: dict[Key, str] = {}
        for _pattern, match in matches:
            if "lambda" in match:
                lam, name = match["lambda"][0], text_of(match["lambda.name"][0])
                self.by_name.setdefault(name, []).append((lam, False))
                self.lambda_names[key_of(lam)] = name
            elif "function" in match:
                self._add_function(match["function"][0])

    def _add_function(self, definition: Node) -> None:
        declarator = function_declarator(definition)
        name_node = declarator.child_by_field_name("declarator") if declarator is not None else None
        if name_node is None or name_node.type in ("operator_name", "destructor_name"):
            return
        parent = definition.parent
        if parent is not None and parent.type == "template_declaration":
            parent = parent.parent
        member = (
            parent is not None and parent.type == "field_declaration_list"
        ) or name_node.type == "qualified_identifier"
        self.by_name.setdefault(callee_name(name_node), []).append((definition, member))

    def resolve(self, call: Node) -> list[Node]:
        receiver, name, args = call_parts(call)
        candidates = [(d, member) for d, member in self.by_name.get(name, []) if _accepts(d, len(args))]
        if receiver is not None:
            found = [d for d, member in candidates if member and d.type == "function_definition"]
        else:
            lambdas = [d for d, _m in candidates if d.type == "lambda_expression" and _visible_at(d, call)]
            found = [d for d, _m in candidates if d.type == "function_definition"]
            if lambdas:  # a lambda in scope hides functions of the same name
                found = [min(lambdas, key=lambda d: call.start_byte - d.start_byte)]
        return [d for d in found if not _HOST_MARKERS.search(d.text or b"") and _body(d) is not None]


_HOST_PARAMETER = re.compile(r"\b(?:queue|handler)\b")


def _accepts(definition: Node, count: int) -> bool:
    """Whether a function or stored lambda can be the callee of a call with `count` arguments (its
    required and optional parameters, or a `...`), and is not host code by its parameters (a
    `sycl::queue` or `handler`): an overload of a device function's name for the host is not called."""
    declarator = function_declarator(definition) if definition.type == "function_definition" else None
    parameters = (
        declarator.child_by_field_name("parameters")
        if declarator is not None
        else (definition.child_by_field_name("declarator") or definition).child_by_field_name("parameters")
    )
    if parameters is None:
        return True
    listed = [p for p in parameters.named_children if p.type != "comment"]
    if any(_HOST_PARAMETER.search(text_of(p.child_by_field_name("type"))) for p in listed):
        return False
    if any(p.type in ("variadic_parameter_declaration", "variadic_parameter") or text_of(p) == "..." for p in listed):
        return True
    required = sum(1 for p in listed if p.type == "parameter_declaration")
    if len(listed) == 1 and text_of(listed[0]) == "void":
        required = 0
        listed = []
    return required <= count <= len(listed)


def _visible_at(lam: Node, call: Node) -> bool:
    """Whether the declaration holding a stored lambda is in scope at `call`."""
    declaration = lam.parent.parent if lam.parent is not None else None
    scope = declaration.parent if declaration is not None else None
    return scope is not None and lam.end_byte <= call.start_byte and contains(scope, call)


class _DeviceGraph:
    """The device code reached from each kernel, and its call edges."""

    def __init__(self, root: Node, launches: list[KernelLaunch], index_matches: list[treesitter.Match]) -> None:
        self.root = root
        self._index_matches = index_matches
        self.scans: dict[Key, dict[str, list[Node]]] = {}  # region root -> its captures (nested lambdas too)
        self.roots: dict[Key, Node] = {}
        self.kernels: dict[Key, tuple[str, str] | None] = {}  # kernel root -> (index parameter, handle kind)
        self.sizes: dict[Key, tuple[int | None, int | None]] = {}  # kernel root -> (work-group, sub-group size)
        self._reached: dict[Key, set[tuple[int | None, int | None]]] = {}  # device function -> its kernels' sizes
        self.names: dict[Key, str] = {}
        self._edges: dict[tuple[int, int, str], list[Key]] = {}
        self._definitions: dict[Key, Node] = {}
        self._call_starts: list[int] | None = None  # calls that reach device functions, by position
        self._call_list: list[tuple[Node, list[Key]]] = []
        self._index: _FunctionIndex | None = None
        self.owner = Owners()  # the unit (lambda or function) around a node
        self.limits: dict[int, LimitReached] = {}  # where the call graph was cut, by position
        self._groups: list[list[Key]] = []  # the scans of each kernel's code, the kernel's first
        self.launch_regions: list[tuple[Span, ...]] = [self._reach_kernel(launch) for launch in launches]

    def add_unlaunched(self, kernels: list[KernelLaunch]) -> list[KernelLaunch]:
        """Reach the code of each unlaunched kernel not already inside the code of a kernel before it,
        and keep those that no later one reaches either (a helper taking an `nd_item` is often written
        before the kernel that calls it); their regions filled in."""
        launched = SpanIndex((region, region) for regions in self.launch_regions for region in regions)
        covered: list[Span] = []  # the code the unlaunched kernels kept so far reach
        kept: list[tuple[KernelLaunch, tuple[Span, ...]]] = []
        for kernel in kernels:
            body = kernel.body
            if body is None or launched.containing(body) or any(region.contains(body) for region in covered):
                continue
            regions = self._reach_kernel(kernel)
            reached = [k for k in kept if any(region.contains(k[0].body) for region in regions[1:] if k[0].body)]
            for helper in reached:  # a kernel written earlier that this one calls: its code, not a kernel
                kept.remove(helper)
                root = self._kernel_root(helper[0])
                if root is not None:
                    self.kernels.pop(key_of(root), None)
            kept.append((kernel, regions))
            covered += regions
        return [replace(kernel, regions=regions) for kernel, regions in kept]

    def _kernel_root(self, launch: KernelLaunch) -> Node | None:
        body = launch.body
        if body is None:
            return None
        node = node_at(self.root, body)
        parent = node.parent if node is not None else None
        return parent if parent is not None and parent.type in ("lambda_expression", "function_definition") else None

    def _reach_kernel(self, launch: KernelLaunch) -> tuple[Span, ...]:
        root = self._kernel_root(launch)
        if root is None:
            return (launch.body,) if launch.body is not None else ()
        kind = _INDEX_HANDLES.get(launch.index_type or "")
        self.kernels[key_of(root)] = (launch.index_param, kind) if launch.index_param and kind else None
        local = launch.local_range
        # the fastest dimension's extent: the ids along it, in which work-groups are aligned blocks
        sizes = (local.dims[-1] if local is not None and local.dims else None, launch.attributes.reqd_sub_group_size)
        self.sizes[key_of(root)] = sizes
        regions = [root]
        frontier = [root]
        for _depth in range(bounds.MAX_CALL_DEPTH + 1):
            following: list[Node] = []
            last = _depth == bounds.MAX_CALL_DEPTH  # only to see whether the calls go deeper: no edge is recorded
            for region in frontier:
                for call in self._calls(region):
                    for definition in self._definitions_called(call) if last else self._resolve(call):
                        if any(contains(r, definition) for r in regions):
                            continue
                        if last or len(regions) >= bounds.MAX_REGIONS:
                            self._not_followed(call, definition, last)
                            continue
                        regions.append(definition)
                        following.append(definition)
                        self._reached.setdefault(key_of(definition), set()).add(sizes)
            if not following:
                break
            frontier = following
        self._groups.append([k for k in (self._scan_key(r) for r in regions) if k is not None])
        return tuple(span_of(_body(r) or r) for r in regions)

    def _not_followed(self, call: Node, definition: Node, too_deep: bool) -> None:
        """Say where the call graph was cut: the device code behind `call` is not analysed."""
        name = self.names.get(key_of(definition)) or _function_name(definition) or "a device function"
        self.limits.setdefault(call.start_byte, bounds.call_graph_cut(name, span_of(call), too_deep))

    def _calls(self, region: Node) -> list[Node]:
        return self._scan(region).get("call", []) + self._scan(region).get("tcall", [])

    def _scan(self, region: Node) -> dict[str, list[Node]]:
        key = key_of(region)
        if key not in self.scans:
            ancestor = region.parent
            while ancestor is not None:
                if ancestor.type in ("lambda_expression", "function_definition") and key_of(ancestor) in self.roots:
                    return {}  # already part of an enclosing region's scan
                ancestor = ancestor.parent
            captures = treesitter.captures("cpp", "cpp_device", region)
            self.scans[key] = {name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in captures.items()}
            self.roots[key] = region
            self.owner.add([region, *captures.get("lambda", []), *captures.get("function", [])])
        return self.scans[key]

    def _definitions_called(self, call: Node) -> list[Node]:
        """The definitions `call` may reach, found without recording the call as an edge of the graph."""
        if self._index is None:
            self._index = _FunctionIndex(self._index_matches)
        return [d for d in self._index.resolve(call) if not contains(d, call)]

    def _resolve(self, call: Node) -> list[Node]:
        edge = (call.start_byte, call.end_byte, call.type)
        if edge not in self._edges:
            found = self._definitions_called(call)
            self._edges[edge] = [key_of(d) for d in found]
            for definition in found:
                self._definitions[key_of(definition)] = definition
                lambdas = self._index.lambda_names if self._index is not None else {}
                name = lambdas.get(key_of(definition)) or _function_name(definition)
                if name:
                    self.names[key_of(definition)] = name
        return [self._definitions[k] for k in self._edges[edge]]

    def _sizes_of(self, key: Key) -> tuple[int | None, int | None]:
        """The sizes a unit runs with: a kernel's own; a device function's when every kernel that
        reaches it has the same ones."""
        if key in self.sizes:
            return self.sizes[key]
        reached = self._reached.get(key, set())
        return next(iter(reached)) if len(reached) == 1 else (None, None)

    def callees(self, call: Node) -> list[Key]:
        """Device units a call reaches (empty for calls outside the scanned code or to unknown code)."""
        return self._edges.get((call.start_byte, call.end_byte, call.type), [])

    def components(self) -> list[list[Key]]:
        """The scanned regions in groups that share no code: a kernel with the device functions it
        reaches, kernels reaching a common function together (and scans that overlap), each group
        and its regions in the order they were scanned."""
        parent = {key: key for key in self.scans}

        def find(key: Key) -> Key:
            while parent[key] != key:
                parent[key] = parent[parent[key]]
                key = parent[key]
            return key

        for group in self._groups:
            for key in group[1:]:
                parent[find(key)] = find(group[0])
        for key, root in self.roots.items():
            ancestor = root.parent
            while ancestor is not None:
                if key_of(ancestor) in self.scans:
                    parent[find(key)] = find(key_of(ancestor))
                ancestor = ancestor.parent
        groups: dict[Key, list[Key]] = {}
        for key in self.scans:
            groups.setdefault(find(key), []).append(key)
        return list(groups.values())

    def _scan_key(self, region: Node) -> Key | None:
        """The scan that holds `region`: its own, or an enclosing region's."""
        node: Node | None = region
        while node is not None:
            if key_of(node) in self.scans:
                return key_of(node)
            node = node.parent
        return None

    def unit_sources(self, scans: dict[Key, dict[str, list[Node]]]) -> list[UnitSource]:
        """Every region root of `scans` and nested lambda as a dependence unit, with the captures it owns."""
        sources: dict[Key, UnitSource] = {}
        for key, captures in scans.items():
            root = self.roots[key]
            sources[key] = UnitSource(key, root, None, {}, self.kernels.get(key), *self._sizes_of(key))
            for lam in captures.get("lambda", []):
                owner = self.owner(lam)
                sources.setdefault(
                    key_of(lam), UnitSource(key_of(lam), lam, key_of(owner) if owner is not None else key, {})
                )
            for name, nodes in captures.items():
                for node in nodes:
                    owner = self.owner(node)
                    target = sources.get(key_of(owner)) if owner is not None else None
                    if target is not None:
                        target.nodes.setdefault(name, []).append(node)
        return list(sources.values())

    def reach(
        self, spans: Iterable[Span], chain: tuple[Span, ...] = (), depth: int = 0, seen: set[Key] | None = None
    ) -> list[Reach]:
        """Device functions called from inside `spans` (transitively), with the call sites leading there."""
        seen = set() if seen is None else seen
        found: list[Reach] = []
        if depth >= bounds.MAX_CALL_DEPTH:
            return found
        if self._call_starts is None:
            self._call_list = sorted(
                (
                    (call, self.callees(call))
                    for captures in self.scans.values()
                    for call in captures.get("call", []) + captures.get("tcall", [])
                    if self.callees(call)
                ),
                key=lambda c: c[0].start_byte,
            )
            self._call_starts = [call.start_byte for call, _callees in self._call_list]
        inside = []
        for span in spans:
            first = bisect_left(self._call_starts, span.start_byte)
            last = bisect_left(self._call_starts, span.end_byte)
            inside += [c for c in self._call_list[first:last] if c[0].end_byte <= span.end_byte]
        for call, callees in inside:
            for callee in callees:
                node = self._definitions.get(callee)
                body = _body(node) if node is not None else None
                if body is None or callee in seen:
                    continue
                seen.add(callee)
                calls = chain + (span_of(call),)
                found.append(Reach(span_of(body), calls, self.names.get(callee)))
                found += self.reach([span_of(body)], calls, depth + 1, seen)
        return found


def _function_name(definition: Node) -> str | None:
    declarator = function_declarator(definition)
    name = declarator.child_by_field_name("declarator") if declarator is not None else None
    return callee_name(name) if name is not None else None


# -- branches ------------------------------------------------------------------------------------


def _branches(
    graph: _DeviceGraph, scans: dict[Key, dict[str, list[Node]]], dependence: CppDependence
) -> Iterable[Branch]:
    arms = ArmCounter(lambda call: bool(graph.callees(call)), dependence.scopes.constant, Parents(graph.root))
    heads = _ChainHeads(arms.parent_of)
    code_only = CodeOnly(graph.root.text or b"", graph.root.start_byte)
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
    graph: _DeviceGraph, captures: dict[str, list[Node]], node: Node, regions: list[Node]
) -> tuple[BranchExit | None, tuple[Reach, ...]]:
    """A `return`, `break` or `continue` under the branch that leaves code around it, and that code."""
    if node.type not in ("if_statement", "switch_statement") or not regions:
        return None, ()
    owner = graph.owner(node)
    for jump in captures.get("return", []) + captures.get("jump", []):
        if not any(contains(r, jump) for r in regions) or graph.owner(jump) != owner:
            continue
        if jump.type == "return_statement":
            body = _body(owner) if owner is not None else None
            if body is None:
                continue
            rest = span_between(node, body, after_first=True)
            return "return", (Reach(rest),) + tuple(graph.reach([rest]))
        target = _jump_target(jump)
        if target is not None and contains(target, node) and target != node:
            word: BranchExit = "break" if jump.type == "break_statement" else "continue"
            body = _body(target) if word == "continue" else None
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


def _select_like(graph: _DeviceGraph, node: Node) -> bool:
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
    graph: _DeviceGraph, scans: dict[Key, dict[str, list[Node]]], dependence: CppDependence
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
