"""The device steps of C/C++ host code: SYCL submissions, copies and waits, OpenMP target regions, data
motion and `taskwait`, each read into a `HostStep` with the data it reads and writes.

A submission is the outermost `submit`/`parallel_for`/`single_task` call on the host (not one inside a
command group or kernel); its data are the pointers, arrays and buffers its command group names
(scalars are captured by value, so the host may change them at once). A copy's data are its source
and destination, and its direction comes from where each lives (a USM kind, a host array, `malloc`).
An OpenMP construct's data are its map items and the arrays it maps implicitly, by map type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import tree_sitter

from kernlint.facts import Accessor, OmpConstruct, Span
from kernlint.facts.host import CopyDirection, HostStep
from kernlint.facts.openmp import section_bytes
from kernlint.facts.openmp_directive import OmpItem
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import arguments_of, span_between, span_of, text_of
from kernlint.frontends.cpp.callees import Callees, parameters
from kernlint.frontends.cpp.hostflow.access import Effect, base_name, effect
from kernlint.frontends.cpp.hostflow.declarations import Declarations, declarator_name
from kernlint.frontends.cpp.syntax import last_name, method_field
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

SUBMITS = frozenset({"submit", "parallel_for", "single_task", "parallel_for_work_group"})
COPIES = frozenset({"memcpy", "memset", "fill", "copy", "prefetch"})
WAITS = frozenset({"wait", "wait_and_throw"})
#: Declared types whose objects are runtime handles, not data a kernel reads or writes.
_HANDLE_TYPES = re.compile(
    r"\b(queue|handler|n?d?_?range|id|item|nd_item|event|device|context|property_list|stream|kernel_bundle"
    r"|accessor|local_accessor|host_accessor|sampler|platform|exception_list)\b"
)
_HOST_WAITABLES = re.compile(r"\b(future|shared_future|condition_variable\w*|barrier|latch|\w*semaphore|thread)\b")
#: Map types that move data to the device, from it, or neither.
_TO = frozenset({"to", "tofrom"})
_FROM = frozenset({"from", "tofrom"})


@dataclass
class Found:
    """A device step before it is placed in its flow: the step, the node it covers (host code inside it
    is part of it, not a use), the function holding it and where it sits in the order of execution."""

    step: HostStep
    node: Node
    function: Node
    order: int
    covers: tuple[Span, ...] = field(default=())
    size: Node | None = None  # a copy's size argument, evaluated only for copies in host loops
    scale: int | None = 1  # bytes per unit of `size` (an element's for `copy` and `fill`)
    priced: bool = False  # evaluate the size outside loops too (a round trip or partial results)


class StepReader:
    """Reads the device steps of one file (its declarations, USM allocations and callees known)."""

    def __init__(
        self,
        unit: CppUnit,
        declarations: Declarations,
        callees: Callees,
        usm_kinds: dict[str, str],
        in_device: Callable[[Node], bool],
        in_loop: Callable[[Node], bool],
        in_order: Callable[[str | None], bool],
    ) -> None:
        self.unit = unit
        self.declarations = declarations
        self.callees = callees
        self.usm_kinds = usm_kinds
        self.in_device = in_device
        self.in_loop = in_loop
        self.in_order = in_order
        self._data: dict[tuple[str, int], bool] = {}
        self._constructs: tuple[OmpConstruct, ...] = ()

    # -- SYCL ----------------------------------------------------------------------------------

    def sycl_steps(
        self, members: list[tuple[str, Node]], event_waits: list[Node], accessors: Iterable[Accessor]
    ) -> list[Found]:
        """Submissions, queue copies, waits (member, static and host accessors) of the host code."""
        host = [(name, call) for name, call in members if not self.in_device(call) and _host_level(call)]
        submissions = [call for name, call in host if name in SUBMITS]
        submissions = [s for s in submissions if not any(o is not s and _inside(s, o) for o in submissions)]
        found: list[Found] = []
        copies = {id(call): call for name, call in members if name in COPIES}
        for call in submissions:
            inner = [c for c in copies.values() if _inside(c, call) and c is not call]
            item = self._copy(call, inner[0]) if inner and not self._launches_inside(call) else self._launch(call)
            if item is not None:
                found.append(item)
        for name, call in host:
            if name in COPIES and not any(_inside(call, s) for s in submissions):
                item = self._copy(call, call)
                if item is not None:
                    found.append(item)
            elif name in WAITS and not self._host_object(call):
                found.append(self._wait(call))
        for call in event_waits:
            if not self.in_device(call):
                found.append(self._wait(call))
        for accessor in accessors:
            if accessor.target == "host" and accessor.command_group is None:
                found += self._host_accessor(accessor)
        blocking = {f.order for f in found if f.step.kind == "wait"}
        return [
            replace(f, step=replace(f.step, blocking=True))
            if f.step.kind == "copy" and _chained_wait(f.node, blocking)
            else f
            for f in found
        ]

    def _host_object(self, call: Node) -> bool:
        """Whether a `.wait()` is a host library's (a future, a condition variable), not SYCL's."""
        receiver = _receiver(call)
        if receiver is None or not receiver.isidentifier():
            return False
        type_text = self.declarations.type_text(receiver, call.start_byte) or ""
        return bool(_HOST_WAITABLES.search(type_text))

    def _launches_inside(self, call: Node) -> bool:
        text = call.text or b""
        return any(word.encode() in text for word in ("parallel_for", "single_task"))

    def _launch(self, call: Node) -> Found | None:
        function = _function(call)
        if function is None:
            return None
        receiver = _receiver(call)
        form = f"{receiver}.{_method(call)}" if receiver else _method(call)
        # What a launch touches is read when a flow asks (`with_data`): where it repeats, or for partials.
        return Found(HostStep(span_of(call), "launch", form), call, function, call.start_byte)

    def with_data(self, step: HostStep, call: Node, groups: bool = False) -> HostStep:
        """`step` (the launch `call`) with the data its command group reads and writes and the values it
        takes; with `groups`, the arrays it writes one element of per work-group too (asked only of a
        launch whose result a host loop folds)."""
        receiver = _receiver(call)
        scanned = [call]
        for arg in arguments_of(call.child_by_field_name("arguments")):
            if arg.type == "identifier":  # `q.submit(command_group)`: a lambda made earlier
                value = self.declarations.initializer(text_of(arg), call.start_byte)
                if value is not None:
                    scanned.append(value)
        reads: dict[str, None] = {}
        writes: dict[str, None] = {}
        grouped: dict[str, None] = {}
        values: dict[str, None] = {}
        for node in scanned:
            for name, use, ident in self.data_uses(node, {receiver} if receiver else set(), values):
                if use[0]:
                    reads[name] = None
                if use[1]:
                    writes[name] = None
                    if groups and (_group_indexed(ident) or self._passed_to_grouped(ident)):
                        grouped[name] = None
        return replace(step, reads=tuple(reads), writes=tuple(writes), values=tuple(values), per_group=tuple(grouped))

    def data_uses(self, node: Node, exclude: set[str], values: dict[str, None]) -> list[tuple[str, Effect, Node]]:
        """The pointers, arrays and objects `node` (a command group, a kernel) uses from outside
        itself, with what each use does to their data; the scalars it takes by value go to `values`.
        An element access (`a[i]`, `*p`) is data by its syntax; a bare name asks its declaration."""
        captures = treesitter.captures("cpp", "cpp_host_names", node)
        local = {name for declarator in captures.get("local", []) if (name := declarator_name(declarator))}
        found = []
        for ident in captures.get("use", []):
            name = text_of(ident)
            if name in exclude or name in local:
                continue
            use = effect(ident, True, self.callees)
            if use is None:
                continue
            if _indexed(ident) or self.is_data(name, node.start_byte):
                found.append((name, use, ident))
            elif name not in self.unit.macros:
                values[name] = None
        return found

    def _passed_to_grouped(self, ident: Node) -> bool:
        """Whether `ident` is passed to a device function of the file that writes the parameter at
        the work-group's id (`d[item.get_group(0)] = aggregate;`)."""
        holder = ident.parent
        call = holder.parent if holder is not None and holder.type == "argument_list" else None
        if call is None or call.type != "call_expression" or holder is None:
            return False
        position = next((i for i, a in enumerate(arguments_of(holder)) if a == ident), -1)
        for definition in self.unit.functions().get(last_name(text_of(call.child_by_field_name("function"))), []):
            if b"get_group" not in (definition.text or b""):
                continue
            params = parameters(definition)
            name = declarator_name(params[position]) if 0 <= position < len(params) else None
            body = definition.child_by_field_name("body")
            if name is None or body is None:
                continue
            for node in _descendants(body):
                if node.type == "identifier" and text_of(node) == name and _group_indexed(node):
                    return True
        return False

    def is_data(self, name: str, at: int) -> bool:
        """Whether `name` holds data a kernel may read or write through it: a pointer, array, buffer
        or container (a scalar is captured by value; a queue or event is a handle). A name with no
        declaration in the file counts as data unless it is written like a macro constant."""
        key = (name, self.declarations.scope_of(at))
        if key not in self._data:
            self._data[key] = self._is_data(name, at)
        return self._data[key]

    def _is_data(self, name: str, at: int) -> bool:
        if name in self.usm_kinds:
            return True
        if name in self.unit.macros:
            return False
        declared = self.declarations.declared(name, at)
        if declared is None:
            return not name.isupper()
        if not declared.is_array and declared.element_bytes is not None:
            return False
        value = self.declarations.initializer(name, at)
        if value is not None and value.type == "lambda_expression":
            return False
        type_text = self.declarations.type_text(name, at) or ""
        return not _HANDLE_TYPES.search(type_text)

    def _copy(self, step_node: Node, call: Node) -> Found | None:
        function = _function(step_node)
        if function is None:
            return None
        method = _method(call)
        args = arguments_of(call.child_by_field_name("arguments"))
        names = [base_name(a) for a in args]
        source = destination = None
        size = None
        if method == "memcpy" and len(args) >= 3:
            destination, source, size = names[0], names[1], args[2]
        elif method == "copy" and len(args) >= 2:
            source, destination = names[0], names[1]
            size = args[2] if len(args) >= 3 else None
        elif method in ("memset", "fill") and args:
            destination = names[0]
            size = args[2] if len(args) >= 3 else None
        elif method == "prefetch" and args:
            source = names[0]
            size = args[1] if len(args) >= 2 else None
        else:
            return None
        at = call.start_byte
        scale = self._element_bytes(destination, at) if method in ("copy", "fill") else 1
        direction: CopyDirection = "on-device" if method in ("memset", "fill") else "unknown"
        if method in ("memcpy", "copy"):
            direction = _direction(self.memory(destination), self.memory(source))
        elif method == "prefetch":
            direction = "to-device"
        receiver = _receiver(step_node)
        step = HostStep(
            span_of(step_node),
            "copy",
            f"{receiver}.{method}" if receiver else method,
            (source,) if source else (),
            (destination,) if destination else (),
            direction=direction,
            size_text=text_of(size) if size is not None else None,
            values=tuple(dict.fromkeys(_names(size))) if size is not None else (),
        )
        return Found(step, step_node, function, step_node.start_byte, size=size, scale=scale)

    def _element_bytes(self, name: str | None, at: int) -> int | None:
        if name is None:
            return None
        declared = self.declarations.declared(name, at)
        return declared.element_bytes if declared is not None else None

    def copy_bytes(self, item: Found) -> int | None:
        """What a copy moves, when its size is a constant (evaluated on demand: it can cost a search
        for the writes of every name in the size)."""
        value = self.unit.constants.node_value(item.size) if item.size is not None else None
        return value * item.scale if value is not None and item.scale is not None else None

    def memory(self, name: str | None) -> str:
        """Where `name`'s data lives, as far as a copy's direction needs: "device" or "shared" for a
        USM allocation of the file, else "unknown" (host memory, or a pointer the file does not show)."""
        return self.usm_kinds.get(name, "unknown") if name is not None else "unknown"

    def _wait(self, call: Node) -> Found:
        field = method_field(call)
        start = field if field is not None else call
        receiver = _receiver(call)
        form = f"{receiver}.{_method(call)}()" if receiver and len(receiver) <= 24 else f"{_method(call)}()"
        if field is None:
            form = f"{text_of(call.child_by_field_name('function'))}(…)"
        step = HostStep(span_between(start, call), "wait", form, waits_all=self._waits_all(call, receiver))
        return Found(step, call, _function(call) or call, call.end_byte)

    def _waits_all(self, call: Node, receiver: str | None) -> bool:
        """Whether a `.wait()` waits for everything submitted before it: a queue's, or an in-order
        queue's operation (`q.memcpy(…).wait()`); an event's or an unknown object's waits for less."""
        if method_field(call) is None:
            return False  # `sycl::event::wait(list)`
        if receiver is None:  # chained to the operation it waits for
            function = call.child_by_field_name("function")
            operation = function.child_by_field_name("argument") if function is not None else None
            return operation is not None and operation.type == "call_expression" and self.in_order(_receiver(operation))
        type_text = self.declarations.type_text(receiver, call.start_byte) or ""
        if re.search(r"\bqueue\b", type_text):
            return True
        if re.search(r"\bevent\b", type_text) or type_text == "auto":
            return self.in_order(None)
        return False

    def _host_accessor(self, accessor: Accessor) -> list[Found]:
        node = self.unit.root.descendant_for_byte_range(accessor.span.start_byte, accessor.span.end_byte)
        function = _function(node) if node is not None else None
        if node is None or function is None or self.in_device(node):
            return []
        names = tuple(n for n in (accessor.name, accessor.buffer) if n)
        step = HostStep(accessor.span, "wait", "sycl::host_accessor", names, ())
        return [Found(step, node, function, accessor.span.end_byte)]

    # -- OpenMP --------------------------------------------------------------------------------

    def openmp_steps(self, constructs: tuple[OmpConstruct, ...], in_target: Callable[[Span], bool]) -> list[Found]:
        """Target regions, data motion and `taskwait` directives on the host."""
        self._constructs = constructs
        found: list[Found] = []
        for index, construct in enumerate(constructs):
            directive = construct.directive
            if directive is None or in_target(construct.span):
                continue
            node = self.unit.root.descendant_for_byte_range(construct.span.start_byte, construct.span.start_byte + 1)
            function = _function(node) if node is not None else None
            if node is None or function is None:
                continue
            kind = directive.kind
            at = construct.span.start_byte
            if kind == "taskwait":
                step = HostStep(construct.span, "wait", "#pragma omp taskwait", construct=index, waits_all=True)
                found.append(Found(step, node, function, at))
            elif kind == "target update":
                blocking = not directive.has("nowait")
                for clause in directive.clauses:
                    if clause.name in ("to", "from"):
                        for item in clause.items:
                            found.append(self._motion(construct, index, item, clause.name, blocking, node, function))
            elif kind in ("target enter data", "target exit data"):
                wanted = _TO if kind == "target enter data" else _FROM
                for mapped in directive.map_items:
                    if mapped.map_type in wanted:
                        way = "to" if kind == "target enter data" else "from"
                        found.append(self._motion(construct, index, mapped.item, way, True, node, function))
            elif "target" in construct.leaves:
                found.append(self._target(construct, index, node, function))
        return found

    def _motion(
        self, construct: OmpConstruct, index: int, item: OmpItem, way: str, blocking: bool, node: Node, function: Node
    ) -> Found:
        nbytes = section_bytes(self._constructs, item.text)
        name = item.name
        step = HostStep(
            construct.locate(item.text),
            "copy",
            f"#pragma omp {construct.kind} {'to' if way == 'to' else 'from'}({item.text})",
            (name,) if way == "to" else (),
            (name,) if way == "from" else (),
            direction="to-device" if way == "to" else "to-host",
            bytes=nbytes,
            size_text=item.text,
            construct=index,
            blocking=blocking,
        )
        return Found(step, node, function, construct.span.start_byte)

    def _target(self, construct: OmpConstruct, index: int, node: Node, function: Node) -> Found:
        directive = construct.directive
        assert directive is not None
        reads: dict[str, None] = {}
        writes: dict[str, None] = {}
        for mapped in directive.map_items:
            name = mapped.item.name
            if mapped.map_type in _TO or mapped.map_type is None:
                reads[name] = None
            if mapped.map_type in _FROM or mapped.map_type is None:
                writes[name] = None
        for implicit in construct.implicit_maps:
            reads[implicit.name] = writes[implicit.name] = None
        step = HostStep(
            construct.span,
            "launch",
            f"#pragma omp {construct.kind}",
            tuple(reads),
            tuple(writes),
            construct=index,
            blocking=not directive.has("nowait"),
        )
        covers = (construct.region,) if construct.region is not None else ()
        return Found(step, node, function, construct.span.start_byte, covers)


