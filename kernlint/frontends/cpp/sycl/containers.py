"""The extent of a buffer built from a host container alone (`sycl::buffer<int> b{bins};`,
`sycl::buffer b(vec);`, `sycl::buffer b{arr};`), which is the container's size at that point.

The size is read from the container's declaration: a C array's bound (`int bins[256]`), a
`std::array`'s template argument, or the count a `std::vector` is constructed with (`v(n)`,
`v(n, x)`). A vector's size is believed only when nothing between its declaration and the buffer (and
nothing in a loop around the buffer) may change it: every other use of its name must be an element,
`data()`, `size()`, an iterator, or a range-for. Anything else, a vector the caller passed in, or a
container declared elsewhere, leaves the size unknown (a vector parameter is then known by the text
`v.size()` only). A lone integer argument is a range (`sycl::buffer<int> b(n)`: no host memory).
"""

from __future__ import annotations

import re
from dataclasses import replace

import tree_sitter

from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.cpp.sycl.ranges import split_top_level
from kernlint.frontends.cpp.syntax import function_declarator
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.records import record

Node = tree_sitter.Node

_CONTAINER_TYPE = re.compile(r"(?P<std>(?:::)?std::)?(?P<cls>array|vector)\s*<(?P<args>.*)>", re.S)
_MAX_ALIASES = 4
_SCOPES = frozenset({"compound_statement", "translation_unit", "declaration_list"})
_LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
_INTEGRAL = re.compile(
    r"^(?:(?:const|constexpr|static|unsigned|signed|short|long|int|char)\s+)*"
    r"(?:(?:std::)?size_t|(?:std::)?u?int(?:8|16|32|64)_t|unsigned|signed|short|long|int|long\s+long)$"
)
# Uses of a vector's name that cannot change its size.
_SIZE_KEEPING = re.compile(
    r"\s*(?:\[|(?:\.|->)\s*(?:data|size|empty|begin|end|cbegin|cend|rbegin|rend|front|back|at|capacity)\s*\()"
)


@record
class ContainerSize:
    """What a buffer built from one container argument spans."""

    value: int | None  # the element count, when constant
    text: str | None  # the count as written (`n`, `labels.size()`), to compare with a launch by text
    is_range: bool = False  # the argument is a count, not a container: a buffer without host memory
    element: str | None = None  # the container's element type as written


def container_size(unit: CppUnit, arg: Node, construction: Node) -> ContainerSize | None:
    """The extent of a buffer constructed at `construction` from the lone argument `arg`, or None when
    `arg` is not a container or count whose size is visible."""
    name = text_of(arg).strip()
    if arg.type == "number_literal":
        value = unit.constants.value(name, arg.start_byte)
        return ContainerSize(value, name, is_range=True) if value is not None else None
    if arg.type not in ("identifier", "parameter_declaration") or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None  # `sycl::buffer b(v)` parses as a function declaration: its "parameter" is the name
    found = _declaration(name, construction)
    if found is None:
        value = unit.constants.value(name, arg.start_byte)  # a macro or file constant used as a count
        return ContainerSize(value, name, is_range=True) if value is not None else None
    declaration, declarator, is_parameter = found
    core = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" else declarator
    if core is None:
        return None
    type_node = declaration.child_by_field_name("type")
    type_text = re.sub(r"\s+", " ", text_of(type_node)).strip()
    if core.type == "array_declarator":
        inner = core.child_by_field_name("declarator")
        bound = core.child_by_field_name("size")
        if is_parameter or inner is None or inner.type != "identifier" or bound is None:
            return None  # an array parameter is a pointer; several dimensions; a bound left to the initialiser
        return ContainerSize(unit.constants.value(text_of(bound), bound.start_byte), text_of(bound), element=type_text)
    by_reference = is_parameter and core.type == "reference_declarator"
    if core.type not in ("identifier", "function_declarator") and not by_reference:
        return None  # a pointer, or a declaration this does not read
    container = _container_type(unit, type_text)
    if container is not None and container[0] == "array":
        args = container[1]
        if len(args) != 2:
            return None
        return ContainerSize(unit.constants.value(args[1], construction.start_byte), args[1], element=args[0])
    if container is not None:
        element = container[1][0] if container[1] else None
        if is_parameter:
            return ContainerSize(None, f"{name}.size()", element=element)
        sized = _vector_size(unit, name, declarator, construction)
        return replace(sized, element=element) if sized is not None else None
    if core.type == "identifier" and _INTEGRAL.match(type_text):
        return ContainerSize(unit.constants.value(name, arg.start_byte), name, is_range=True)
    return None


