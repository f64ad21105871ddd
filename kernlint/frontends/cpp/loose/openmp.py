"""The loose texts of the OpenMP query files, which run over one region or function at a time."""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.frontends.common.treesitter import Loose, Match
from kernlint.frontends.cpp.loose.shapes import Node, Placed, field_children, in_order, named_field

# -- cpp_openmp_declared -----------------------------------------------------------------------------

_DECLARED = """
(declaration) @declaration
(for_range_loop) @loop
"""


def _declared_names(declarator: Node) -> Iterator[Node]:
    """What the query file's declaration pattern captures under one declarator of a declaration: its
    name through an initialiser, one pointer or reference, or up to three array dimensions."""
    if declarator.type == "init_declarator":
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            return
        if inner.type == "identifier":
            yield inner
        elif inner.type in ("array_declarator", "pointer_declarator"):
            name = inner.child_by_field_name("declarator")
            if name is not None and name.type == "identifier":
                yield name
        elif inner.type == "reference_declarator":
            yield from (child for child in inner.named_children if child.type == "identifier")
        return
    if declarator.type == "identifier":
        yield declarator
    elif declarator.type == "pointer_declarator":
        name = declarator.child_by_field_name("declarator")
        if name is not None and name.type == "identifier":
            yield name
    elif declarator.type == "reference_declarator":
        yield from (child for child in declarator.named_children if child.type == "identifier")
    elif declarator.type == "array_declarator":
        inner = declarator
        for _dimension in range(3):
            name = inner.child_by_field_name("declarator")
            if name is None:
                return
            if name.type == "identifier":
                yield name
                return
            if name.type != "array_declarator":
                return
            inner = name


