"""What the declarations a C/C++ file shows say about a name at a point: its declared type, and whether
it is a private local of the code there. A rewrite of `if (x < a) x = a;` into `x = std::max(x, a);`
is the same program only when both sides have one type (std::max deduces one) and when writing `x`
on every path, rather than on one, cannot be seen by anyone else: that is the question asked here.

Only declarations in the tree count: a block's declarations before the point, a `for` header's, the
parameters of the function or lambda around it, and those at file scope. A type is the declaration's
type specifier as written, normalised (`unsigned` is `unsigned int`, `const` and `static` set aside),
with a `*` per pointer level; `auto`, `decltype`, arrays and anything not found are unknown (None),
and unknown is never taken for a match.
"""

from __future__ import annotations

import re

import tree_sitter

from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.dependence.nodes import ParentOf
from kernlint.records import record

Node = tree_sitter.Node

_UNITS = frozenset({"function_definition", "lambda_expression"})
_UNKNOWN_TYPES = frozenset({"placeholder_type_specifier", "decltype", "auto"})
# `unsigned` alone, `long int`, `signed char`: the spellings of one type, in one form.
_INTEGER_WORDS = re.compile(r"^(?:(signed|unsigned)(?:\s+|$))?(short|long long|long|char|int)?(?:\s+int)?$")
_LITERAL_SUFFIX = re.compile(r"(?i)(?P<u>u)?(?P<l>ll|l)?(?P<u2>u)?z?")
_QUALIFIERS = re.compile(r"\b(?:const|volatile|constexpr)\b")


@record(slots=True)
class Declared:
    """A name's declaration as seen from a point: its type (None: unknown), and whether it is a private
    local there (declared by value, not static, in the function or lambda the point is in, and with no
    OpenMP construct between, which would share it between threads)."""

    type: str | None
    private: bool


def declared(name: str, at: Node, parent_of: ParentOf) -> Declared | None:
    """The declaration of `name` visible at `at` (the innermost one), or None when the tree shows none."""
    own_unit = True  # still inside the function or lambda `at` is in
    shared = False  # an OpenMP construct lies between `at` and the declaration
    child, scope = at, parent_of(at)
    while scope is not None:
        shared = shared or _after_openmp_directive(child)  # a declaration in `scope` is outside the construct
        found = _declared_in(scope, child, name)
        if found is not None:
            declaration, declarator = found
            kind, static = _declared_type(declaration, declarator)
            local = own_unit and scope.type not in ("translation_unit", "declaration_list")
            return Declared(kind, local and not static and not shared and not _is_reference(declarator))
        if scope.type in _UNITS:
            own_unit = False
        child, scope = scope, parent_of(scope)
    return None


def value_type(value: Node, at: Node, parent_of: ParentOf, target_type: str | None = None) -> str | None:
    """The type of an assigned value when the tree shows it: a declared name, a number literal (with a
    sign), a cast (`(float)x`, `static_cast<float>(x)`, and `T(x)` where `T` is the type the target is
    declared with); None otherwise."""
    while value.type == "parenthesized_expression" and value.named_children:
        value = value.named_children[0]
    if value.type == "identifier":
        found = declared(text_of(value), at, parent_of)
        return found.type if found is not None else None
    if value.type == "number_literal":
        return literal_type(text_of(value))
    if value.type == "unary_expression" and text_of(value.child_by_field_name("operator")) in ("-", "+"):
        argument = value.child_by_field_name("argument")
        inner = literal_type(text_of(argument)) if argument is not None and argument.type == "number_literal" else None
        return inner if inner not in ("unsigned int", "unsigned long", "unsigned long long") else None
    if value.type == "cast_expression":
        return _type_text(value.child_by_field_name("type"))
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        if function is None:
            return None
        if function.type == "template_function" and text_of(function.child_by_field_name("name")) == "static_cast":
            arguments = function.child_by_field_name("arguments")
            kinds = arguments.named_children if arguments is not None else []
            return _type_text(kinds[0]) if len(kinds) == 1 else None
        if target_type is not None and text_of(function) == target_type:
            return target_type  # `Real_t(0.)`: a construction of the type the target has
    return None


def literal_type(text: str) -> str | None:
    """The type of a C/C++ number literal (`1` int, `1u` unsigned int, `2.0f` float, `3.0` double); None
    for an integer too large for `int` without a suffix that says more (its type depends on its base)."""
    text = text.replace("'", "")
    lower = text.lower()
    hexadecimal = lower.startswith("0x")
    if "." in text or ("p" in lower if hexadecimal else "e" in lower):
        return "float" if lower.endswith("f") else "long double" if lower.endswith("l") else "double"
    digits = re.match(r"(?i)0x[\da-f]+|0b[01]+|\d+", text)
    suffix = _LITERAL_SUFFIX.fullmatch(text[digits.end() :]) if digits else None
    if digits is None or suffix is None:
        return None
    number = digits.group()
    value = int(number, 8) if re.fullmatch(r"0\d+", number) else int(number, 0)
    unsigned = bool(suffix.group("u") or suffix.group("u2"))
    size = {"ll": "long long", "l": "long"}.get((suffix.group("l") or "").lower(), "int")
    if size == "int" and value >= 1 << 31:
        return None
    return f"unsigned {size}" if unsigned else size


