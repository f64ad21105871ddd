"""The loose texts of the query files run over a whole C/C++ file, and of SYCL's device code scan."""

from __future__ import annotations

import re

from kernlint.frontends.common.query_gates import split_patterns
from kernlint.frontends.common.treesitter import Loose, Match, query_text
from kernlint.frontends.cpp.loose.shapes import Node, Placed, declared_by, field_children, in_order, named_field

# -- cpp_device (SYCL device code) --------------------------------------------------------------------

_DEVICE_SCAN = """
(call_expression) @call
(binary_expression) @tcall
(if_statement) @if
(conditional_expression) @ternary
(switch_statement) @switch
(for_statement) @loop
(while_statement) @loop
(do_statement) @loop
(declaration) @decl
(assignment_expression) @assign
(update_expression) @update
(return_statement) @return
(subscript_expression) @subscript
(break_statement) @jump
(continue_statement) @jump
(lambda_expression) @lambda
(function_definition) @function
"""


def _operator_is(node: Node, text: bytes) -> bool:
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == text.decode()


def _template_call(node: Node) -> bool:
    """`sg.load<4>(p)` read as `(sg.load < 4) > (p)` (the file's `@tcall` pattern)."""
    if not _operator_is(node, b">"):
        return False
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or left.type != "binary_expression" or right is None or right.type != "parenthesized_expression":
        return False
    inner = left.child_by_field_name("left")
    return inner is not None and inner.type == "field_expression" and _operator_is(left, b"<")


def _device_scan(found: list[Match]) -> list[Match]:
    return [(index, match) for index, match in found if index != 1 or _template_call(match["tcall"][0])]


# -- cpp_symbols -------------------------------------------------------------------------------------

# From cheap patterns: the variable declarations (`@var.decl`, three patterns), the functions' names
# (`@function.name`), the parameters (`@param.name`), the writes by assignment and `++`/`--` (four of
# the six `@assigned.name` patterns), the instantiations (`@inst.name`) and the templates with a named
# parameter (`@tparam.template`); the others as the query file writes them (its indices 0 to 2, 14, 15).
_SYMBOLS = """
(preproc_def name: (identifier) @macro.name value: (preproc_arg))
(preproc_def name: (identifier) @macro.name !value) @macro.empty
(preproc_function_def name: (identifier) @macro.function)
(init_declarator declarator: (identifier) value: (_)) @var.init
(function_declarator declarator: (_) @function.declarator parameters: (parameter_list) @function.parameters)
(field_declaration) @var.field
(parameter_declaration) @param.declaration
(optional_parameter_declaration) @param.optional
(for_range_loop) @param.loop
(assignment_expression left: (_) @assigned.left)
(update_expression) @assigned.update
(pointer_expression argument: (identifier) @assigned.name)
(init_declarator declarator: (reference_declarator) value: (identifier) @assigned.name)
(template_declaration) @tparam.template
(template_function) @inst.template
(template_type) @inst.template
(template_method) @inst.template
"""


#: The loose patterns of `@assigned.name`: an assignment (the file's 10 to 12), `++`/`--` (13), a
#: pointer or address (14), a reference bound (15).
_WRITES = (9, 10, 11, 12)
#: An assignment's left side that writes a name: the name, one element of it, one member of it.
_WRITTEN_THROUGH = {"identifier": 10, "subscript_expression": 11, "field_expression": 12}


def _written(index: int, match: dict[str, list[Node]]) -> Placed | None:
    """A write the file's `@assigned.name` patterns capture, placed at the name (their last step)."""
    if index in (11, 12):  # a pointer or address, a reference bound: as the file writes them
        captured = match["assigned.name"][0]
        return (captured, captured.parent or captured, index + 3, match)
    if index == 10:
        update = match["assigned.update"][0]
        argument = update.child_by_field_name("argument")
        if argument is None or argument.type != "identifier":
            return None
        return (argument, update, 13, {"assigned.name": [argument]})
    left = match["assigned.left"][0]
    pattern = _WRITTEN_THROUGH.get(left.type)
    if pattern is None:
        return None
    name = left if pattern == 10 else left.child_by_field_name("argument")
    if name is None or name.type != "identifier":
        return None
    return (name, left.parent or left, pattern, {"assigned.name": [name]})


#: The loose patterns of `@param.name`, by the capture of their node: a parameter (the file's 6 and 7),
#: an optional one (8), a range-for's variable (9).
_PARAMETERS = {6: "param.declaration", 7: "param.optional", 8: "param.loop"}