def _declared(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    for index, match in found:
        if index == 1:
            name = match["loop"][0].child_by_field_name("declarator")
            if name is not None and name.type == "identifier":
                kept.append((1, {"declared": [name]}))
            continue
        for declarator in field_children(match["declaration"][0], "declarator"):
            kept.extend((0, {"declared": [name]}) for name in _declared_names(declarator))
    return kept


# -- cpp_openmp_uses ---------------------------------------------------------------------------------

_USES = """
(identifier) @use
(parameter_declaration type: (type_identifier) @use.type .)
(preproc_include) @include
(call_expression) @call
(gnu_asm_expression) @asm
"""


def _in_prototype_of_declaration(parameter: Node) -> bool:
    """Whether a parameter is in the parameter list of a function declarator declared by a
    declaration (`T obj(a, n);`)."""
    parameters = parameter.parent
    if parameters is None or parameters.type != "parameter_list":
        return False
    declarator = parameters.parent
    if declarator is None or declarator.type != "function_declarator":
        return False
    if parameters not in field_children(declarator, "parameters"):
        return False
    declaration = declarator.parent
    return (
        declaration is not None
        and declaration.type == "declaration"
        and declarator in field_children(declaration, "declarator")
    )


def _uses(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    for index, match in found:
        if index == 3:
            callee = named_field(match["call"][0], "function")
            if callee is not None:
                kept.append((3, {"callee": [callee]}))
            continue
        if index != 1:
            kept.append((index, match))
            continue
        name = match["use.type"][0]
        if name.parent is not None and _in_prototype_of_declaration(name.parent):
            kept.append((1, {"use": [name]}))
    return kept


# -- cpp_openmp_types --------------------------------------------------------------------------------

_TYPES = """
(struct_specifier) @struct
(class_specifier) @struct
(type_definition) @typedef
"""


def _types(found: list[Match]) -> list[Match]:
    placed: list[Placed] = []
    for index, match in found:
        if index < 2:
            specifier = match["struct"][0]
            name, body = named_field(specifier, "name"), specifier.child_by_field_name("body")
            if name is not None and body is not None and body.type == "field_declaration_list":
                placed.append((body, specifier, index, {"name": [name], "body": [body]}))
            continue
        definition = match["typedef"][0]
        inner = definition.child_by_field_name("type")
        if inner is None or inner.type != "struct_specifier":
            continue
        body = inner.child_by_field_name("body")
        if body is None or body.type != "field_declaration_list":
            continue
        for declarator in field_children(definition, "declarator"):
            if declarator.type == "type_identifier":
                placed.append((declarator, definition, 2, {"body": [body], "name": [declarator]}))
    return in_order(placed)


# -- cpp_openmp_decls --------------------------------------------------------------------------------

_DECLS = """
(parameter_declaration) @decl
(declaration) @decl
(assignment_expression) @assign
(update_expression) @update
"""


def _decls(found: list[Match]) -> list[Match]:
    placed: list[Placed] = []
    for index, match in found:
        if index == 2:
            assignment = match["assign"][0]
            name = assignment.child_by_field_name("left")
            if name is not None and name.type == "identifier":
                placed.append((name, assignment, 2, {"assigned": [name]}))
        elif index == 3:
            update = match["update"][0]
            argument = update.child_by_field_name("argument")
            if argument is not None and argument.type == "identifier":
                placed.append((argument, update, 3, {"assigned": [argument]}))
        else:
            declaration = match["decl"][0]
            type_node = named_field(declaration, "type")
            if type_node is None:
                continue
            for declarator in field_children(declaration, "declarator"):
                if declarator.is_named:
                    captures = {"decl": [declaration], "decl.type": [type_node], "decl.declarator": [declarator]}
                    placed.append((declarator, declaration, index, captures))
    return in_order(placed)


# -- cpp_openmp_device -------------------------------------------------------------------------------

_DEVICE = """
(if_statement) @if
(switch_statement) @switch
(while_statement) @loop
(do_statement) @loop
(for_statement) @loop
(conditional_expression) @ternary
(assignment_expression) @assign
(init_declarator) @assign
(update_expression) @update
"""
#: Per pattern of `cpp_openmp_device`: the capture naming its node, and the field read for
#: `@condition` (conditions: a condition clause's value, a do loop's parentheses, any named node).
_CONDITIONS = {0: "if", 1: "switch", 2: "loop", 3: "loop", 4: "loop", 5: "ternary"}


def _condition(index: int, statement: Node) -> Node | None:
    condition = statement.child_by_field_name("condition")
    if condition is None:
        return None
    if index < 3:
        value = condition.child_by_field_name("value") if condition.type == "condition_clause" else None
        return value if value is not None and value.is_named else None
    if index == 3:
        return condition if condition.type == "parenthesized_expression" else None
    return condition if condition.is_named else None


def _device(found: list[Match]) -> list[Match]:
    placed: list[Placed] = []
    for index, match in found:
        if index in _CONDITIONS:
            kind = _CONDITIONS[index]
            statement = match[kind][0]
            condition = _condition(index, statement)
            if condition is not None:
                placed.append((condition, statement, index, {"condition": [condition], kind: [statement]}))
        elif index < 8:
            statement = match["assign"][0]
            name = statement.child_by_field_name("left" if index == 6 else "declarator")
            value = named_field(statement, "right" if index == 6 else "value")
            if name is not None and name.type == "identifier" and value is not None:
                placed.append((value, statement, index, {"assign": [statement], "name": [name], "value": [value]}))
        else:
            statement = match["update"][0]
            name = statement.child_by_field_name("argument")
            if name is not None and name.type == "identifier":
                placed.append((name, statement, 8, {"name": [name], "update": [statement]}))
    return in_order(placed)


# -- cpp_openmp_calls --------------------------------------------------------------------------------

_CALLS = """
(call_expression) @call
"""


def _calls(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    for _index, match in found:
        call = match["call"][0]
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        named = function is not None and function.type == "identifier"
        if named and arguments is not None and arguments.type == "argument_list":
            kept.append((0, match))
    return kept


#: The loose text of each OpenMP query file, with what turns its matches into the file's.
LOOSE = {
    "cpp_openmp_declared": Loose(_DECLARED, _declared, order="captures"),
    "cpp_openmp_uses": Loose(_USES, _uses, order="captures"),
    "cpp_openmp_types": Loose(_TYPES, _types, order="matches"),
    "cpp_openmp_decls": Loose(_DECLS, _decls, order="matches"),
    "cpp_openmp_device": Loose(_DEVICE, _device, order="matches"),
    "cpp_openmp_calls": Loose(_CALLS, _calls, order="matches"),
}
