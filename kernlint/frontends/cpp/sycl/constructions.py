"""Constructions of SYCL classes (buffers, accessors, local memory, queues), however they are spelled.

A class is constructed by a declaration (`sycl::buffer<T> b(p, n);`, `accessor a{b, h, read_only};`,
class template argument deduction, the most vexing parse `buffer<T> b(range<1>(n));`), by a call or a
temporary (`auto a = accessor(b, h);`, `sycl::queue{}`), by `new`, or inside `std::make_unique<…>(…)`.
Each is recognised once as a `Construction`, then read into the fact for its class. `get_access`
calls make accessors too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.facts import Accessor, Buffer, Extent, LocalAllocation, QueueConstruction
from kernlint.facts.kinds import AccessMode, AccessorForm, AccessTarget, BufferForm
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of
from kernlint.frontends.cpp.sycl.api import MODE_WORDS, SYCL_CLASSES, TARGET_WORDS
from kernlint.frontends.cpp.sycl.containers import container_size
from kernlint.frontends.cpp.sycl.mode_spelling import enumeration_span, tag_namespace
from kernlint.frontends.cpp.sycl.queue_arguments import argument_kind
from kernlint.frontends.cpp.sycl.ranges import evaluate_range
from kernlint.frontends.cpp.syntax import base_type, command_group, method_field
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node


@dataclass
class Construction:
    """A construction of a SYCL class, however it was spelled."""

    cls: str
    node: Node
    type_node: Node
    template_args: list[Node]
    args: list[Node]
    name: str | None
    form: BufferForm


def construction_from_decl(decl: Node) -> Construction | None:
    """The construction a declaration of a SYCL class makes (None for copies and other classes)."""
    type_node = decl.child_by_field_name("type")
    cls, targs = base_type(type_node)
    if cls not in SYCL_CLASSES or type_node is None:
        return None
    declarator = decl.child_by_field_name("declarator")
    if declarator is None:
        return None
    name_node: Node | None = declarator
    args_node: Node | None = None
    if decl.type == "field_declaration":  # a class member with a default initialiser: `buffer<T> b{range};`
        args_node = decl.child_by_field_name("default_value")
        if declarator.type != "field_identifier" or args_node is None or args_node.type != "initializer_list":
            return None
    elif declarator.type == "init_declarator":
        name_node = declarator.child_by_field_name("declarator")
        args_node = declarator.child_by_field_name("value")
        if args_node is not None and args_node.type not in ("argument_list", "initializer_list"):
            return None  # `T x = expr;` is a copy; the expression itself is captured as a call
    elif declarator.type == "function_declarator":
        name_node = declarator.child_by_field_name("declarator")
        args_node = declarator.child_by_field_name("parameters")
    elif declarator.type not in ("identifier",):
        return None
    form: BufferForm = "ctad" if targs is None and cls == "buffer" else "declaration"
    return Construction(cls, decl, type_node, arguments_of(targs), arguments_of(args_node), text_of(name_node), form)


def construction_from_call(node: Node, callee: Node) -> Construction | None:
    """The construction a call, temporary or `new` of a SYCL class makes."""
    cls, targs = base_type(callee)
    if cls in ("make_unique", "make_shared") and targs is not None:
        # std::make_unique<sycl::buffer<T>>(args): the buffer is what gets constructed.
        inner = arguments_of(targs)
        type_node = inner[0].child_by_field_name("type") if inner and inner[0].type == "type_descriptor" else None
        cls, targs = base_type(type_node)
    if cls not in SYCL_CLASSES:
        return None
    args_node = node.child_by_field_name("arguments") or node.child_by_field_name("value")
    if node.type == "new_expression":
        args_node = node.child_by_field_name("arguments")
    name = None
    form: BufferForm = "temporary"
    parent = node.parent
    if parent is not None and parent.type == "init_declarator":
        name = text_of(parent.child_by_field_name("declarator"))
        form = "auto"
    return Construction(cls, node, callee, arguments_of(targs), arguments_of(args_node), name, form)


def buffer_of(unit: CppUnit, c: Construction, in_device: bool) -> Buffer:
    """A buffer and, when its construction spells one out, its range (`buffer(ptr, range)`,
    `buffer(range)`, `buffer{ptr, {n}}`) or the size of the container it is built from (`buffer(vec)`)."""
    has_host_data = extent = None
    if c.args:
        first = c.args[0]
        has_host_data = not (first.type == "initializer_list" or re.search(r"\brange\b", text_of(first)))
        range_arg = c.args[1] if has_host_data and len(c.args) >= 2 else (first if not has_host_data else None)
        alone = len(c.args) == 1 or (len(c.args) == 2 and re.search(r"property", text_of(c.args[1])))
        size = container_size(unit, first, c.node) if has_host_data and alone else None
        if size is not None:
            # `buffer<int> b{bins}`, `buffer b(vec)`: the container's size; `buffer<int> b(n)`: a range
            has_host_data = not size.is_range
            extent = Extent((size.value,), size.text or "")
        elif range_arg is not None:
            at = range_arg.start_byte
            extent = evaluate_range(
                text_of(range_arg), lambda t: unit.constants.value(t, at), lambda n: unit.init_text(n, at)
            )
    return Buffer(span_of(c.node), c.name, c.form, has_host_data, in_device, extent)


def queue_of(unit: CppUnit, c: Construction) -> QueueConstruction:
    """A queue construction with its arguments and what each supplies (read with, for named arguments,
    their declared types)."""
    return QueueConstruction(
        span_of(c.node),
        c.name,
        tuple(text_of(a) for a in c.args),
        tuple(argument_kind(text_of(a), unit.declared_type(a)) for a in c.args),
    )


def local_allocation(unit: CppUnit, c: Construction) -> LocalAllocation | None:
    """Work-group local memory (`local_accessor`, or an accessor with the `local` target), else None."""
    _mode, _node, target, _props = _mode_from_words(c.template_args[2:])
    if c.cls != "local_accessor" and target != "local":
        return None
    element = text_of(c.template_args[0]) if c.template_args else None
    extent = None
    if c.args:
        at = c.args[0].start_byte
        extent = evaluate_range(
            text_of(c.args[0]), lambda t: unit.constants.value(t, at), lambda n: unit.init_text(n, at)
        )
        if extent is not None and len(c.args) == 1 and not re.search(r"range|\{", text_of(c.args[0])):
            extent = Extent((1,), "scalar")  # local_accessor<T, 0>(h): one element
    if not c.args or (len(c.args) == 1 and c.cls == "local_accessor" and extent and extent.text == "scalar"):
        extent = Extent((1,), "1")
    size = type_size(element or "")
    total = extent.total if extent is not None else None
    return LocalAllocation(
        span_of(c.node),
        c.name,
        element,
        extent,
        size * total if size is not None and total is not None else None,
        c.cls,
        command_group(c.node),
    )


def accessor_of(c: Construction) -> Accessor:
    """The accessor an `accessor` or `host_accessor` construction creates."""
    mode, mode_node, target, properties = _mode_from_words(c.template_args[2:] + c.args[1:])
    if c.cls == "host_accessor":
        target = "host"
    return Accessor(
        span=span_of(c.node),
        name=c.name,
        buffer=text_of(c.args[0]) if c.args else None,
        mode=mode,
        mode_spelling=text_of(mode_node) if mode_node is not None else None,
        mode_span=span_of(mode_node) if mode_node is not None else None,
        mode_enum_span=enumeration_span(mode_node),
        mode_namespace=tag_namespace(mode_node),
        form="host_accessor" if c.cls == "host_accessor" else "constructor",
        properties=properties,
        target=target or "device",
        command_group=command_group(c.node),
    )


def get_access_accessor(method: str, call: Node) -> Accessor:
    """The accessor `buf.get_access<…>(…)` or `buf.get_host_access(…)` creates."""
    function = call.child_by_field_name("function")
    obj = function.child_by_field_name("argument") if function is not None else None
    field = method_field(call)
    targs = (
        arguments_of(field.child_by_field_name("arguments"))
        if field is not None and field.type == "template_method"
        else []
    )
    args = arguments_of(call.child_by_field_name("arguments"))
    mode, mode_node, target, properties = _mode_from_words(targs + args)
    holder = call.parent
    if holder is not None and holder.type == "initializer_list" and holder.named_child_count == 1:
        holder = holder.parent  # `auto a{b.get_access(h)};`
    name = None
    if holder is not None and holder.type == "init_declarator":
        name = text_of(holder.child_by_field_name("declarator"))
    form: AccessorForm = "get_host_access" if method == "get_host_access" else "get_access"
    is_host = (
        method == "get_host_access"
        or not args
        or ("handler" not in text_of(args[0]) and not _looks_like_handler(args[0], call))
    )
    return Accessor(
        span=span_of(call),
        name=name,
        buffer=text_of(obj) if obj is not None else None,
        mode=mode,
        mode_spelling=text_of(mode_node) if mode_node is not None else None,
        mode_span=span_of(mode_node) if mode_node is not None else None,
        mode_enum_span=enumeration_span(mode_node),
        mode_namespace=tag_namespace(mode_node),
        form=form,
        properties=properties,
        target="host" if is_host else (target or "device"),
        command_group=command_group(call),
    )


def _looks_like_handler(arg: Node, call: Node) -> bool:
    """Is `arg` the command group's handler (`h`, `cgh`) rather than a range or a tag?"""
    if arg.type != "identifier":
        return False
    return command_group(call) is not None or text_of(arg) in ("h", "cgh", "handler")


def _mode_from_words(nodes: list[Node]) -> tuple[AccessMode | None, Node | None, AccessTarget | None, tuple[str, ...]]:
    """(mode, the node that spells it, target, properties) from an accessor's template and
    constructor arguments. A mode or target word counts when it is qualified as one
    (`access::mode::read`, `access_mode::read`, `access::target::local`) or is a short tag
    (`sycl::read_only`); the same word deep inside another expression does not."""
    mode: AccessMode | None = None
    target: AccessTarget | None = None
    mode_node = None
    properties: list[str] = []
    for node in nodes:
        text = text_of(node)
        words = re.findall(r"[A-Za-z_]\w*", text)
        if not words:
            continue
        last = words[-1]
        if "no_init" in words:
            properties.append("no_init")
            continue
        if "property_list" in words or "no_init" in text:
            continue
        if last in MODE_WORDS and (
            "mode" in words
            or "access_mode" in words
            or last.endswith("_only")
            or last == "read_write"
            or len(words) <= 3
        ):
            mode, mode_node = MODE_WORDS[last], node
        elif last in TARGET_WORDS and ("target" in words or len(words) <= 3):
            target = TARGET_WORDS[last]
    return mode, mode_node, target, tuple(properties)
