"""Memory accesses of SYCL device code (KL601–KL603): every subscript into global or local memory, with
the lane stride of its address, the element it moves and where it runs.

The subscript's base is resolved to the memory it indexes (`memory_objects`); its index, and any
offset the base pointer carries (`float *row = a + gid * n; row[k]`), are lowered into the dependence
analysis' terms and read by the lane-stride pass (`kernlint.analysis.strides`) with the unit's solved
program. A multi-dimensional subscript is flattened row-major over its declared extents (`tile[ty][tx]`
of a `[32][33]` tile is `ty * 33 + tx`), an unknown extent standing as a symbol. A member of a struct
element (`p[i].x`) is an access of the member's size, the struct's size apart.

Where it runs: the innermost loop around it in its unit (or around the call of its device function),
whether its kernel's device code has any loop at all, and whether a leader test (`lid == 0`) keeps
one lane on it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction

import tree_sitter

from kernlint.analysis.dependence import Binary, Const, Expr, Uniform
from kernlint.analysis.strides import LaneForm, StrideSource, classify, constant_apart, lane_form
from kernlint.facts import KernelLaunch, LocalAllocation, Span
from kernlint.facts.kinds import AccessKind, LaneKind
from kernlint.facts.memory import LaneStride, MemoryAccess
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.lane_strides import FileStrides, LaneShape, dims_of, loop_counter_names
from kernlint.frontends.cpp.dependence.nodes import Key, call_parts, key_of, same_node
from kernlint.frontends.cpp.dependence.program import CppDependence
from kernlint.frontends.cpp.device.memory_objects import MemoryObject, MemoryObjects, calls_into, span_in
from kernlint.frontends.cpp.types import CppTypes
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.records import record

Node = tree_sitter.Node

_STORES = frozenset({"="})


@record
class DeviceView:
    """What the device-code graph knows that accesses need: each scanned region's captures, the device
    units a call reaches, the name of a device function, and the kernel root keys."""

    scans: dict[Key, dict[str, list[Node]]]
    callees: Callable[[Node], list[Key]]
    names: dict[Key, str]
    kernels: frozenset[Key]
    owner: Callable[[Node], Node | None]


def memory_accesses(
    unit: CppUnit,
    view: DeviceView,
    dependence: CppDependence,
    launches: tuple[KernelLaunch, ...],
    local_allocations: tuple[LocalAllocation, ...],
    types: CppTypes,
) -> tuple[MemoryAccess, ...]:
    """The accesses of every kernel's device code, in source order (`types`: the file's, read once for
    all device analyses)."""
    subscripts = _subscripts(view.scans)
    if not subscripts:
        return ()
    regions = [region for launch in launches for region in launch.regions]
    calls = calls_into(dependence, view.scans, view.callees)
    objects = MemoryObjects(dependence, types, span_in(regions), local_allocations, calls)
    reader = _Reader(unit, view, dependence, launches, types, objects, calls)
    reader.strides = FileStrides(
        dependence,
        unit.constants.value,
        lambda name, at: _handle_dims(types, name, at),
        reader.shape,
        calls,
        types.function_macro,
    )
    found = [access for node in subscripts if (access := reader.access(node)) is not None]
    return tuple(_with_members_used(found, reader.unseen, types, reader.kernel_of))


def _subscripts(scans: dict[Key, dict[str, list[Node]]]) -> list[Node]:
    seen: dict[Key, Node] = {}
    for captures in scans.values():
        for node in captures.get("subscript", []):
            seen.setdefault(key_of(node), node)
    return [seen[key] for key in sorted(seen)]


class _Reader:
    def __init__(
        self,
        unit: CppUnit,
        view: DeviceView,
        dependence: CppDependence,
        launches: tuple[KernelLaunch, ...],
        types: CppTypes,
        objects: MemoryObjects,
        calls: dict[Key, list[tuple[Node, UnitContext]]],
    ) -> None:
        self.unit = unit
        self.view = view
        self.dependence = dependence
        self.launches = launches
        self.types = types
        self.objects = objects
        self.calls = calls
        loops = sorted({n.start_byte for c in view.scans.values() for n in c.get("loop", [])})
        self._looping = [any(_starts_within(loops, r) for r in launch.regions) for launch in launches]
        # which launches' device code holds a span, by bisection (a scan of every launch is quadratic)
        self._code = SpanIndex((region, k) for k, launch in enumerate(launches) for region in launch.code_spans())
        self._shapes: dict[Key, LaneShape] = {}
        self._memos: dict[Key, dict] = {}  # per unit: the forms of its variables
        self._uppers: dict[Key, bool] = {}
        self.strides: FileStrides
        self.unseen: list[tuple[str, Span]] = []  # elements used where we cannot see which members

    def access(self, node: Node) -> MemoryAccess | None:
        parent = self.dependence.parent_of(node)
        if (
            parent is not None
            and parent.type == "subscript_expression"
            and same_node(parent.child_by_field_name("argument"), node)
        ):
            return None  # the inner part of `t[a][b]`: read with the whole
        indices, base = chain(node)
        context = self.dependence.context_of(node)
        if base is None or context is None or any(i is None for i in indices):
            return None
        memory = self.objects.of(base, context)
        if memory is None or len(indices) != len(memory.extents):
            return None
        lowered = [self.dependence.lower(i, context) for i in indices]  # type: ignore[arg-type]
        address = _flatten(memory, lowered)
        shape = self.shape(context)
        source = self.strides.source(context, node)
        memo = self._memos.setdefault(context.source.key, {})
        form = lane_form(address, source, memo)
        offset = (
            lane_form(self.dependence.lower(base, context), source, memo) if base.type != "identifier" else LaneForm()
        )
        if form is None or offset is None:
            return None
        if offset.varies and self._retyped(base, memory, context):
            return None  # `((uint32_t *)bytes)[i]` with bytes = p + gid * n: n counts bytes, not words
        form = LaneForm(form.lane + offset.lane, form.row + offset.row, form.uniform)
        loops = self.dependence.loops_around(node, context)
        counters = loop_counter_names(context, loops)
        named = classify(form, lambda name: name in counters)
        if named is None:
            return None
        index_shape, apart = constant_apart(form)
        outer, member = member_of(node, self.dependence.parent_of)
        if address_taken(outer, self.dependence.parent_of):
            self.unseen.append((text_of(base), span_of(outer)))
            return None  # `&a[i]`: an address handed on, not an element read
        element_bytes = pitch = self.types.size(memory.element_type) if memory.element_type else None
        struct = None
        if member is not None:
            layout = self.types.layout(memory.element_type) if memory.element_type else None
            field = layout.member(member) if layout is not None else None
            if layout is None or field is None:
                self.unseen.append((text_of(base), span_of(outer)))
                return None  # `p[i].set(…)`: a method, whose reads we do not follow
            struct, pitch = layout.name, layout.size
            element_bytes = self.types.size(field.type_text) or None
        return MemoryAccess(
            span=span_of(outer),
            array=text_of(base),
            index="".join(f"[{text_of(i)}]" for i in indices),
            space=memory.space,
            kind=access_kind(outer, self.dependence.parent_of),
            stride=LaneStride(
                named.form,
                _number(named.elements),
                named.symbol,
                named.counter,
                shape.row_width,
                _number(form.row.value) if shape.row_width is not None else None,
                _steps(lowered, source, memo) if len(lowered) > 1 and memory.space == "local" else (),
                index_shape,
                _number(apart),
            ),
            element_bytes=element_bytes,
            pitch_bytes=pitch,
            element_type=memory.element_type,
            struct=struct,
            member=member,
            extents=memory.extents if memory.space == "local" else (),
            loop=self._loop(node, context, loops),
            main=self._main(node),
            lanes=self._lanes(node, context),
            function=self._function(node),
            active_lanes=self._active(node, context) if memory.space == "local" else None,
        )

    def _retyped(self, base: Node, memory: MemoryObject, context: UnitContext) -> bool:
        """Whether `base` casts a pointer to an element of another size (or one we cannot size): the offset
        the pointer carries counts the old elements, the subscript the new ones."""
        node = base
        while node.type == "parenthesized_expression" and node.named_children:
            node = node.named_children[0]
        if node.type == "cast_expression":
            inner = node.child_by_field_name("value")
        elif node.type == "call_expression":
            receiver, name, args = call_parts(node)
            if receiver is not None or name not in ("static_cast", "reinterpret_cast") or len(args) != 1:
                return False
            inner = args[0]
        else:
            return False
        found = self.objects.of(inner, context) if inner is not None else None
        if found is None or found.element_type is None or memory.element_type is None:
            return True
        before, after = self.types.size(found.element_type), self.types.size(memory.element_type)
        return before is None or before != after

    # -- where it runs --------------------------------------------------------------------------------

    def _loop(self, node: Node, context: UnitContext, loops: tuple[Node, ...]) -> Span | None:
        """The innermost loop around the access, or around a call of its device function."""
        if loops:
            return span_of(loops[0])
        for call, caller in self.calls.get(context.source.key, []):
            around = self.dependence.loops_around(call, caller)
            if around:
                return span_of(around[0])
        return None

    def kernel_of(self, span: Span) -> int:
        """The first launch whose device code holds `span` (-1: none)."""
        return min(self._code.containing(span), default=-1)

    def _main(self, node: Node) -> bool:
        """Whether every kernel reaching the access has no loop in its device code."""
        reaching = set(self._code.containing(span_of(node)))
        return bool(reaching) and not any(self._looping[i] for i in reaching)

    def _lanes(self, node: Node, context: UnitContext) -> LaneKind | None:
        """ "single" under the taken arm of a leader test (`if (lid == 0)`); "edge" under the other arm of a
        bound test (`if (i < n) … else …`, `remain >= 8 ? … : tail`), which only the lanes past the bound run."""
        parent_of = self.dependence.parent_of
        child, current = node, parent_of(node)
        root = context.source.root
        found: LaneKind | None = None
        while current is not None and current != root:
            if current.type in ("if_statement", "conditional_expression"):
                taken = same_node(current.child_by_field_name("consequence"), child)
                other = not taken and _in_alternative(current, child)
                grade = self.dependence.grade(current) if taken or other else None
                lanes = grade.lanes.kind if grade is not None and grade.lanes is not None else None
                if taken and lanes == "single":
                    return "single"
                if grade is not None and grade.dependence == "boundary" and (taken or other):
                    upper = self._upper(current, context)  # holds for the top lanes only: the taken arm is the tail
                    if (taken and upper) or (other and not upper and lanes == "edge"):
                        found = "edge"
            child, current = current, parent_of(current)
        return found

    def _active(self, node: Node, context: UnitContext) -> int | None:
        """The most lanes of a sub-group the tests around `node` let through: the taken arm of
        `lid < B` (or `B > lid`) with B a constant or a loop counter that starts at a constant and only
        falls (`for (d = 8; d > 0; d >>= 1) if (lid < d)`: at most 8 lanes)."""
        parent_of = self.dependence.parent_of
        child, current = node, parent_of(node)
        found: int | None = None
        while current is not None and current != context.source.root:
            if current.type == "if_statement" and same_node(current.child_by_field_name("consequence"), child):
                bound = self._lane_bound(current, context)
                if bound is not None:
                    found = bound if found is None else min(found, bound)
            child, current = current, parent_of(current)
        return found

    def _lane_bound(self, statement: Node, context: UnitContext) -> int | None:
        condition = statement.child_by_field_name("condition")
        while condition is not None and condition.type in ("condition_clause", "parenthesized_expression"):
            condition = condition.child_by_field_name("value") or next(iter(condition.named_children), None)
        if condition is None or condition.type != "binary_expression":
            return None
        op = text_of(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if left is None or right is None or op not in ("<", "<=", ">", ">="):
            return None
        lane, bound = (left, right) if op in ("<", "<=") else (right, left)
        form = lane_form(self.dependence.lower(lane, context), self.strides.source(context, condition))
        if form is None or form.lane.value != 1 or not form.row.zero or not form.uniform.zero:
            return None  # only the local id itself: a global id or an offset lane is a range test
        top = self._constant(bound, context)
        if top is None and bound.type == "identifier":
            top = self._falling_counter_start(bound, statement, context)
        if top is None:
            return None
        return int(top) + (1 if op in ("<=", ">=") else 0)

    def _constant(self, node: Node, context: UnitContext) -> float | None:
        lowered = self.dependence.lower(node, context)
        value = lowered.value if isinstance(lowered, Const) else None
        return value if value is not None and value >= 0 else None

    def _falling_counter_start(self, name: Node, inside: Node, context: UnitContext) -> float | None:
        """The start of the loop counter `name` of a loop around `inside` whose update only lowers it."""
        text = text_of(name)
        loop = self.dependence.parent_of(inside)
        while loop is not None and loop != context.source.root:
            if loop.type == "for_statement":
                init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
                start = _declared_start(init, text) if init is not None else None
                if start is not None:
                    if update is None or not _falls(update, text):
                        return None
                    return self._constant(start, context)
            loop = self.dependence.parent_of(loop)
        return None

    def _upper(self, statement: Node, context: UnitContext) -> bool:
        """Whether a bound test holds only for the lanes at the top of the range, near the problem's size
        (`if (n - 8 * gid < 8)`, `if (x > width - 2)`): the tail a vectorised kernel leaves to a loop."""
        key = key_of(statement)
        if key not in self._uppers:
            self._uppers[key] = self._holds_for_the_top(statement, context)
        return self._uppers[key]

    def _holds_for_the_top(self, statement: Node, context: UnitContext) -> bool:
        condition = statement.child_by_field_name("condition")
        while condition is not None and condition.type in ("condition_clause", "parenthesized_expression"):
            condition = condition.child_by_field_name("value") or next(iter(condition.named_children), None)
        if condition is None or condition.type != "binary_expression":
            return False
        op = text_of(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if op not in ("<", "<=", ">", ">=") or left is None or right is None:
            return False
        difference = Binary("-", self.dependence.lower(left, context), self.dependence.lower(right, context))
        form = lane_form(difference, self.strides.source(context, condition))
        step = form.lane.value if form is not None else None
        if step is None or step == 0 or form is None:
            return False
        high = (step < 0) == (op in ("<", "<="))
        return high and any(not s.startswith("?") for s in form.uniform.symbols)

    def _function(self, node: Node) -> str | None:
        owner = self.view.owner(node)
        while owner is not None and owner.type == "lambda_expression" and key_of(owner) not in self.view.kernels:
            owner = self.view.owner(owner)  # a lambda inside a kernel or a device function
        if owner is None or key_of(owner) in self.view.kernels:
            return None
        return self.view.names.get(key_of(owner))

    def shape(self, context: UnitContext) -> LaneShape:
        key = context.source.key
        if key not in self._shapes:
            root = context.source.root
            body = root.child_by_field_name("body") or root
            first = min(self._code.containing(span_of(body)), default=None)
            launch = self.launches[first] if first is not None else None
            self._shapes[key] = _lane_shape(launch)
        return self._shapes[key]


# -- helpers ------------------------------------------------------------------------------------------


def _declared_start(init: Node, name: str) -> Node | None:
    """`int d = 8` (or `d = 8`) in a for-loop's initializer: the value node."""
    declarator = init.child_by_field_name("declarator") if init.type == "declaration" else init
    if declarator is not None and declarator.type == "assignment_expression":
        target, value = declarator.child_by_field_name("left"), declarator.child_by_field_name("right")
    elif declarator is not None and declarator.type == "init_declarator":
        target, value = declarator.child_by_field_name("declarator"), declarator.child_by_field_name("value")
    else:
        return None
    return value if target is not None and text_of(target) == name else None


