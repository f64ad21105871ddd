"""What a C/C++ name's declared type says about the memory it indexes: the element type, the extents of
its dimensions, and the layout of a struct element (`sizeof`, each member's offset and size).

Declarations are found by name on first use: among the initialised declarations and parameters of the
file's symbol query and its file-scope declarations, else in the blocks around the use (each block's
own declarations indexed once); the one visible at a use is the innermost declaration before it (block scopes,
parameters of the enclosing functions and lambdas, then the file). Structs, classes, unions, type
aliases and function-like macros come from the file and from its quoted headers (the `cpp_types`
query, run only when a struct member or a macro is met), as the constants do. Sizes follow the one type-size table
(`kernlint.analysis.consteval.type_size`) plus SYCL's vector types; a struct is laid out with C's rules
(each member at a multiple of its alignment, the size rounded up to the largest). Anything else
(templates, base classes, bit-fields, an unknown member type) has no size: never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.records import record

Node = tree_sitter.Node

_SCOPES = frozenset(
    {
        "compound_statement",
        "for_statement",
        "for_range_loop",
        "lambda_expression",
        "function_definition",
        "field_declaration_list",
        "translation_unit",
        "namespace_definition",
        "declaration_list",
    }
)
_FUNCTIONS = frozenset({"function_definition", "lambda_expression"})
_QUALIFIERS = re.compile(
    r"\b(?:const|volatile|restrict|__restrict__|__restrict|static|constexpr|inline|typename|struct|class|union)\b"
)
_VECTOR = re.compile(
    r"^(?:(?:sycl|cl::sycl)::)?(?P<base>char|uchar|short|ushort|int|uint|long|ulong|float|double|half)"
    r"(?P<n>2|3|4|8|16)$"
)
_VEC_TEMPLATE = re.compile(r"^(?:(?:sycl|cl::sycl)::)?vec\s*<\s*(?P<base>[\w: ]+?)\s*,\s*(?P<n>\d+)\s*>$")
_SHORT_NAMES = {"uchar": "unsigned char", "ushort": "unsigned short", "uint": "unsigned int", "ulong": "unsigned long"}
_MAX_ALIAS_DEPTH = 8
_Value = Callable[[str, int], "int | None"]  # a constant expression's value at a byte
# Struct bodies, alias targets and function-like macros (parameters, body) by name (`type_definitions`).
Definitions = tuple[dict[str, Node], dict[str, str], dict[str, tuple[tuple[str, ...], str]]]


@record(slots=True)
class Declared:
    """A variable or parameter as declared: its type as written (qualifiers dropped), how many pointer
    levels and which array extents its declarator adds (`float (*t)[33]` → 1 pointer, extents (33,);
    `float a[16][17]` → extents (16, 17); None: not constant), and its initialiser."""

    name: str
    type_text: str
    pointers: int
    extents: tuple[int | None, ...]
    reference: bool
    start_byte: int
    value: Node | None = None
    parameter: bool = False
    pointer_elements: bool = False  # `float *rows[4]`: an array of pointers, each row its own allocation

    @property
    def shape(self) -> tuple[int | None, ...] | None:
        """The extents an element subscript chain walks through contiguous memory, outermost first (None:
        a pointer's unknown count), or None when the name is no such array (a value, a pointer to
        pointers, an array of pointers)."""
        if self.pointer_elements:
            return None
        if self.pointers == 1:
            return (None, *self.extents)
        return self.extents if self.pointers == 0 and self.extents else None


@record(slots=True)
class Member:
    name: str
    offset: int
    size: int
    type_text: str


@record(slots=True)
class Layout:
    """A struct's size, alignment and members in declaration order."""

    name: str
    size: int
    align: int
    members: tuple[Member, ...]

    def member(self, name: str) -> Member | None:
        return next((m for m in self.members if m.name == name), None)


