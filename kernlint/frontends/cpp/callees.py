"""What a call may do to an element passed to it (`f(a[i])`), for the analyses that must prove an
array or accessor is never written (SYCL accessor uses, OpenMP map uses).

C passes by value, so the callee cannot write the caller's element; C++ may bind it to a non-const
reference. A callee is known not to write when it is a math or value function, a `sycl::`/`std::`
function other than the few that store through their arguments, or a function defined in the file
whose parameter at that position is a value or a const reference. Anything else may write it.
"""

from __future__ import annotations

import re
from typing import Literal

import tree_sitter

from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.common.preprocess import directive_matches
from kernlint.frontends.cpp.syntax import function_declarator, last_name
from kernlint.records import record

Node = tree_sitter.Node

# Functions that take an element by value (math and common algorithms): passing `a[i]` reads it.
VALUE_FUNCTIONS = frozenset(
    {
        "sqrt",
        "rsqrt",
        "cbrt",
        "exp",
        "exp2",
        "exp10",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "pow",
        "pown",
        "powr",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "fabs",
        "abs",
        "fmin",
        "fmax",
        "min",
        "max",
        "clamp",
        "floor",
        "ceil",
        "round",
        "trunc",
        "fma",
        "mad",
        "hypot",
        "erf",
        "erfc",
        "isnan",
        "isinf",
        "isfinite",
        "sign",
        "step",
        "smoothstep",
        "mix",
        "dot",
        "cross",
        "length",
        "distance",
        "normalize",
        "native_sqrt",
        "native_exp",
        "native_log",
        "native_sin",
        "native_cos",
        "native_recip",
        "half_sqrt",
        "select",
        "popcount",
        "clz",
        "ctz",
        "mul24",
        "mad24",
        "rotate",
        "floor_div",
        "static_cast",
        "float",
        "double",
        "int",
        "size_t",
        "printf",
    }
)
# `sycl::`/`std::` functions that store through an argument.
_STORING_LIBRARY_FUNCTIONS = frozenset(
    {"swap", "exchange", "iter_swap", "memcpy", "memset", "memmove", "copy", "fill", "move"}
)

ElementEffect = Literal["read", "atomic", "escape"]


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_]\w*")
_STORE = re.compile(r"(?<![=!<>])=(?!=)|\+\+|--|[-+*/%&|^]=|<<=|>>=")


@record
class Macro:
    """A macro the file defines: the names its parameters and body mention, and whether the body
    stores anything (an assignment, `++`, `--`)."""

    words: frozenset[str]
    stores: bool


def file_macros(data: bytes) -> dict[str, Macro]:
    """The macros the file `#define`s: a macro used in a kernel can read or write any variable it
    names, and one that stores may store to an element it is given."""
    macros = {}
    for match in directive_matches(_DEFINE, data):
        body = match.group(2).decode("utf-8", "replace")
        macros[match.group(1).decode()] = Macro(frozenset(_WORD.findall(body)), bool(_STORE.search(body)))
    return macros


def may_store_through_macro(name: str, macros: dict[str, Macro], functions: dict[str, list[Node]]) -> bool:
    """Whether a callee is a macro that may store to an argument: one defined in the file whose body
    stores, or an all-capitals name no function of the file declares (a macro from a header, as such
    names conventionally are, whose body cannot be seen)."""
    if name in macros:
        return macros[name].stores
    return name.isupper() and len(name) > 1 and name not in functions


@record
class Callees:
    """What the file says about the functions it calls: definitions and prototypes by name, its
    macros, and whether arguments can bind to references (C++) or are always copies (C)."""

    functions: dict[str, list[Node]]
    macros: dict[str, Macro]
    by_reference: bool = True


def element_argument_effect(call: Node, argument: Node, callees: Callees) -> tuple[ElementEffect, str]:
    """What `call` may do to the element `argument` passed to it, and why when it is not a read.
    A macro may expand to a store whatever the language; a function may write the element only
    through a non-const reference, which C does not have."""
    callee = text_of(call.child_by_field_name("function"))
    name = last_name(callee)
    functions = callees.functions
    if "atomic" in callee:
        return "atomic", f"`{name}`"
    if name == callee and may_store_through_macro(name, callees.macros, functions):
        return "escape", f"passed to `{name}`, a macro that may store to it"
    if not callees.by_reference:
        return "read", ""
    if name in functions:
        args = arguments_of(call.child_by_field_name("arguments"))
        position = args.index(argument) if argument in args else -1
        if any(takes_mutable_reference(fn, position) for fn in functions[name]):
            return "escape", f"passed by reference to `{name}`"
        return "read", ""
    if name in VALUE_FUNCTIONS or (
        re.match(r"^(sycl|std|cl::sycl)::", callee) and name not in _STORING_LIBRARY_FUNCTIONS
    ):
        return "read", ""
    return "escape", f"passed to `{name}`, which may take it by reference"


def takes_mutable_reference(function: Node, position: int) -> bool:
    params = parameters(function)
    if not 0 <= position < len(params):
        return True
    param = params[position]
    text = text_of(param)
    return ("&" in text or "*" in text) and not re.search(r"\bconst\b", text)


def file_functions(root: Node, prototypes: bool = False, members: bool = False) -> dict[str, list[Node]]:
    """Function definitions at namespace scope (also in namespaces and templates), by name; with
    `prototypes`, declarations too (`double f(double);`): their parameters say how arguments pass;
    with `members`, the member functions defined inside classes too."""
    functions: dict[str, list[Node]] = {}
    scopes = _SCOPES | _CLASS_SCOPES if members else _SCOPES
    stack = list(root.named_children)
    while stack:
        node = stack.pop()
        if node.type == "function_definition" or (prototypes and node.type == "declaration"):
            declarator = function_declarator(node)
            name = declarator.child_by_field_name("declarator") if declarator is not None else None
            if name is not None:
                functions.setdefault(last_name(text_of(name)), []).append(node)
        elif node.type in scopes:
            stack.extend(node.named_children)
    return functions


#: Where `file_functions` looks for definitions: namespaces, templates, `extern "C"` and `#if` arms.
_SCOPES = frozenset(
    {
        "namespace_definition",
        "declaration_list",
        "template_declaration",
        "linkage_specification",
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
    }
)
_CLASS_SCOPES = frozenset({"class_specifier", "struct_specifier", "field_declaration_list"})


def parameters(function: Node) -> list[Node]:
    declarator = function_declarator(function)
    return arguments_of(declarator.child_by_field_name("parameters")) if declarator is not None else []