#: Calls whose value is the work-group's id (or a work-group's linear id).
_GROUP_IDS = frozenset({"get_group", "get_group_id", "get_group_linear_id"})


def _group_indexed(ident: Node) -> bool:
    """Whether `ident[…]` is written at the work-group's id: the index calls `get_group(…)` (directly or
    through a local defined from it in the kernel): one element per work-group."""
    element = ident.parent
    if element is None or element.type != "subscript_expression":
        return False
    indices = element.child_by_field_name("indices")
    if indices is None:
        return False
    names = {text_of(n) for n in _descendants(indices) if n.type in ("identifier", "field_identifier")}
    if names & _GROUP_IDS:
        return True
    kernel = ident.parent
    while kernel is not None and kernel.type != "lambda_expression":
        kernel = kernel.parent
    if kernel is None:
        return False
    for node in _descendants(kernel):
        if node.type == "init_declarator" and text_of(node.child_by_field_name("declarator")) in names:
            value = node.child_by_field_name("value")
            if value is not None and {text_of(n) for n in _descendants(value)} & _GROUP_IDS:
                return True
    return False


def _names(node: Node) -> list[str]:
    """The variables an expression reads (`candidates * sizeof(int)`: `candidates`)."""
    return [text_of(n) for n in _descendants(node) if n.type == "identifier" and effect_free_call(n)]