def _falls(update: Node, name: str) -> bool:
    """`d >>= 1`, `d /= 2`, `d -= k`, `--d`, `d--`: an update that only lowers a non-negative counter."""
    if update.type == "update_expression":
        return text_of(update.child_by_field_name("argument")) == name and "--" in text_of(update)
    if update.type != "assignment_expression" or text_of(update.child_by_field_name("left")) != name:
        return False
    operator = text_of(update.child_by_field_name("operator"))
    value = update.child_by_field_name("right")
    return operator in (">>=", "/=", "-=") and value is not None and value.type == "number_literal"


def address_taken(node: Node, parent_of: Callable[[Node], Node | None]) -> bool:
    parent = parent_of(node)
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent_of(parent)
    return (
        parent is not None
        and parent.type == "pointer_expression"
        and text_of(parent.child_by_field_name("operator")) == "&"
    )


def _in_alternative(statement: Node, child: Node) -> bool:
    """Whether `child` is the `else` arm of an `if` (its else clause) or the third operand of a `?:`."""
    alternative = statement.child_by_field_name("alternative")
    if alternative is None:
        return False
    return same_node(alternative, child) or (
        alternative.type == "else_clause" and any(same_node(c, child) for c in alternative.named_children)
    )


def chain(node: Node) -> tuple[list[Node | None], Node | None]:
    """The indices of `a[i][j]` outermost first, and its base `a`."""
    indices: list[Node | None] = []
    base: Node | None = node
    while base is not None and base.type == "subscript_expression":
        argument_list = base.child_by_field_name("indices")
        named = argument_list.named_children if argument_list is not None else []
        indices.insert(0, named[0] if len(named) == 1 else None)
        base = base.child_by_field_name("argument")
    return indices, base


