"""The C/C++ syntax OpenMP facts are read from: the statement a pragma applies to, the loops a loop
construct associates (with `collapse`), a `for` header's index, bounds and step, and declarations."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.facts.openmp_directive import OmpDirective
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.openmp.maps import Declared

_SKIPPED_SIBLINGS = frozenset({"comment", "preproc_call", "preproc_else", "preproc_elif", "preproc_elifdef"})
_PREPROC_BLOCKS = frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef"})
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "!="})
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


# -- association -------------------------------------------------------------------------------


def following_statement(node: tree_sitter.Node, end: int) -> tree_sitter.Node | None:
    """The statement a pragma applies to: the next sibling that is not a comment or pragma (nor the
    rest of the pragma's own line), stepping out of `#ifdef` blocks that end right after the pragma."""
    current: tree_sitter.Node | None = node
    while current is not None:
        broken = current.parent is not None and current.parent.type == "ERROR"
        sibling = current.next_sibling if broken else current.next_named_sibling
        while sibling is not None and (sibling.type in _SKIPPED_SIBLINGS or sibling.start_byte < end):
            sibling = sibling.next_sibling if broken else sibling.next_named_sibling
        if sibling is not None:
            if sibling.type in _PREPROC_BLOCKS:
                return None  # the statement itself is conditionally compiled: too uncertain
            if not sibling.is_named:
                return None  # a loose `{` or `for` of code tree-sitter could not parse: no statement
            return sibling
        parent = current.parent
        if parent is None or parent.type not in _PREPROC_BLOCKS:
            return None
        current = parent if parent.type != "preproc_else" else parent.parent
    return None


def collapse_depth(directive: OmpDirective, value_at: Callable[[str, int], int | None], at: int) -> int:
    """How many loops a `collapse(n)` clause associates (1 without one, or when n is unknown)."""
    clause = directive.clause("collapse")
    if clause is None or not clause.expr:
        return 1
    value = value_at(clause.expr, at)
    return value if value is not None and 1 <= value <= 8 else 1


def associated_loops(statement: tree_sitter.Node, depth: int) -> list[tree_sitter.Node]:
    """The loop a loop construct applies to and, for `collapse(n)`, the perfectly nested ones."""
    loops: list[tree_sitter.Node] = []
    node: tree_sitter.Node | None = statement
    while node is not None and node.type in ("for_statement", "for_range_loop") and len(loops) < depth:
        loops.append(node)
        body = node.child_by_field_name("body")
        if body is not None and body.type == "compound_statement":
            inner = [c for c in body.named_children if c.type not in ("comment", "preproc_call")]
            body = inner[0] if len(inner) == 1 else None
        node = body
    return loops


# -- loops -------------------------------------------------------------------------------------


def for_init(init: tree_sitter.Node | None) -> tuple[str | None, str | None]:
    if init is None:
        return None, None
    if init.type == "declaration":
        declarators = init.children_by_field_name("declarator")
        if len(declarators) == 1 and declarators[0].type == "init_declarator":
            name = declarators[0].child_by_field_name("declarator")
            value = declarators[0].child_by_field_name("value")
            if name is not None and name.type == "identifier" and value is not None:
                return text_of(name), text_of(value)
    if init.type == "assignment_expression" and text_of(init.child_by_field_name("operator")) == "=":
        left = init.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            return text_of(left), text_of(init.child_by_field_name("right"))
    return None, None


def for_condition(condition: tree_sitter.Node | None, index: str | None) -> tuple[str | None, str | None]:
    if condition is None or index is None or condition.type != "binary_expression":
        return None, None
    op = text_of(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if op not in _COMPARISONS or left is None or right is None:
        return None, None
    if left.type == "identifier" and text_of(left) == index:
        return op, text_of(right)
    if right.type == "identifier" and text_of(right) == index:
        return _FLIPPED[op], text_of(left)
    return None, None


def for_step(update: tree_sitter.Node | None, index: str | None) -> str | None:
    if update is None or index is None:
        return None
    if update.type == "update_expression":
        argument = update.child_by_field_name("argument")
        if text_of(argument) != index:
            return None
        return "1" if "++" in text_of(update) else "-1"
    if update.type == "assignment_expression":
        left = update.child_by_field_name("left")
        right = update.child_by_field_name("right")
        op = text_of(update.child_by_field_name("operator"))
        if text_of(left) != index or right is None:
            return None
        if op == "+=":
            return text_of(right)
        if op == "-=":
            return f"-({text_of(right)})"
        if op == "=" and right.type == "binary_expression":
            inner_left = right.child_by_field_name("left")
            inner_op = text_of(right.child_by_field_name("operator"))
            if text_of(inner_left) == index and inner_op in ("+", "-"):
                step = text_of(right.child_by_field_name("right"))
                return step if inner_op == "+" else f"-({step})"
    return None


def in_loop_header(node: tree_sitter.Node) -> bool:
    """Whether `node` is in a `for` statement's initializer or update (`int i = 0`, `++i`): where a
    counted loop declares and steps its index."""
    child, parent = node, node.parent
    while parent is not None and not parent.type.endswith("_statement"):
        child, parent = parent, parent.parent
    return (
        parent is not None
        and parent.type == "for_statement"
        and child in (parent.child_by_field_name("initializer"), parent.child_by_field_name("update"))
    )


# -- declarations ------------------------------------------------------------------------------


def declarator_name(declarator: tree_sitter.Node, field: bool = False) -> str | None:
    """The name a declarator declares (a member's with `field`), None for a function."""
    wanted = "field_identifier" if field else "identifier"
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type != wanted:
        if node.type in ("function_declarator",):
            return None
        node = node.child_by_field_name("declarator") if not field else _inner_declarator(node)
    return text_of(node) if node is not None else None


def declared_from(declaration: tree_sitter.Node, declarator: tree_sitter.Node) -> Declared:
    type_node = declaration.child_by_field_name("type")
    element = type_size(text_of(type_node))
    levels = indirections(declarator)
    if declaration.type == "parameter_declaration" and levels and levels[0] is not None:
        levels = (None, *levels[1:])  # `float a[]` / `float a[N]` as a parameter is a pointer
    node: tree_sitter.Node | None = declarator
    upper = None
    while node is not None and node.type != "identifier":
        if node.type == "array_declarator":
            size = node.child_by_field_name("size")
            inner = node.child_by_field_name("declarator")
            if inner is not None and inner.type == "identifier" and size is not None:
                upper = f"({text_of(size)}) - 1"
        node = _inner_declarator(node)
    is_array = bool(levels)
    value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
    return Declared(
        element,
        "0" if is_array else None,
        upper,
        is_array,
        indirections=levels,
        type_name=type_name(type_node),
        allocation=allocated_elements(value) if levels[:1] == (None,) else None,
    )


_DECLARATORS = frozenset(
    {
        "init_declarator",
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "abstract_pointer_declarator",
    }
)


def _inner_declarator(node: tree_sitter.Node) -> tree_sitter.Node | None:
    inner = node.child_by_field_name("declarator")
    if inner is not None:
        return inner
    return next((c for c in node.named_children if c.type in _DECLARATORS or c.type.endswith("identifier")), None)


def indirections(declarator: tree_sitter.Node) -> tuple[str | None, ...]:
    """What a declarator derives, from the name outwards: None for a pointer, an array's extent as
    written ("" when unsized). `int **a` → (None, None); `double (*b)[100]` → (None, "100");
    `float *c[10]` → ("10", None); `float d[4][8]` → ("4", "8"). A reference adds nothing."""
    outermost_first: list[str | None] = []
    node: tree_sitter.Node | None = declarator
    while node is not None and not node.type.endswith("identifier"):
        if node.type == "function_declarator":
            return ()
        if node.type in ("pointer_declarator", "abstract_pointer_declarator"):
            outermost_first.append(None)
        elif node.type == "array_declarator":
            size = node.child_by_field_name("size")
            outermost_first.append(text_of(size) if size is not None else "")
        node = _inner_declarator(node)
    return tuple(reversed(outermost_first))


def type_name(type_node: tree_sitter.Node | None) -> str | None:
    """The name a declaration's type is known by: `Grid` for `Grid`, `struct Grid` or `ns::Grid`."""
    if type_node is None:
        return None
    if type_node.type in ("struct_specifier", "class_specifier", "union_specifier"):
        name = type_node.child_by_field_name("name")
        return text_of(name).split("::")[-1].strip() if name is not None else None
    if type_node.type in ("type_identifier", "qualified_identifier"):
        return text_of(type_node).split("::")[-1].strip()
    return None


_ALLOCATORS = frozenset({"malloc", "calloc", "aligned_alloc", "std::malloc", "std::calloc"})


def allocated_elements(value: tree_sitter.Node | None) -> str | None:
    """The element count a pointer's initialiser allocates, as written: `malloc(n * sizeof(float))`,
    `calloc(n, sizeof(float))`, `aligned_alloc(64, n * sizeof(float))`, `new float[n]` give `n`; None
    for anything else (a byte count that is not a multiple of a `sizeof`, another pointer)."""
    while value is not None and value.type in ("cast_expression", "parenthesized_expression"):
        value = value.child_by_field_name("value") or (value.named_children[-1] if value.named_children else None)
    if value is None:
        return None
    if value.type == "new_expression":
        sized = next((c for c in value.named_children if c.type == "new_declarator"), None)
        inner = [c for c in sized.named_children if c.type != "comment"] if sized is not None else []
        return text_of(inner[0]) if len(inner) == 1 else None
    if value.type != "call_expression":
        return None
    function = text_of(value.child_by_field_name("function"))
    arguments = value.child_by_field_name("arguments")
    args = [c for c in arguments.named_children if c.type != "comment"] if arguments is not None else []
    if function not in _ALLOCATORS or not args:
        return None
    if function.endswith("calloc"):
        return text_of(args[0]) if len(args) == 2 and args[1].type == "sizeof_expression" else None
    size = args[-1]
    if size.type == "sizeof_expression":
        return "1"
    if size.type == "binary_expression" and text_of(size.child_by_field_name("operator")) == "*":
        left, right = size.child_by_field_name("left"), size.child_by_field_name("right")
        if right is not None and right.type == "sizeof_expression" and left is not None:
            return text_of(left)
        if left is not None and left.type == "sizeof_expression" and right is not None:
            return text_of(right)
    return None


def strip_c_comment(line: str) -> str:
    """`line` up to its first `//` or `/*` outside string literals."""
    if "/" not in line:
        return line
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "/" and line[i + 1 : i + 2] in ("/", "*"):
            return line[:i]
        i += 1
    return line


def struct_pointers(root: tree_sitter.Node) -> dict[str, tuple[str, ...]]:
    """The file's structs and classes by name, with their members that are pointers."""
    table: dict[str, tuple[str, ...]] = {}
    parsed = root.text  # (each pattern's node holds a `struct` or `class` keyword token)
    keywords = parsed is None or b"struct" in parsed or b"class" in parsed
    for _i, match in treesitter.matches("cpp", "cpp_openmp_types", root) if keywords else ():
        name, body = text_of(match["name"][0]).split("::")[-1], match["body"][0]
        members = []
        for field in body.named_children:
            if field.type != "field_declaration":
                continue
            for declarator in field.children_by_field_name("declarator"):
                levels = indirections(declarator)
                member = declarator_name(declarator, field=True)
                if member and levels and None in levels:
                    members.append(member)
        table.setdefault(name, tuple(members))
    return table