def effect_free_call(ident: Node) -> bool:
    """Whether `ident` is a value read, not a function called or a type named (`sizeof(int)`)."""
    parent = ident.parent
    return not (
        parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == ident
    )


def _descendants(node: Node) -> list[Node]:
    stack, found = [node], []
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(current.named_children)
    return found


def _indexed(ident: Node) -> bool:
    """Whether `ident` is subscripted or dereferenced (`a[i]`, `*p`, `p->x`): it points to data."""
    parent = ident.parent
    if parent is None:
        return False
    if parent.type == "subscript_expression":
        return parent.child_by_field_name("argument") == ident
    if parent.type == "pointer_expression":
        return text_of(parent.child_by_field_name("operator")) == "*"
    return parent.type == "field_expression" and text_of(parent.child_by_field_name("operator")) == "->"


def _direction(destination: str, source: str) -> CopyDirection:
    """Which way a copy goes, from where each side lives: to the device when the destination is device
    memory and the source is not (host memory, or memory the file does not say), back when the source
    is device memory and the destination is not; shared memory has no direction."""
    if destination == source == "device":
        return "on-device"
    if destination == "device" and source in ("host", "unknown"):
        return "to-device"
    if source == "device" and destination in ("host", "unknown"):
        return "to-host"
    return "unknown"


def _function(node: Node | None) -> Node | None:
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def _host_level(call: Node) -> bool:
    """Whether a call sits in a function's own code, not in a lambda (a command group, a kernel)."""
    node = call.parent
    while node is not None and node.type != "function_definition":
        if node.type == "lambda_expression":
            return False
        node = node.parent
    return node is not None


def _inside(inner: Node, outer: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _method(call: Node) -> str:
    field = method_field(call)
    return text_of(
        field.child_by_field_name("name") if field is not None and field.type == "template_method" else field
    )


def _receiver(call: Node) -> str | None:
    """The object a method is called on, as written (`q`, `streams[i]`); None for a chained call."""
    function = call.child_by_field_name("function")
    obj = function.child_by_field_name("argument") if function is not None else None
    if obj is None or obj.type == "call_expression":
        return None
    return text_of(obj)


def _chained_wait(copy: Node, waits: set[int]) -> bool:
    """Whether `copy(…).wait()` waits for the copy itself: the wait call ends right after it."""
    parent = copy.parent
    call = parent.parent if parent is not None and parent.type == "field_expression" else None
    return call is not None and call.type == "call_expression" and call.end_byte in waits
