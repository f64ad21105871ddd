"""Kernel launches: `parallel_for`, `single_task` and `parallel_for_work_group` calls (members of a
handler or queue, or the free functions of SYCL's enqueue extension), with the kernel they run as
`sycl.kernels` finds it, its range, attributes and index parameter; and the kernels found by what
they are, whose launch the file does not show."""

from __future__ import annotations

import re

import tree_sitter

from kernlint.facts import Extent, KernelAttributes, KernelLaunch
from kernlint.facts.kinds import IndexType, LaunchApi, RangeKind
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.host import defining_function
from kernlint.frontends.cpp.sycl.kernels import KernelCallable, KernelFinder, index_parameter
from kernlint.frontends.cpp.sycl.ranges import evaluate_nd_range, evaluate_range
from kernlint.frontends.cpp.syntax import base_type, command_group, last_word, method_field
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

#: The index parameter's declared types kernlint names; any other type is an integral index.
_DECLARED_INDEX_TYPES: dict[str, IndexType] = {
    "nd_item": "nd_item",
    "item": "item",
    "id": "id",
    "group": "group",
    "h_item": "h_item",
    "auto": "auto",
}


class LaunchReader:
    """Reads the launch calls of one file; `functors` are its classes with an `operator()`, by name."""

    def __init__(self, unit: CppUnit, functors: dict[str, Node]) -> None:
        self.unit = unit
        self.finder = KernelFinder(unit, functors)

    def launch(self, method: LaunchApi, call: Node) -> KernelLaunch | None:
        """The launch `call` makes, with the first kernel it is linked to."""
        found = self.launches(method, call)
        return found[0] if found else None

    def launches(self, method: LaunchApi, call: Node, free: bool = False) -> list[KernelLaunch]:
        """The launch a member call (`cgh.parallel_for(r, k)`) or, with `free`, a free-function call
        (`parallel_for(q, r, k)`, `nd_launch(q, r, k)`, `single_task(q, k)`) makes: one fact per kernel
        it is linked to (a launch wrapper's call sites each pass their own). Only the first carries the
        sizes, so that what the launch itself gets wrong is reported once."""
        function = call.child_by_field_name("function")
        args = arguments_of(call.child_by_field_name("arguments"))
        if free:
            args = args[1:]  # the queue or handler
        if function is None or not args:
            return []
        if free:
            kernel_arg = args[0] if method == "single_task" else (args[1] if len(args) >= 2 else None)
            if kernel_arg is None:
                return []
            names = function.child_by_field_name("arguments") if function.type == "template_function" else None
        else:
            kernel_arg = args[-1]
            field = method_field(call)
            names = (
                field.child_by_field_name("arguments")
                if field is not None and field.type == "template_method"
                else None
            )
        targs = arguments_of(names)
        kernel_name = last_word(re.sub(r"^(class|struct)\s+", "", text_of(targs[0]))) if targs else None
        sizes = self._sizes(method, args) if method != "single_task" and len(args) >= 2 else (None, None, None)
        group = command_group(call)
        found = []
        for index, kernel in enumerate(self.finder.kernels_of(kernel_arg)):
            range_kind, global_range, local_range = sizes if index == 0 else (None, None, None)
            index_param, index_type = _index_parameter(kernel)
            found.append(
                KernelLaunch(
                    api=method,
                    via="handler" if group is not None else "queue",
                    span=span_of(call),
                    name=kernel_name or kernel.name,
                    range_kind=range_kind,
                    global_range=global_range,
                    local_range=local_range,
                    attributes=self._attributes(kernel.attributes),
                    body=span_of(kernel.body) if kernel.body is not None else None,
                    body_kind=kernel.kind,
                    index_param=index_param,
                    index_type=index_type,
                    command_group=group,
                    function=defining_function(call),
                    link=kernel.link,
                    link_note=kernel.note,
                )
            )
        return found

    def unlaunched(self, candidates: list[Node]) -> list[KernelLaunch]:
        """Kernels found by what they are among `candidates` (see `KernelFinder.unlaunched`), as
        launches not seen: no sizes, `via` None."""
        found = []
        for kernel in self.finder.unlaunched(candidates):
            assert kernel.body is not None and kernel.root is not None
            index_param, index_type = _index_parameter(kernel)
            found.append(
                KernelLaunch(
                    api="parallel_for_work_group" if index_type == "group" else "parallel_for",
                    via=None,
                    span=span_of(kernel.root),
                    name=kernel.name,
                    range_kind=None,
                    global_range=None,
                    local_range=None,
                    attributes=self._attributes(kernel.attributes),
                    body=span_of(kernel.body),
                    body_kind=kernel.kind,
                    index_param=index_param,
                    index_type=index_type,
                    command_group=None,
                    function=defining_function(kernel.root) if kernel.kind == "lambda" else None,
                    link="unlaunched",
                )
            )
        return found

    def _sizes(self, method: LaunchApi, args: list[Node]) -> tuple[RangeKind | None, Extent | None, Extent | None]:
        """The launch's range kind and extents, from its first argument (inside a `launch_config`)."""
        first_node = args[0]
        if first_node.type == "call_expression" and base_type(first_node.child_by_field_name("function"))[0] == (
            "launch_config"
        ):
            inner = arguments_of(first_node.child_by_field_name("arguments"))
            first_node = inner[0] if inner else first_node
        first = text_of(first_node)
        at = first_node.start_byte
        value = lambda t, at=at: self.unit.constants.value(t, at)  # noqa: E731
        init_of = lambda n, at=at: self.unit.init_text(n, at)  # noqa: E731
        local_range = None
        nd = evaluate_nd_range(first, value, init_of)
        if nd is not None:
            return "nd_range", nd[0], nd[1]
        global_range = evaluate_range(first, value, init_of)
        range_kind: RangeKind = "scalar" if global_range and not re.search(r"range", first) else "range"
        if method == "parallel_for_work_group" and len(args) >= 3:
            local_range = evaluate_range(text_of(args[1]), value, init_of)
        return range_kind, global_range, local_range

    def _attributes(self, nodes: list[Node]) -> KernelAttributes:
        sub_group = sub_group_text = sub_group_span = work_group = None
        restrict = False
        span = None
        for declaration in nodes:
            for attribute in declaration.named_children:
                if attribute.type != "attribute":
                    continue
                name = text_of(attribute.child_by_field_name("name"))
                args = next((c for c in attribute.named_children if c.type == "argument_list"), None)
                values = [self.unit.constants.node_value(a) for a in arguments_of(args)]
                if name in ("reqd_sub_group_size", "sub_group_size") and values:
                    sub_group, sub_group_text = values[0], text_of(arguments_of(args)[0])
                    sub_group_span = span_of(arguments_of(args)[0])
                    span = span_of(attribute)
                elif name == "reqd_work_group_size" and values:
                    work_group = Extent(tuple(values), text_of(args))
                elif name == "kernel_args_restrict":
                    restrict = True
        return KernelAttributes(sub_group, sub_group_text, work_group, restrict, span, sub_group_span)


def _index_parameter(kernel: KernelCallable) -> tuple[str | None, IndexType | None]:
    """The kernel's index parameter and its declared type: the first parameter whose type spells a
    SYCL index (a functor called from a kernel may take it last: `operator()(int chunk, nd_item<3>
    item)`); else, for a lambda or call operator, its first parameter (`[=](auto i)`, `(size_t i)`)."""
    typed = index_parameter(kernel.params)
    if typed is not None:
        first: Node | None = typed[0]
    elif kernel.kind == "function":
        first = None
    else:
        first = next(iter(arguments_of(kernel.params)), None)
    if first is None:
        return None, None
    declarator = first.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier",):
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type == "identifier"), None
        )
    type_name = base_type(first.child_by_field_name("type"))[0]
    kind = _DECLARED_INDEX_TYPES.get(type_name, "integral")
    return (text_of(declarator) if declarator is not None else None), kind