def _parameter_names(index: int, node: Node) -> list[Placed]:
    """The parameter names the file's `@param.name` patterns capture in `node`: its declarator when a
    name, and (a parameter's only) the names directly under its declarator (`*p`, `&r`, `a[n]`)."""
    declarator = node.child_by_field_name("declarator")
    if declarator is None:
        return []
    if declarator.type == "identifier":
        return [(declarator, node, 6 if index == 6 else index + 1, {"param.name": [declarator]})]
    if index != 6 or not declarator.is_named:
        return []
    return [(name, node, 7, {"param.name": [name]}) for name in declarator.named_children if name.type == "identifier"]


#: The name each template node is written with (the file's `@inst.name` patterns, 18 to 20).
_INSTANTIATED = {"template_function": (18, "identifier"), "template_type": (19, "type_identifier")}


def _instantiation(template: Node) -> Placed | None:
    """`name<arguments>` as the file's `@inst.name` patterns capture it, placed at its arguments."""
    pattern, name_type = _INSTANTIATED.get(template.type, (20, "field_identifier"))
    name, arguments = template.child_by_field_name("name"), template.child_by_field_name("arguments")
    if name is None or name.type != name_type or arguments is None or arguments.type != "template_argument_list":
        return None
    return (arguments, template, pattern, {"inst.name": [name]})


def _named_template_parameter(template: Node) -> Node | None:
    """The name of the template's first parameter declared by a name (the file's `@tparam.template`
    pattern matches the template once, there), or None."""
    parameters = template.child_by_field_name("parameters")
    if parameters is None or parameters.type != "template_parameter_list":
        return None
    for parameter in parameters.children:
        if parameter.type in ("parameter_declaration", "optional_parameter_declaration"):
            name = parameter.child_by_field_name("declarator")
            if name is not None and name.type == "identifier":
                return name
    return None


def _symbols(found: list[Match]) -> list[Match]:
    """The query file's matches, each capture name's in its order: a declaration's `@var.decl` once
    per pattern (tree-sitter keeps one of the matches that capture the same), placed where its first
    declarator that fits is complete; the functions' names where their parameters are."""
    kept: list[Match] = []
    declarations: list[Placed] = []
    writes: list[Placed] = []
    named: list[Placed] = []  # parameters
    instantiations: list[Placed] = []
    templates: list[Placed] = []
    done: set[tuple[int, Node]] = set()

    def declaration(last: Node, declared: Node, index: int) -> None:
        if (index, declared) not in done:
            done.add((index, declared))
            declarations.append((last, declared, index, {"var.decl": [declared]}))

    for index, match in found:
        if index == 3:
            init = match["var.init"][0]
            held = declared_by(init, "declaration")
            value = init.child_by_field_name("value")
            if held is not None and value is not None:
                declaration(value, held, 3)
        elif index == 4:
            name, parameters = match["function.declarator"][0], match["function.parameters"][0]
            if name.type == "identifier":
                declarator = name.parent
                held = declared_by(declarator, "declaration") if declarator is not None else None
                if held is not None:
                    declaration(parameters, held, 4)
            if name.type in ("identifier", "field_identifier"):
                kept.append((16, {"function.name": [name]}))
        elif index == 5:
            field = match["var.field"][0]
            value = named_field(field, "default_value")
            if value is None or named_field(field, "type") is None:
                continue
            if any(d.type == "field_identifier" for d in field_children(field, "declarator")):
                declaration(value, field, 5)
        elif index in _WRITES:
            written = _written(index, match)
            if written is not None:
                writes.append(written)
        elif index in _PARAMETERS:
            named.extend(_parameter_names(index, match[_PARAMETERS[index]][0]))
        elif index >= 14:
            instantiation = _instantiation(match["inst.template"][0])
            if instantiation is not None:
                instantiations.append(instantiation)
        elif index == 13:
            template = match["tparam.template"][0]
            named_parameter = _named_template_parameter(template)
            if named_parameter is not None:
                templates.append((named_parameter, template, 17, match))
        else:
            kept.append((index, match))
    placed = (declarations, named, writes, instantiations, templates)
    return kept + [match for one_name in placed for match in in_order(one_name)]


# -- cpp_device_index --------------------------------------------------------------------------------

_DEVICE_INDEX = """
(function_definition) @function
(init_declarator declarator: (identifier) @lambda.name value: (lambda_expression) @lambda)
"""


def _device_index(found: list[Match]) -> list[Match]:
    placed: list[Placed] = []
    for index, match in found:
        if index == 0:
            definition = match["function"][0]
            placed.append((definition, definition, 0, match))
            continue
        lam = match["lambda"][0]
        init = lam.parent
        held = declared_by(init, "declaration", typed=False) if init is not None else None
        if held is not None:
            placed.append((lam, held, 1, match))
    return in_order(placed)