def _flatten(memory: MemoryObject, indices: list[Expr]) -> Expr:
    """Row-major: `t[a][b]` of extents (E0, E1) is a × E1 + b; an unknown extent is a named symbol."""
    address: Expr = indices[0]
    for dimension, index in enumerate(indices[1:], start=1):
        extent = memory.extents[dimension]
        pitch: Expr = Const(extent) if extent is not None else Uniform(f"{memory.name}'s row length")
        address = Binary("+", Binary("*", address, pitch), index)
    return address


def _steps(indices: list[Expr], source: StrideSource, memo: dict) -> tuple[tuple[float | None, float | None], ...]:
    """How far the lane and the next row of lanes move each subscript; () when one is not readable."""
    found = []
    for index in indices:
        form = lane_form(index, source, memo)
        if form is None:
            return ()
        found.append((_number(form.lane.value), _number(form.row.value)))
    return tuple(found)


def member_of(node: Node, parent_of: Callable[[Node], Node | None]) -> tuple[Node, str | None]:
    """`p[i].x`: the member expression and `x`; else the subscript itself (also for a method called on
    the element, `v[i].x()` of a vector: the element is loaded whole)."""
    parent = parent_of(node)
    if (
        parent is not None
        and parent.type == "field_expression"
        and text_of(parent.child_by_field_name("operator")) == "."
        and same_node(parent.child_by_field_name("argument"), node)
    ):
        above = parent_of(parent)
        if above is not None and above.type == "call_expression":
            return node, None
        return parent, text_of(parent.child_by_field_name("field"))
    return node, None


