"""C++ spellings the SYCL analyses read the same way: qualified and template names, method calls,
value-preserving wrappers, and the command group around a node."""

from __future__ import annotations

import re

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common.nodes import arguments_of, span_of, text_of

Node = tree_sitter.Node


def base_type(node: Node | None) -> tuple[str, Node | None]:
    """The unqualified class name of a type node and its template argument list, if any."""
    while node is not None and node.type == "qualified_identifier":
        node = node.child_by_field_name("name")
    if node is None:
        return "", None
    if node.type in ("template_type", "template_function"):
        return text_of(node.child_by_field_name("name")), node.child_by_field_name("arguments")
    return text_of(node), None


def method_field(call: Node) -> Node | None:
    """The method name node of `obj.m(…)`, `obj.m<T>(…)` or `obj.template m<T>(…)`."""
    function = call.child_by_field_name("function")
    field = function.child_by_field_name("field") if function is not None else None
    if field is not None and field.type == "dependent_name":
        field = field.named_children[0] if field.named_children else None
    return field


def function_declarator(definition: Node) -> Node | None:
    """The `function_declarator` of a function definition, under any pointer or reference declarators
    of its return type; its `declarator` is the name and its `parameters` the parameter list."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def data_pointer(member: Node) -> Node | None:
    """The whole expression when the member access `member` (`acc.m`) is the start of
    `acc.get_pointer()`, `acc.get_multi_ptr<…>()` or either followed by `.get()`: a pointer to the
    accessor's data; None for any other member."""
    method = re.match(r"\s*(?:template\s+)?(\w+)", text_of(member.child_by_field_name("field")))
    call = member.parent
    if method is None or method.group(1) not in ("get_pointer", "get_multi_ptr") or call is None:
        return None
    if call.type != "call_expression" or arguments_of(call.child_by_field_name("arguments")):
        return None
    outer = call.parent
    if (
        outer is not None
        and outer.type == "field_expression"
        and text_of(outer.child_by_field_name("field")) == "get"
        and outer.parent is not None
        and outer.parent.type == "call_expression"
        and not arguments_of(outer.parent.child_by_field_name("arguments"))
    ):
        return outer.parent
    return call


def last_word(text: str) -> str:
    """The last component of a qualified name or member access (`sycl::item` -> `item`, `h.x` -> `x`)."""
    return re.split(r"::|\.", text.strip())[-1].strip()


def last_name(text: str) -> str:
    """The name a callee or type ends with, template arguments dropped and `->` split too
    (`sycl::min<int>` -> `min`, `p->f` -> `f`)."""
    text = re.sub(r"<.*", "", text)
    return re.split(r"::|\.|->", text.strip())[-1].strip()


def no_spaces(text: str) -> str:
    """`text` without whitespace, to compare expressions as written."""
    return re.sub(r"\s+", "", text)


def unwrap_value(node: Node) -> Node:
    """The expression inside parentheses and value-preserving casts."""
    while True:
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        elif node.type == "cast_expression" and (value := node.child_by_field_name("value")) is not None:
            node = value
        elif (
            node.type == "call_expression"
            and last_name(text_of(node.child_by_field_name("function")))
            in ("static_cast", "size_t", "int", "long", "unsigned")
            and len(arguments_of(node.child_by_field_name("arguments"))) == 1
        ):
            node = arguments_of(node.child_by_field_name("arguments"))[0]
        else:
            return node


def element_context(element: Node) -> tuple[Node, bool]:
    """The expression whose context decides what is done to `element` (`a[i]`, `*p`), and whether a
    member of the element is named on the way (`a[i].x`, `a[i].v[k].y`, `(a[i]).x`). A store to a
    member keeps the element's other members, so it reads and writes the element. The walk stops below
    a method call (`a[i].load()`, `a[i].x.f()`), whose effect the caller judges."""
    value, member = element, False
    while value.parent is not None:
        up = value.parent
        if (
            up.type == "parenthesized_expression"
            or (up.type == "conditional_expression" and up.child_by_field_name("condition") != value)
            or (up.type == "comma_expression" and up.child_by_field_name("right") == value)
        ):
            value = up
        elif (
            up.type in ("field_expression", "subscript_expression")
            and up.child_by_field_name("argument") == value
            and not (
                up.parent is not None
                and up.parent.type == "call_expression"
                and up.parent.child_by_field_name("function") == up
            )
        ):
            value, member = up, True
        else:
            break
    return value, member


def command_group(node: Node) -> Span | None:
    """The nearest enclosing lambda or function that receives a `handler` (a command group)."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("lambda_expression", "function_definition"):
            declarator = parent.child_by_field_name("declarator")
            while declarator is not None and declarator.type not in (
                "abstract_function_declarator",
                "function_declarator",
            ):
                declarator = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters") if declarator is not None else None
            if params is not None and "handler" in text_of(params):
                return span_of(parent)
            grand = parent.parent.parent if parent.parent is not None else None
            if (
                parent.type == "lambda_expression"
                and grand is not None
                and grand.type == "call_expression"
                and last_word(text_of(grand.child_by_field_name("function"))) == "submit"
            ):
                return span_of(parent)
        parent = parent.parent
    return None