# -- the tree ----------------------------------------------------------------------------------


def _declared_in(scope: Node, child: Node, name: str) -> tuple[Node, Node] | None:
    """(declaration, declarator) of `name` among what `scope` declares before `child`, the last one."""
    candidates: list[Node] = []
    if scope.type in ("compound_statement", "translation_unit", "declaration_list"):
        candidates = [c for c in scope.named_children if c.type == "declaration" and c.end_byte <= child.start_byte]
    elif scope.type == "for_statement":
        candidates = [c for c in scope.children_by_field_name("initializer") if c.type == "declaration"]
    elif scope.type == "for_range_loop" and child != scope.child_by_field_name("right"):
        candidates = [scope]
    elif scope.type in _UNITS:
        candidates = _parameters(scope)
    for declaration in reversed(candidates):
        for declarator in declaration.children_by_field_name("declarator"):
            if _declarator_name(declarator) == name:
                return declaration, declarator
    return None


def _parameters(unit: Node) -> list[Node]:
    declarator = unit.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("function_declarator", "abstract_function_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [p for p in parameters.named_children if p.type == "parameter_declaration"] if parameters else []


def _declarator_name(declarator: Node) -> str | None:
    while declarator.type in ("init_declarator", "pointer_declarator", "reference_declarator", "array_declarator"):
        inner = declarator.child_by_field_name("declarator")
        if inner is None:  # `int &r` in some grammars keeps the name as a plain child
            inner = next((c for c in declarator.named_children if c.type == "identifier"), None)
        if inner is None:
            return None
        declarator = inner
    return text_of(declarator) if declarator.type == "identifier" else None


def _declared_type(declaration: Node, declarator: Node) -> tuple[str | None, bool]:
    """(the normalised type `declarator` gives its name, whether the declaration is `static`)."""
    static = any(c.type == "storage_class_specifier" and text_of(c) == "static" for c in declaration.children)
    base = _type_text(declaration.child_by_field_name("type"))
    stars = 0
    current: Node | None = declarator
    while current is not None and current.type != "identifier":
        if current.type == "array_declarator":
            return None, static
        stars += current.type == "pointer_declarator"
        current = current.child_by_field_name("declarator") or next(
            (c for c in current.named_children if c.type in ("identifier", "pointer_declarator")), None
        )
    return (f"{base}{' *' * stars}" if base is not None else None), static


def _type_text(node: Node | None) -> str | None:
    """A type specifier in one spelling, None for one kernlint cannot name (`auto`, `decltype(x)`). A
    cast's type descriptor (`(float *)p`, `static_cast<float>(x)`) is its type with a `*` per pointer."""
    if node is None or node.type in _UNKNOWN_TYPES:
        return None
    if node.type == "type_descriptor":
        base = _type_text(node.child_by_field_name("type"))
        declarator = node.child_by_field_name("declarator")
        stars = text_of(declarator).count("*") if declarator is not None else 0
        if declarator is not None and text_of(declarator).replace("*", "").strip():
            return None  # `(float (*)[4])`, `(int &)`: not a plain value type
        return f"{base}{' *' * stars}" if base is not None else None
    words = " ".join(_QUALIFIERS.sub(" ", text_of(node)).split())
    match = _INTEGER_WORDS.match(words)
    if match and (match.group(1) or match.group(2)):
        sign, size = match.group(1), match.group(2) or "int"
        if size == "char":
            return f"{sign} char" if sign else "char"
        return f"unsigned {size}" if sign == "unsigned" else size
    return words or None


def _is_reference(declarator: Node) -> bool:
    current: Node | None = declarator
    while current is not None and current.type != "identifier":
        if current.type == "reference_declarator":
            return True
        current = current.child_by_field_name("declarator") or next(
            (c for c in current.named_children if c.type in ("identifier", "reference_declarator")), None
        )
    return False


def _after_openmp_directive(statement: Node) -> bool:
    """Whether `statement` is the statement an `#pragma omp` line just before it applies to."""
    before = statement.prev_named_sibling
    while before is not None and before.type == "comment":
        before = before.prev_named_sibling
    if before is None or before.type != "preproc_call":
        return False
    directive = before.child_by_field_name("directive")
    argument = before.child_by_field_name("argument")
    return text_of(directive) == "#pragma" and argument is not None and text_of(argument).split()[:1] == ["omp"]