def access_kind(node: Node, parent_of: Callable[[Node], Node | None]) -> AccessKind:
    parent = parent_of(node)
    while parent is not None and parent.type in ("parenthesized_expression", "subscript_expression"):
        if parent.type == "subscript_expression" and not same_node(parent.child_by_field_name("argument"), node):
            return "load"  # used as an index
        node, parent = parent, parent_of(parent)
    if parent is None:
        return "load"
    if parent.type == "assignment_expression" and same_node(parent.child_by_field_name("left"), node):
        return "store" if text_of(parent.child_by_field_name("operator")) in _STORES else "update"
    if parent.type == "update_expression":
        return "update"
    return "load"


def _lane_shape(launch: KernelLaunch | None) -> LaneShape:
    """Which dimension is fastest: the last whose extent is not 1 (the local range's when known, else
    the global range's), and that dimension's local extent."""
    if launch is None:
        return LaneShape()
    local = launch.local_range or launch.attributes.reqd_work_group_size
    extents = local if local is not None and local.known else launch.global_range
    if extents is None or not extents.dims:
        return LaneShape()
    dims = len(extents.dims)
    fastest = next((d for d in range(dims - 1, -1, -1) if extents.dims[d] != 1), dims - 1)
    width = local.dims[fastest] if local is not None and local.known and len(local.dims) == dims else None
    return LaneShape(dims, fastest, width)