class FileTypes:
    """What the types of a file read of the whole file, found once for all its readers (each kernel's
    types, the OpenMP regions'): the structs, aliases and function-like macros of the file and its quoted
    headers (a whole-file query), and the symbol query's declarations and parameters by name."""

    def __init__(self, root: Node, constants: CppConstants, symbols: dict[str, list[Node]]) -> None:
        self._root = root
        self._constants = constants
        self._captured = symbols  # the symbol query's captures (`var.decl`, `param.name`)

    @cached_property
    def captures(self) -> dict[str, list[Node]]:
        """The `cpp_types` query's captures over the file's own tree (the reuse keys read them too)."""
        return treesitter.captures("cpp", "cpp_types", self._root)

    @cached_property
    def definitions(self) -> Definitions:
        headers = (treesitter.captures("cpp", "cpp_types", root) for root in self._constants.header_roots())
        return type_definitions([self.captures, *headers])

    @cached_property
    def symbols(self) -> dict[str, list[Node]]:
        """The symbol query's declarations and parameters, by name (their declaration nodes found on use)."""
        found: dict[str, list[Node]] = {}
        for declaration in self._captured.get("var.decl", []):
            declarator = declaration.child_by_field_name("declarator")
            name = _name_node(declarator) if declarator is not None else None
            if name is not None:
                found.setdefault(text_of(name), []).append(declaration)
        for name in self._captured.get("param.name", []):
            found.setdefault(text_of(name), []).append(name)
        return found


