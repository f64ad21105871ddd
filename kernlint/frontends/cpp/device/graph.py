"""The device call graph of a C/C++ file: the code each kernel reaches (its body, then the functions and
stored lambdas it calls, transitively, within bounds), the call edges, and the groups of kernels that
share code (`components`), which are analysed apart."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import replace
from functools import cached_property

import tree_sitter

from kernlint.facts import KernelLaunch, LimitReached, Span
from kernlint.facts.device import Reach
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import contains, node_at, span_of, text_of
from kernlint.frontends.cpp.dependence.context import UnitSource
from kernlint.frontends.cpp.dependence.nodes import Key, Owners, call_parts, callee_name, key_of
from kernlint.frontends.cpp.device import limits as bounds
from kernlint.frontends.cpp.device.text_marks import TextMarks
from kernlint.frontends.cpp.syntax import function_declarator

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


def body_of(root: Node) -> Node | None:
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
        return [d for d in found if not _HOST_MARKERS.search(d.text or b"") and body_of(d) is not None]


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


class DeviceGraph:
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
        return tuple(span_of(body_of(r) or r) for r in regions)

    def _not_followed(self, call: Node, definition: Node, too_deep: bool) -> None:
        """Say where the call graph was cut: the device code behind `call` is not analysed."""
        name = self.names.get(key_of(definition)) or function_name(definition) or "a device function"
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
                name = lambdas.get(key_of(definition)) or function_name(definition)
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

    @cached_property
    def text_marks(self) -> TextMarks:
        """The parentheses, comments and directive lines of the whole text, for every kernel's branches."""
        return TextMarks(self.root.text or b"", self.root.start_byte)

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
                body = body_of(node) if node is not None else None
                if body is None or callee in seen:
                    continue
                seen.add(callee)
                calls = chain + (span_of(call),)
                found.append(Reach(span_of(body), calls, self.names.get(callee)))
                found += self.reach([span_of(body)], calls, depth + 1, seen)
        return found


def function_name(definition: Node) -> str | None:
    declarator = function_declarator(definition)
    name = declarator.child_by_field_name("declarator") if declarator is not None else None
    return callee_name(name) if name is not None else None