def _handle_dims(types: CppTypes, name: str, at: Node) -> int | None:
    declared = types.declared(name, at)
    return dims_of(declared.type_text) if declared is not None else None


def _number(value: Fraction | None) -> float | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def _with_members_used(
    accesses: Iterable[MemoryAccess],
    unseen: Iterable[tuple[str, Span]],
    types: CppTypes,
    kernel: Callable[[Span], int],
) -> list[MemoryAccess]:
    """For struct members: which members of the struct the kernel's accesses to the same array use (a
    whole-element access uses them all, and so does one we cannot follow: `&p[i]` handed on, a method
    called on `p[i]`), and the bytes they cover."""
    found = list(accesses)
    used: dict[tuple[str, int], set[str]] = {}
    for array, span in unseen:
        used.setdefault((array, kernel(span)), set()).add("*")
    for access in found:
        key = (access.array, kernel(access.span))
        if access.member is not None:
            used.setdefault(key, set()).add(access.member)
        elif access.element_type is not None and access.struct is None:
            used.setdefault(key, set()).add("*")
    result = []
    for access in found:
        if access.member is None or access.element_type is None:
            result.append(access)
            continue
        members = used.get((access.array, kernel(access.span)), set())
        layout = types.layout(access.element_type)
        if layout is None:
            result.append(access)
            continue
        if "*" in members:  # the whole element used: every member, the padding too
            result.append(replace(access, members_used=tuple(m.name for m in layout.members), used_bytes=layout.size))
            continue
        covered = sum(m.size for m in layout.members if m.name in members)
        if all(m.name in members for m in layout.members):
            covered = layout.size  # every member: the whole struct, its padding too
        result.append(replace(access, members_used=tuple(sorted(members)), used_bytes=covered))
    return result


def _starts_within(starts: list[int], region: Span) -> bool:
    """Whether one of the sorted offsets `starts` lies in `region` (by bisection)."""
    at = bisect_left(starts, region.start_byte)
    return at < len(starts) and starts[at] < region.end_byte