# -- cpp_types ---------------------------------------------------------------------------------------

_CPP_TYPES = """
(struct_specifier) @struct
(class_specifier) @struct
(union_specifier) @union
(type_definition) @typedef
(alias_declaration) @alias
(preproc_function_def name: (identifier) @macro.name parameters: (preproc_params) value: (preproc_arg))
"""


def _cpp_types(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    for index, match in found:
        if index < 3:
            specifier = match["union" if index == 2 else "struct"][0]
            body = specifier.child_by_field_name("body")
            if named_field(specifier, "name") is None or body is None or body.type != "field_declaration_list":
                continue
        kept.append((index, match))
    return kept


# -- cpp (the file query) ----------------------------------------------------------------------------


def _file_query_text() -> str:
    """`cpp.scm` with its member calls written from the member's name and its two kernel patterns as
    one, from the parameter: the patterns after them keep their text (their indices one less)."""
    text = query_text("cpp")
    patterns = [text[start:end] for start, end in split_patterns(text)]
    member, kernel = _MEMBER_WORDS.search(patterns[4]), _KERNEL_WORDS.search(patterns[6])
    assert member is not None and kernel is not None, "cpp.scm's member call and kernel patterns moved"
    loose = [
        *patterns[:4],
        f"((field_identifier) @member.name {member.group(0)})",
        patterns[5],
        f"((parameter_declaration type: (_) @kernel.type) @kernel.parameter {kernel.group(0)})",
        *patterns[8:],
    ]
    return "\n".join(loose)


_MEMBER_WORDS = re.compile(r"\(#any-of\? @member\.name[^)]*\)")
_KERNEL_WORDS = re.compile(r'\(#match\? @kernel\.type "[^"]*"\)')


def _member_call(name: Node) -> Node | None:
    """The call whose function is `x.name`, `x.name<…>` or `x.template name<…>` (the file query's
    `@member.call`), or None."""
    holder = name.parent
    if holder is None:
        return None
    if holder.type == "template_method":
        if name not in field_children(holder, "name"):
            return None
        method, holder = holder, holder.parent
        if holder is not None and holder.type == "dependent_name":
            method, holder = holder, holder.parent
        if holder is None or holder.type != "field_expression" or method not in field_children(holder, "field"):
            return None
    elif holder.type != "field_expression" or name not in field_children(holder, "field"):
        return None
    call = holder.parent
    if call is None or call.type != "call_expression" or holder not in field_children(call, "function"):
        return None
    return call


def _kernel_candidate(parameter: Node) -> tuple[int, Node] | None:
    """The lambda (the file query's pattern 6) or function definition (7) that has `parameter` in its
    parameter list, or None."""
    parameters = parameter.parent
    declarator = parameters.parent if parameters is not None and parameters.type == "parameter_list" else None
    if declarator is None or parameters not in field_children(declarator, "parameters"):
        return None
    holder = declarator.parent
    if holder is None or declarator not in field_children(holder, "declarator"):
        return None
    if declarator.type == "abstract_function_declarator" and holder.type == "lambda_expression":
        return 6, holder
    if declarator.type == "function_declarator" and holder.type == "function_definition":
        return 7, holder
    return None


def _file_query(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    placed: list[Placed] = []
    for index, match in found:
        if index == 4:
            name = match["member.name"][0]
            call = _member_call(name)
            if call is not None:
                placed.append((name, call, 4, {"member.call": [call], "member.name": [name]}))
        elif index == 6:
            kernel_type = match["kernel.type"][0]
            candidate = _kernel_candidate(match["kernel.parameter"][0])
            if candidate is not None:
                pattern, holder = candidate
                placed.append(
                    (kernel_type, holder, pattern, {"kernel.candidate": [holder], "kernel.type": [kernel_type]})
                )
        else:
            kept.append((index + 1 if index > 6 else index, match))
    return kept + in_order(placed)


#: The loose text of each whole-file query file (and SYCL's device scan), with what turns its matches
#: into the file's.
LOOSE = {
    "cpp": Loose(_file_query_text(), _file_query, order="names"),
    "cpp_device_index": Loose(_DEVICE_INDEX, _device_index, order="matches"),
    "cpp_types": Loose(_CPP_TYPES, _cpp_types, order="captures"),
    "cpp_symbols": Loose(_SYMBOLS, _symbols, order="names"),
    "cpp_device": Loose(_DEVICE_SCAN, _device_scan, order="captures"),
}