def _container_type(unit: CppUnit, type_text: str) -> tuple[str, list[str]] | None:
    """(`array` or `vector`, its template arguments as written) when `type_text` names `std::array` or
    `std::vector`, directly, without `std::` under `using namespace std`, or through a typedef or
    `using` alias of the file."""
    for _ in range(_MAX_ALIASES):
        type_text = re.sub(r"^(?:const\s+)", "", type_text.strip())
        match = _CONTAINER_TYPE.fullmatch(type_text)
        if match is not None:
            cls = match.group("cls")
            if not match.group("std") and not re.search(rf"using\s+(?:namespace\s+std\s*;|std::{cls}\b)", unit.text):
                return None  # some other `vector`
            return cls, split_top_level(match.group("args"))
        if not re.fullmatch(r"[A-Za-z_]\w*", type_text):
            return None
        alias = re.search(
            rf"\btypedef\s+([^;{{}}]+?)\s+{type_text}\s*;|\busing\s+{type_text}\s*=\s*([^;{{}}]+);", unit.text
        )
        if alias is None:
            return None
        type_text = re.sub(r"\s+", " ", alias.group(1) or alias.group(2))
    return None


def _vector_size(unit: CppUnit, name: str, declarator: Node, construction: Node) -> ContainerSize | None:
    """`std::vector<T> v(n)` or `v(n, x)` whose size nothing changes before `construction`."""
    if declarator.type == "function_declarator":  # `std::vector<T> v(n);` parses as a declaration
        args = arguments_of(declarator.child_by_field_name("parameters"))
        if any(a.type != "parameter_declaration" or a.child_by_field_name("declarator") for a in args):
            return None
    elif declarator.type == "init_declarator":
        value_node = declarator.child_by_field_name("value")
        if value_node is None or value_node.type != "argument_list":
            return None  # `v{n}` is a vector of one element; `v = …` may be any size
        args = arguments_of(value_node)
    else:
        return None  # an empty vector
    if not args or len(args) > 2:
        return None
    count = args[0]
    value = unit.constants.value(text_of(count), count.start_byte)
    if len(args) == 2 and value is None:
        return None  # `v(first, last)`: an iterator range
    if not _size_kept(unit, name, declarator, construction):
        return None
    return ContainerSize(value, text_of(count))


def _size_kept(unit: CppUnit, name: str, declaration: Node, construction: Node) -> bool:
    """Every use of `name` after its declaration up to `construction`, and in any loop around
    `construction` inside the declaration's scope, keeps the vector's size."""
    stretches = [(declaration.end_byte, construction.start_byte)]
    node = construction.parent
    while node is not None and node.start_byte > declaration.start_byte:
        if node.type in _LOOPS:
            stretches.append((node.start_byte, node.end_byte))
        node = node.parent
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    for lo, hi in stretches:
        text = unit.data[lo:hi].decode("utf-8", errors="replace")
        for match in pattern.finditer(text):
            at = lo + len(text[: match.start()].encode())
            if construction.start_byte <= at < construction.end_byte:
                continue  # the buffer's own argument
            if _SIZE_KEEPING.match(text, match.end()) or re.search(r":\s*$", text[: match.start()]):
                continue  # an element, a read-only member, or the range of a range-for
            return False
    return True


def _declaration(name: str, at: Node) -> tuple[Node, Node, bool] | None:
    """(declaration, its declarator of `name` without an initialiser, is a parameter) for the variable
    `name` visible at `at`: the innermost preceding declaration of an enclosing block or the file, or a
    parameter of the enclosing function or lambda."""
    child = at
    scope = at.parent
    while scope is not None:
        if scope.type in _SCOPES:
            found = None
            for statement in scope.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                if statement.type == "declaration":
                    declarator = _declarator_of(statement, name)
                    if declarator is not None:
                        found = (statement, declarator, False)
            if found is not None:
                return found
        elif scope.type in ("function_definition", "lambda_expression"):
            parameter = _parameter(scope, name)
            if parameter is not None:
                return parameter
        elif scope.type == "for_statement":
            initializer = scope.child_by_field_name("initializer")
            if initializer is not None and initializer.type == "declaration" and _declarator_of(initializer, name):
                return None  # a loop variable: never a container here
        child, scope = scope, scope.parent
    return None


def _declarator_of(declaration: Node, name: str) -> Node | None:
    """The declarator of `declaration` that declares `name`."""
    for declarator in declaration.children_by_field_name("declarator"):
        if _named(declarator) == name:
            return declarator
    return None


def _parameter(owner: Node, name: str) -> tuple[Node, Node, bool] | None:
    if owner.type == "function_definition":
        function = function_declarator(owner)
    else:
        function = owner.child_by_field_name("declarator")
    parameters = function.child_by_field_name("parameters") if function is not None else None
    for parameter in arguments_of(parameters):
        declarator = parameter.child_by_field_name("declarator")
        if declarator is not None and _named(declarator) == name:
            return parameter, declarator, True
    return None


def _named(declarator: Node) -> str | None:
    node: Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type == "identifier"), None
        )
    return text_of(node) if node is not None else None
