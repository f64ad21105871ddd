"""Query files written to compile cheaply, for a process that reads few files (`treesitter.Loose`).

Compiling a pattern costs tree-sitter a search of the grammar for every node that holds a child in
it, and some cost milliseconds each: a wildcard, an alternation or a field of a common node such as
`declaration` or `binary_expression` (`(declaration declarator: [(identifier) (init_declarator …) …])`
about 7 ms here, against nothing for `(declaration)`). A process that reads one file pays that for
every query it compiles, far more than running them costs. Here each of those query files is written
again with patterns that compile for almost nothing (a node alone, or a cheap field), and a function
turns the matches of that text into exactly the matches of the query file: the same patterns, the
same captured nodes, in the same order (tree-sitter returns matches as their last node is reached:
`_in_order`). `tests/test_loose_queries.py` holds the query files' texts of the time and checks both
against each other on every corpus file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from kernlint.frontends.common.treesitter import Loose, Match, query_text

Node = tree_sitter.Node
#: A match as the query file gives it, with the node whose entry completes it (its pattern's last
#: step) and its root: tree-sitter's order of matches.
Placed = tuple[Node, Node, int, dict[str, list[Node]]]


def _in_order(placed: list[Placed]) -> list[Match]:
    """The matches in tree-sitter's order: by the node that completes each (entered in a walk of the
    tree: by start, the enclosing node first), then by root (the enclosing root first), then pattern."""
    placed.sort(key=lambda p: (p[0].start_byte, -p[0].end_byte, p[1].start_byte, -p[1].end_byte, p[2]))
    return [(index, match) for _last, _root, index, match in placed]


def _field_children(node: Node, field: str) -> list[Node]:
    return node.children_by_field_name(field)


def _named_field(node: Node, field: str) -> Node | None:
    """The child in `field` when it is a named node (a pattern's `field: (_)`)."""
    child = node.child_by_field_name(field)
    return child if child is not None and child.is_named else None


# -- cpp_openmp_declared -----------------------------------------------------------------------------

_DECLARED = """
(declaration) @declaration
(for_range_loop declarator: (identifier) @declared)
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
            kept.append((1, match))
            continue
        for declarator in _field_children(match["declaration"][0], "declarator"):
            kept.extend((0, {"declared": [name]}) for name in _declared_names(declarator))
    return kept


# -- cpp_openmp_uses ---------------------------------------------------------------------------------

_USES = """
(identifier) @use
(parameter_declaration type: (type_identifier) @use.type .)
(preproc_include) @include
(call_expression function: (_) @callee)
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
    if parameters not in _field_children(declarator, "parameters"):
        return False
    declaration = declarator.parent
    return (
        declaration is not None
        and declaration.type == "declaration"
        and declarator in _field_children(declaration, "declarator")
    )


def _uses(found: list[Match]) -> list[Match]:
    kept: list[Match] = []
    for index, match in found:
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
            name, body = _named_field(specifier, "name"), specifier.child_by_field_name("body")
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
        for declarator in _field_children(definition, "declarator"):
            if declarator.type == "type_identifier":
                placed.append((declarator, definition, 2, {"body": [body], "name": [declarator]}))
    return _in_order(placed)


# -- cpp_openmp_decls --------------------------------------------------------------------------------

_DECLS = """
(parameter_declaration) @decl
(declaration) @decl
(assignment_expression left: (identifier) @assigned)
(update_expression) @update
"""


def _decls(found: list[Match]) -> list[Match]:
    placed: list[Placed] = []
    for index, match in found:
        if index == 2:
            name = match["assigned"][0]
            placed.append((name, name.parent or name, 2, match))
        elif index == 3:
            update = match["update"][0]
            argument = update.child_by_field_name("argument")
            if argument is not None and argument.type == "identifier":
                placed.append((argument, update, 3, {"assigned": [argument]}))
        else:
            declaration = match["decl"][0]
            type_node = _named_field(declaration, "type")
            if type_node is None:
                continue
            for declarator in _field_children(declaration, "declarator"):
                if declarator.is_named:
                    captures = {"decl": [declaration], "decl.type": [type_node], "decl.declarator": [declarator]}
                    placed.append((declarator, declaration, index, captures))
    return _in_order(placed)


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
            value = _named_field(statement, "right" if index == 6 else "value")
            if name is not None and name.type == "identifier" and value is not None:
                placed.append((value, statement, index, {"assign": [statement], "name": [name], "value": [value]}))
        else:
            statement = match["update"][0]
            name = statement.child_by_field_name("argument")
            if name is not None and name.type == "identifier":
                placed.append((name, statement, 8, {"name": [name], "update": [statement]}))
    return _in_order(placed)


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

# The variable declarations (`@var.decl`, three patterns), the functions' names (`@function.name`)
# and the writes by assignment and `++`/`--` (`@assigned.name`, four of its six patterns) from cheap
# patterns; the others as the query file writes them (its indices 0 to 2, 6 to 9, 14, 15 and 17 to 20).
_SYMBOLS = """
(preproc_def name: (identifier) @macro.name value: (preproc_arg))
(preproc_def name: (identifier) @macro.name !value) @macro.empty
(preproc_function_def name: (identifier) @macro.function)
(init_declarator declarator: (identifier) value: (_)) @var.init
(function_declarator declarator: (_) @function.declarator parameters: (parameter_list) @function.parameters)
(field_declaration) @var.field
(parameter_declaration declarator: (identifier) @param.name)
(parameter_declaration declarator: (_ (identifier) @param.name))
(optional_parameter_declaration declarator: (identifier) @param.name)
(for_range_loop declarator: (identifier) @param.name)
(assignment_expression left: (_) @assigned.left)
(update_expression) @assigned.update
(pointer_expression argument: (identifier) @assigned.name)
(init_declarator declarator: (reference_declarator) value: (identifier) @assigned.name)
(template_declaration
  parameters: (template_parameter_list
    [(parameter_declaration declarator: (identifier))
     (optional_parameter_declaration declarator: (identifier))])) @tparam.template
(template_function name: (identifier) @inst.name arguments: (template_argument_list))
(template_type name: (type_identifier) @inst.name arguments: (template_argument_list))
(template_method name: (field_identifier) @inst.name arguments: (template_argument_list))
"""


def _declared_by(declarator: Node, declaration_type: str, typed: bool = True) -> Node | None:
    """The declaration of type `declaration_type` that holds `declarator` among its declarators (and
    when `typed` has a named type: the query file's `(declaration type: (_) declarator: …)`)."""
    declaration = declarator.parent
    if declaration is None or declaration.type != declaration_type:
        return None
    if typed and _named_field(declaration, "type") is None:
        return None
    return declaration if declarator in _field_children(declaration, "declarator") else None


#: The loose patterns of `@assigned.name`: an assignment (the file's 10 to 12), `++`/`--` (13), a
#: pointer or address (14), a reference bound (15).
_WRITES = (10, 11, 12, 13)
#: An assignment's left side that writes a name: the name, one element of it, one member of it.
_WRITTEN_THROUGH = {"identifier": 10, "subscript_expression": 11, "field_expression": 12}


def _written(index: int, match: dict[str, list[Node]]) -> Placed | None:
    """A write the file's `@assigned.name` patterns capture, placed at the name (their last step)."""
    if index in (12, 13):  # a pointer or address, a reference bound: as the file writes them
        captured = match["assigned.name"][0]
        return (captured, captured.parent or captured, index + 2, match)
    if index == 11:
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


def _symbols(found: list[Match]) -> list[Match]:
    """The query file's matches, each capture name's in its order: a declaration's `@var.decl` once
    per pattern (tree-sitter keeps one of the matches that capture the same), placed where its first
    declarator that fits is complete; the functions' names where their parameters are."""
    kept: list[Match] = []
    declarations: list[Placed] = []
    writes: list[Placed] = []
    done: set[tuple[int, Node]] = set()

    def declaration(last: Node, declared: Node, index: int) -> None:
        if (index, declared) not in done:
            done.add((index, declared))
            declarations.append((last, declared, index, {"var.decl": [declared]}))

    for index, match in found:
        if index == 3:
            init = match["var.init"][0]
            held = _declared_by(init, "declaration")
            value = init.child_by_field_name("value")
            if held is not None and value is not None:
                declaration(value, held, 3)
        elif index == 4:
            name, parameters = match["function.declarator"][0], match["function.parameters"][0]
            if name.type == "identifier":
                declarator = name.parent
                held = _declared_by(declarator, "declaration") if declarator is not None else None
                if held is not None:
                    declaration(parameters, held, 4)
            if name.type in ("identifier", "field_identifier"):
                kept.append((16, {"function.name": [name]}))
        elif index == 5:
            field = match["var.field"][0]
            value = _named_field(field, "default_value")
            if value is None or _named_field(field, "type") is None:
                continue
            if any(d.type == "field_identifier" for d in _field_children(field, "declarator")):
                declaration(value, field, 5)
        elif index in _WRITES:
            written = _written(index, match)
            if written is not None:
                writes.append(written)
        else:
            kept.append((index + 3 if index >= 14 else index, match))
    return kept + _in_order(declarations) + _in_order(writes)


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
        held = _declared_by(init, "declaration", typed=False) if init is not None else None
        if held is not None:
            placed.append((lam, held, 1, match))
    return _in_order(placed)


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
            if _named_field(specifier, "name") is None or body is None or body.type != "field_declaration_list":
                continue
        kept.append((index, match))
    return kept


# -- cpp (the file query) ----------------------------------------------------------------------------


def _file_query_text() -> str:
    """`cpp.scm` with its member calls written from the member's name and its two kernel patterns as
    one, from the parameter: the patterns after them keep their text (their indices one less)."""
    from kernlint.frontends.common.query_gates import split_patterns

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
        if name not in _field_children(holder, "name"):
            return None
        method, holder = holder, holder.parent
        if holder is not None and holder.type == "dependent_name":
            method, holder = holder, holder.parent
        if holder is None or holder.type != "field_expression" or method not in _field_children(holder, "field"):
            return None
    elif holder.type != "field_expression" or name not in _field_children(holder, "field"):
        return None
    call = holder.parent
    if call is None or call.type != "call_expression" or holder not in _field_children(call, "function"):
        return None
    return call


def _kernel_candidate(parameter: Node) -> tuple[int, Node] | None:
    """The lambda (the file query's pattern 6) or function definition (7) that has `parameter` in its
    parameter list, or None."""
    parameters = parameter.parent
    declarator = parameters.parent if parameters is not None and parameters.type == "parameter_list" else None
    if declarator is None or parameters not in _field_children(declarator, "parameters"):
        return None
    holder = declarator.parent
    if holder is None or declarator not in _field_children(holder, "declarator"):
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
    return kept + _in_order(placed)


#: The loose text of each query file that has one, with what turns its matches into the file's.
LOOSE = {
    "cpp_openmp_declared": Loose(_DECLARED, _declared, order="captures"),
    "cpp_openmp_uses": Loose(_USES, _uses, order="captures"),
    "cpp_openmp_types": Loose(_TYPES, _types, order="matches"),
    "cpp_openmp_decls": Loose(_DECLS, _decls, order="matches"),
    "cpp_openmp_device": Loose(_DEVICE, _device, order="matches"),
    "cpp_openmp_calls": Loose(_CALLS, _calls, order="matches"),
    "cpp": Loose(_file_query_text(), _file_query, order="names"),
    "cpp_device_index": Loose(_DEVICE_INDEX, _device_index, order="matches"),
    "cpp_types": Loose(_CPP_TYPES, _cpp_types, order="captures"),
    "cpp_symbols": Loose(_SYMBOLS, _symbols, order="names"),
    "cpp_device": Loose(_DEVICE_SCAN, _device_scan, order="captures"),
}
