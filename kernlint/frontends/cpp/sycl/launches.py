"""Kernel launches: `parallel_for`, `single_task` and `parallel_for_work_group` calls, with the
kernel they run (a lambda, a stored lambda or a functor's `operator()`), its range, attributes and
index parameter."""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from kernlint.facts import Extent, KernelAttributes, KernelLaunch
from kernlint.facts.kinds import IndexType, KernelBodyKind, LaunchApi, RangeKind
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.constants import Definition
from kernlint.frontends.cpp.host import defining_function
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


@dataclass
class _Kernel:
    """A kernel's callable: the lambda or functor operator() that the launch runs."""

    body: Node | None
    kind: KernelBodyKind | None
    params: Node | None
    attributes: list[Node]
    name: str | None


class LaunchReader:
    """Reads the launch calls of one file; `functors` are its classes with an `operator()`, by name."""

    def __init__(self, unit: CppUnit, functors: dict[str, Node]) -> None:
        self.unit = unit
        self.functors = functors

    def launch(self, method: LaunchApi, call: Node) -> KernelLaunch | None:
        function = call.child_by_field_name("function")
        args = arguments_of(call.child_by_field_name("arguments"))
        if function is None or not args:
            return None
        field = method_field(call)
        kernel_name = None
        if field is not None and field.type == "template_method":
            targs = arguments_of(field.child_by_field_name("arguments"))
            if targs:
                kernel_name = last_word(re.sub(r"^(class|struct)\s+", "", text_of(targs[0])))
        kernel = self._kernel_callable(args[-1])
        global_range = local_range = None
        range_kind: RangeKind | None = None
        if method != "single_task" and len(args) >= 2:
            first = text_of(args[0])
            at = args[0].start_byte
            value = lambda t, at=at: self.unit.constants.value(t, at)  # noqa: E731
            init_of = lambda n, at=at: self.unit.init_text(n, at)  # noqa: E731
            nd = evaluate_nd_range(first, value, init_of)
            if nd is not None:
                range_kind, (global_range, local_range) = "nd_range", nd
            else:
                global_range = evaluate_range(first, value, init_of)
                range_kind = "scalar" if global_range and not re.search(r"range", first) else "range"
                if method == "parallel_for_work_group" and len(args) >= 3:
                    local_range = evaluate_range(text_of(args[1]), value, init_of)
        index_param, index_type = _index_parameter(kernel.params)
        group = command_group(call)
        return KernelLaunch(
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
        )

    def _kernel_callable(self, arg: Node, depth: int = 0) -> _Kernel:
        if arg.type == "lambda_expression":
            declarator = arg.child_by_field_name("declarator")
            attributes = [
                a for a in (declarator.named_children if declarator else []) if a.type == "attribute_declaration"
            ]
            attributes += [a for a in arg.named_children if a.type == "attribute_declaration"]
            params = declarator.child_by_field_name("parameters") if declarator else None
            return _Kernel(arg.child_by_field_name("body"), "lambda", params, attributes, None)
        type_name = None
        if arg.type in ("call_expression", "compound_literal_expression"):
            type_node = arg.child_by_field_name("function") or arg.child_by_field_name("type")
            type_name = base_type(type_node)[0]
        elif arg.type == "identifier" and depth == 0:
            definition = self.unit.constants.definition(text_of(arg), arg.start_byte)
            if definition is not None and definition.value_text:
                if definition.value_text.lstrip().startswith("["):
                    lam = self._lambda_for(definition)
                    if lam is not None:
                        return self._kernel_callable(lam, depth + 1)
                type_name = last_word(re.sub(r"<.*", "", definition.type_text or ""))
                if type_name == "auto":
                    type_name = last_word(re.split(r"[({<]", definition.value_text)[0])
        if type_name and type_name in self.functors:
            definition_node = self.functors[type_name]
            declarator = definition_node.child_by_field_name("declarator")
            attributes = [a for a in definition_node.named_children if a.type == "attribute_declaration"]
            if declarator is not None:
                attributes += [a for a in declarator.named_children if a.type == "attribute_declaration"]
            params = declarator.child_by_field_name("parameters") if declarator else None
            return _Kernel(definition_node.child_by_field_name("body"), "functor", params, attributes, type_name)
        return _Kernel(None, None, None, [], type_name)

    def _lambda_for(self, definition: Definition) -> Node | None:
        node = self.unit.root.descendant_for_byte_range(definition.start_byte, definition.start_byte + 1)
        while node is not None and node.type != "declaration":
            node = node.parent
        if node is None:
            return None
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value")
            if value is not None and value.type == "lambda_expression":
                return value
        return None

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


def _index_parameter(params: Node | None) -> tuple[str | None, IndexType | None]:
    first = next(iter(arguments_of(params)), None)
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