class CppTypes:
    """Declared types of the names of one file, and the layouts of the structs it and its headers define."""

    def __init__(
        self,
        root: Node,
        constants: CppConstants,
        parent_of: Callable[[Node], Node | None] | None = None,
        *,
        file: FileTypes,
    ) -> None:
        """`file`: what the file's readers find of the whole file once (`CppUnit.file_types`)."""
        self._root = root
        self._file = file
        self._parent = parent_of or (
            lambda node: node.parent
        )  # a memoised lookup: `Node.parent` walks down from the root
        self._constants = constants
        self._indexed: dict[tuple[int, int], dict[str, list[Node]]] = {}  # outermost function -> its declarations
        self._top: dict[str, list[Node]] | None = None
        self._scopes: dict[tuple[int, int], tuple[int, int]] = {}
        self._layouts: dict[str, Layout | None] = {}
        self._sizes: dict[str, int | None] = {}

    def use_parents(self, parent_of: Callable[[Node], Node | None]) -> None:
        """Find parents through `parent_of` from now on (a memoised lookup built after these types were)."""
        self._parent = parent_of

    # -- declarations -------------------------------------------------------------------------------

    def declared(self, name: str, at: Node) -> Declared | None:
        """The declaration of `name` visible at `at`: the innermost one before it whose scope holds it.
        The file's initialised declarations and parameters (from the symbol query the file's walk already
        ran) and its file-scope declarations are searched first; only when none is visible, the blocks
        around `at`, innermost first (each block's own declarations indexed once)."""
        return self._visible(self._cheap(name), name, at) or self._in_blocks(name, at)

    def _visible(self, candidates: list[Node], name: str, at: Node) -> Declared | None:
        best: tuple[int, Declared] | None = None
        for node in candidates:
            if node.start_byte > at.start_byte and node.type not in ("parameter_declaration", "field_declaration"):
                continue
            lo, hi = self._scope(node)
            if not (lo <= at.start_byte < hi):
                continue
            found = _read_declaration(node, name, self._value)
            if found is not None and (best is None or hi - lo < best[0]):
                best = (hi - lo, found)
        return best[1] if best is not None else None

    def _in_blocks(self, name: str, at: Node) -> Declared | None:
        current = self._parent(at)
        while current is not None:
            if current.type in _SCOPES or current.type in _FUNCTIONS:
                for node in self._block(current).get(name, ()):
                    if node.start_byte <= at.start_byte or node.type in ("parameter_declaration", "field_declaration"):
                        found = _read_declaration(node, name, self._value)
                        if found is not None:
                            return found
            current = self._parent(current)
        return None

    def _block(self, block: Node) -> dict[str, list[Node]]:
        """The declarations a block (or a function's parameter list, a `for`'s initialiser) makes itself."""
        key = (block.start_byte, block.end_byte)
        if key not in self._indexed:
            children = list(block.named_children)
            if block.type in _FUNCTIONS:
                declarator = block.child_by_field_name("declarator")
                while declarator is not None and declarator.type not in (
                    "function_declarator",
                    "abstract_function_declarator",
                ):
                    declarator = declarator.child_by_field_name("declarator")
                parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
                children = list(parameters.named_children) if parameters is not None else []
            index: dict[str, list[Node]] = {}
            for child in children:
                if child.type in _DECLARATIONS:
                    for declarator in _declarators(child):
                        found = _declared_identifier(declarator) or (
                            text_of(vexing) if (vexing := _vexing_of(child, declarator)) is not None else None
                        )
                        if found:
                            index.setdefault(found, []).append(child)
            self._indexed[key] = index
        return self._indexed[key]

    def read(self, declaration: Node, name: str) -> Declared | None:
        """What the declaration node `declaration` says of `name` (when a caller already found it)."""
        return _read_declaration(declaration, name, self._value)

    def _cheap(self, name: str) -> list[Node]:
        found = []
        for node in self._file.symbols.get(name, []):
            declaration = node if node.type in _DECLARATIONS else _declaration_around(node, self._parent)
            if declaration is not None:
                found.append(declaration)
        return found + self._file_scope().get(name, [])

    def _file_scope(self) -> dict[str, list[Node]]:
        if self._top is None:
            top = [c for c in self._root.named_children if c.type == "declaration"]
            names = [_name_node(declarator) for node in top for declarator in _declarators(node)]
            self._top = _declared_names([n for n in names if n is not None], self._parent)
        return self._top

    def _scope(self, node: Node) -> tuple[int, int]:
        key = (node.start_byte, node.end_byte)
        if key not in self._scopes:
            parent = self._parent(node)
            if node.type in ("parameter_declaration", "optional_parameter_declaration"):
                while parent is not None and parent.type not in _FUNCTIONS:
                    parent = self._parent(parent)
            else:
                while parent is not None and parent.type not in _SCOPES:
                    parent = self._parent(parent)
            self._scopes[key] = (parent.start_byte, parent.end_byte) if parent is not None else (0, 1 << 62)
        return self._scopes[key]

    def _value(self, text: str, at_byte: int) -> int | None:
        return self._constants.value(text, at_byte)

    # -- sizes ----------------------------------------------------------------------------------------

    def size(self, type_text: str) -> int | None:
        """`sizeof` a type as written: arithmetic, SYCL vector, pointer, or a struct or alias of the file
        or its quoted headers."""
        if type_text not in self._sizes:
            found = self._size_align(type_text, 0)
            self._sizes[type_text] = found[0] if found is not None else None
        return self._sizes[type_text]

    def layout(self, type_text: str) -> Layout | None:
        """The layout of a struct type (through aliases), None for any other type or an unknown one."""
        name = _bare(type_text)
        for _ in range(_MAX_ALIAS_DEPTH):
            if name in self._layouts:
                return self._layouts[name]
            if name in self._definitions[0]:
                self._layouts[name] = None  # while laid out: a struct holding itself has no size
                self._layouts[name] = self._lay_out(name, self._definitions[0][name])
                return self._layouts[name]
            alias = self._definitions[1].get(name)
            if alias is None:
                return None
            name = _bare(alias)
        return None

    def _size_align(self, type_text: str, depth: int) -> tuple[int, int] | None:
        if depth > _MAX_ALIAS_DEPTH:
            return None
        text = _bare(type_text)
        if text.endswith("*"):
            return 8, 8
        size = type_size(text)
        if size is not None:
            return size, size
        vector = _vector_size(text)
        if vector is not None:
            return vector, vector
        if text in self._definitions[0] or text in self._layouts:
            layout = self.layout(text)
            return (layout.size, layout.align) if layout is not None else None
        alias = self._definitions[1].get(text)
        return self._size_align(alias, depth + 1) if alias is not None else None

    def _lay_out(self, name: str, body: Node) -> Layout | None:
        offset = align = 0
        members: list[Member] = []
        union = body.parent is not None and body.parent.type == "union_specifier"
        for field in body.named_children:
            if field.type in ("function_definition", "comment", "access_specifier", "declaration"):
                continue  # methods, and `static` members declared as declarations
            if field.type != "field_declaration" or any(text_of(c) == "static" for c in field.children):
                if field.type == "field_declaration":
                    continue
                return None  # a nested template, friend or preprocessor line: not laid out here
            type_node = field.child_by_field_name("type")
            if type_node is None or any(c.type == "bitfield_clause" for c in field.children):
                return None
            for declarator in field.children_by_field_name("declarator"):
                read = _read_declarator(declarator, self._value)
                if read is None:
                    return None
                member_name, pointers, extents, _reference, _pointer_elements = read
                element = self._size_align(text_of(type_node), 0) if not pointers else (8, 8)
                if element is None or any(e is None for e in extents):
                    return None
                size = element[0]
                for extent in extents:
                    size *= extent or 0
                at = 0 if union else -(-offset // element[1]) * element[1]
                element_type = text_of(type_node) + " *" * pointers  # what one element of the member is
                members.append(Member(member_name, at, size, element_type))
                offset = max(offset, size) if union else at + size
                align = max(align, element[1])
        if not members:
            return None
        align = max(align, 1)
        return Layout(name, -(-offset // align) * align, align, tuple(members))

    def function_macro(self, name: str) -> tuple[tuple[str, ...], str] | None:
        """A function-like macro of the file or its quoted headers: (parameters, body as written)."""
        return self._definitions[2].get(name)

    @property
    def _definitions(self) -> Definitions:
        return self._file.definitions


def type_definitions(found: Iterable[dict[str, list[Node]]]) -> Definitions:
    """Struct bodies, alias targets and function-like macros by name, from the `cpp_types` captures of
    the file, then of its quoted headers (the first wins)."""
    structs: dict[str, Node] = {}
    aliases: dict[str, str] = {}
    macros: dict[str, tuple[tuple[str, ...], str]] = {}
    for captures in found:
        for name in captures.get("macro.name", []):
            definition = name.parent
            params = definition.child_by_field_name("parameters") if definition is not None else None
            value = definition.child_by_field_name("value") if definition is not None else None
            if params is not None and value is not None:
                words = tuple(text_of(p) for p in params.named_children if p.type == "identifier")
                macros.setdefault(text_of(name), (words, text_of(value).strip()))
        for node in captures.get("struct", []) + captures.get("union", []):
            if node.parent is not None and node.parent.type == "template_declaration":
                continue
            tag, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            if tag is not None and body is not None:
                structs.setdefault(text_of(tag).split("::")[-1], body)
        for node in captures.get("typedef", []):
            type_node = node.child_by_field_name("type")
            for declarator in node.children_by_field_name("declarator"):
                alias = text_of(declarator)
                if type_node is None or not re.fullmatch(r"\w+", alias):
                    continue
                body = type_node.child_by_field_name("body") if type_node.type.endswith("_specifier") else None
                if body is not None:
                    structs.setdefault(alias, body)  # typedef struct { … } name;
                else:
                    aliases.setdefault(alias, text_of(type_node))
        for node in captures.get("alias", []):
            alias_name, target = node.child_by_field_name("name"), node.child_by_field_name("type")
            if alias_name is not None and target is not None:
                aliases.setdefault(text_of(alias_name), text_of(target))
    return structs, aliases, macros


# -- reading declarators --------------------------------------------------------------------------------

_DECLARATOR_STEPS = frozenset(
    {"init_declarator", "pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator"}
)
_DECLARATIONS = frozenset(
    {"declaration", "field_declaration", "parameter_declaration", "optional_parameter_declaration"}
)


def _declared_names(names: list[Node], parent_of: Callable[[Node], Node | None]) -> dict[str, list[Node]]:
    """Declaration nodes by the name their declarator declares."""
    index: dict[str, list[Node]] = {}
    for node in names:
        declaration = _declaration_around(node, parent_of)
        if declaration is not None:
            index.setdefault(text_of(node), []).append(declaration)
    return index


def _name_node(declarator: Node) -> Node | None:
    node: Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type == "identifier"), None
        )
    return node


def _declaration_around(node: Node, parent_of: Callable[[Node], Node | None]) -> Node | None:
    """The declaration whose declarator names `node` (`float *p`, `int a[4] = …`), else None."""
    if node.type not in ("identifier", "field_identifier"):
        return None
    child, parent = node, parent_of(node)
    if (
        parent is not None
        and parent.type == "function_declarator"
        and parent.child_by_field_name("declarator") == child
    ):
        declaration = parent_of(parent)  # the most vexing parse of a SYCL object's construction
        type_node = declaration.child_by_field_name("type") if declaration is not None else None
        return declaration if type_node is not None and _vexing(parent, type_node) is not None else None
    while parent is not None and parent.type in _DECLARATOR_STEPS:
        if parent.type == "init_declarator" and parent.child_by_field_name("declarator") != child:
            return None  # the initialiser, not the name
        if parent.type == "array_declarator" and parent.child_by_field_name("declarator") != child:
            return None  # an extent
        child, parent = parent, parent_of(parent)
    if parent is None or parent.type not in _DECLARATIONS:
        return None
    return parent if any(d == child for d in parent.children_by_field_name("declarator")) else None


def _declarators(node: Node) -> list[Node]:
    return list(node.children_by_field_name("declarator"))


def _declared_identifier(declarator: Node) -> str | None:
    node: Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type in ("function_declarator", "abstract_function_declarator"):
            return None
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type in ("identifier", "field_identifier")), None
        )
    return text_of(node) if node is not None else None


