"""How an accessor reaches code other than the lambda it is captured by: the functor a launch runs
(its constructor arguments, the member each initialises) and helper functions defined in the file
(their parameters). Answers come from declarations only; the uses analysis follows them.
"""

from __future__ import annotations

import tree_sitter

from kernlint.facts import KernelLaunch
from kernlint.frontends.common.nodes import arguments_of, node_at, text_of
from kernlint.frontends.cpp.accessors.index import Captures
from kernlint.frontends.cpp.callees import parameters
from kernlint.frontends.cpp.syntax import last_name

Node = tree_sitter.Node


def functor_arguments(
    root: Node, captures: Captures, launch: KernelLaunch, class_name: str, group: Node
) -> list[Node] | None:
    """The constructor arguments of the functor object the launch runs."""
    call = node_at(root, launch.span, ("call_expression",))
    launch_args = arguments_of(call.child_by_field_name("arguments")) if call is not None else []
    if not launch_args:
        return None
    kernel = launch_args[-1]
    if kernel.type in ("compound_literal_expression", "call_expression"):
        return _construction_arguments(kernel, class_name)
    if kernel.type != "identifier":
        return None
    name = text_of(kernel)
    for decl in _declarations_named(captures, group, name):
        if decl.start_byte > kernel.start_byte:
            continue
        declarator = decl.child_by_field_name("declarator")
        if declarator is None:
            continue
        if declarator.type == "function_declarator":  # `Kernel k(acc);`, the most vexing parse
            return arguments_of(declarator.child_by_field_name("parameters"))
        value = declarator.child_by_field_name("value")
        if value is None:
            return None
        if value.type in ("initializer_list", "argument_list"):
            return arguments_of(value)
        return _construction_arguments(value, class_name)
    return None


def _construction_arguments(node: Node, class_name: str) -> list[Node] | None:
    if node.type == "compound_literal_expression":
        type_name = last_name(text_of(node.child_by_field_name("type")))
        args = node.child_by_field_name("value")
    elif node.type == "call_expression":
        type_name = last_name(text_of(node.child_by_field_name("function")))
        args = node.child_by_field_name("arguments")
    else:
        return None
    return arguments_of(args) if type_name == class_name else None


def _declarations_named(captures: Captures, group: Node, name: str) -> list[Node]:
    found = []
    for ref in captures(group).get("ref", []):
        if text_of(ref) != name:
            continue
        parent = ref.parent
        if parent is not None and parent.type in ("init_declarator", "function_declarator"):
            parent = parent.parent
        if parent is not None and parent.type == "declaration":
            found.append(parent)
    return found


def is_constructor(method: Node, class_name: str) -> bool:
    """A constructor (or destructor): it runs on the host, not in the kernel."""
    declarator = method.child_by_field_name("declarator")
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    return inner is not None and text_of(inner).lstrip("~") == class_name


def member_for_argument(members_list: Node, class_name: str, position: int, count: int) -> str | None:
    constructors = [
        m for m in members_list.named_children if m.type == "function_definition" and is_constructor(m, class_name)
    ]
    if not constructors:  # an aggregate: arguments initialise the fields in order
        fields = _fields(members_list)
        return fields[position][0] if position < len(fields) else None
    matching = []
    for ctor in constructors:
        params = parameters(ctor)
        if len(params) == count:
            matching.append((ctor, params))
    if len(matching) != 1:
        return None
    ctor, params = matching[0]
    param_name = parameter_name(params[position])
    initializers = next((c for c in ctor.named_children if c.type == "field_initializer_list"), None)
    for initializer in arguments_of(initializers):
        values = [c for c in initializer.named_children if c.type in ("argument_list", "initializer_list")]
        member = next((c for c in initializer.named_children if c.type == "field_identifier"), None)
        if member is not None and values and [text_of(a) for a in arguments_of(values[0])] == [param_name]:
            return text_of(member)
    return None


def _fields(members_list: Node) -> list[tuple[str, Node]]:
    fields = []
    for decl in members_list.named_children:
        if decl.type != "field_declaration" or any(text_of(c) == "static" for c in decl.children):
            continue
        type_node = decl.child_by_field_name("type")
        for declarator in decl.children_by_field_name("declarator"):
            if declarator.type == "field_identifier" and type_node is not None:
                fields.append((text_of(declarator), type_node))
    return fields


def member_type(members_list: Node, member: str) -> Node | None:
    return next((t for n, t in _fields(members_list) if n == member), None)


def parameter_name(param: Node) -> str | None:
    declarator = param.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "identifier":
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type == "identifier"), None
        )
    return text_of(declarator) if declarator is not None else None