def _read_declarator(declarator: Node, value: _Value) -> tuple[str, int, tuple[int | None, ...], bool, bool] | None:
    """(name, pointer levels, array extents, reference, whether the array's elements are the pointers)
    of a declarator, extents outermost first."""
    pointers = 0
    extents: list[int | None] = []
    reference = False
    pointer_elements = False
    node: Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type == "pointer_declarator":
            pointers += 1
        elif node.type == "reference_declarator":
            reference = True
        elif node.type == "array_declarator":
            pointer_elements = pointer_elements or pointers > 0  # `*rows[4]`: the `*` outside the `[4]`
            size = node.child_by_field_name("size")
            extents.insert(0, value(text_of(size), size.start_byte) if size is not None else None)
        elif node.type not in ("init_declarator", "parenthesized_declarator"):
            return None  # a function declarator, or a shape not read here
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type in ("identifier", "field_identifier", "pointer_declarator")),
            None,
        )
    if node is None:
        return None
    # `float (*t)[33]`: the pointer is inside the parentheses, the extents outside apply to what it points at
    return text_of(node), pointers, tuple(extents), reference, pointer_elements


def _read_declaration(node: Node, name: str, value: _Value) -> Declared | None:
    type_node = node.child_by_field_name("type")
    if type_node is None:
        return None
    for declarator in _declarators(node):
        vexing = _vexing(declarator, type_node)
        if vexing is not None:  # `local_accessor<float, 2> t(range<2>(N, N), h);`, read as a function
            if text_of(vexing) != name:
                continue
            parameters = declarator.child_by_field_name("parameters")
            return Declared(name, _bare(text_of(type_node)), 0, (), False, node.start_byte, parameters)
        if _declared_identifier(declarator) != name:
            continue
        read = _read_declarator(declarator, value)
        if read is None:
            return None
        _name, pointers, extents, reference, pointer_elements = read
        initialiser = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
        return Declared(
            name,
            _bare(text_of(type_node)),
            pointers,
            extents,
            reference,
            node.start_byte,
            initialiser,
            node.type in ("parameter_declaration", "optional_parameter_declaration"),
            pointer_elements,
        )
    return None


_SYCL_OBJECTS = re.compile(r"\b(?:accessor|local_accessor|buffer)\b")


def _vexing_of(declaration: Node, declarator: Node) -> Node | None:
    type_node = declaration.child_by_field_name("type")
    return _vexing(declarator, type_node) if type_node is not None else None


def _vexing(declarator: Node, type_node: Node) -> Node | None:
    """The name of a SYCL object whose construction parses as a function declaration (the most vexing
    parse: `local_accessor<T, 2> t(range<2>(N, N), h)`), else None."""
    if declarator.type != "function_declarator" or not _SYCL_OBJECTS.search(text_of(type_node)):
        return None
    name = declarator.child_by_field_name("declarator")
    return name if name is not None and name.type == "identifier" else None


def _bare(type_text: str) -> str:
    """A type as written without qualifiers and spaces around `::`, `<`, `>` and `*`."""
    text = _QUALIFIERS.sub(" ", type_text)
    text = re.sub(r"\s*(::|<|>|,|\*)\s*", r"\1", text)
    return " ".join(text.split())


def _vector_size(text: str) -> int | None:
    """`sycl::float4` and `sycl::vec<float, 4>`: a 3-element vector is as large as a 4-element one."""
    match = _VECTOR.match(text) or _VEC_TEMPLATE.match(text)
    if match is None:
        return None
    base = _SHORT_NAMES.get(match.group("base").strip(), match.group("base").strip())
    element = type_size(base if base != "half" else "sycl::half")
    n = int(match.group("n"))
    if element is None or n not in (2, 3, 4, 8, 16):
        return None
    return element * (4 if n == 3 else n)
