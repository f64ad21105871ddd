"""What an identifier's constant value is in a C/C++ file: the symbol side of constant evaluation.

Known values come from, in order of precedence: configured `defines` (as `-D`), object-like `#define`s
of the file and of its quoted includes, `const`/`constexpr` variables, variables never written after
their initialiser, and template non-type parameters whose every instantiation in the file agrees.
Everything else is unknown. A variable is written when it is assigned (whole, one element or one
member), incremented, has its address taken or a reference bound to it, or is passed to a function
that may take it by non-const reference: then it is unknown everywhere, since kernlint does not order
reads and writes. A name bound differently in the arms of an `#if` whose condition is not known is
unknown too. The table is built lazily: files that never need a value never pay for it, and the
bindings of a name are read from the tree only when that name is first looked up (most names never are).
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from pathlib import Path

import tree_sitter

from kernlint.analysis.consteval import evaluate
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.common.preprocess import ConditionalArm, alternatives
from kernlint.frontends.cpp.constant_writes import WriteFinder
from kernlint.frontends.cpp.dialect import file_macros
from kernlint.frontends.cpp.scan import include_paths, parsed
from kernlint.records import record

_SCOPE_TYPES = frozenset(
    {
        "translation_unit",
        "compound_statement",
        "for_statement",
        "for_range_loop",
        "field_declaration_list",
        "declaration_list",
        "lambda_expression",
        "function_definition",
        "template_declaration",
    }
)
_OWNER_TYPES = frozenset({"function_definition", "lambda_expression", "template_declaration"})
_MAX_INCLUDE_DEPTH = 8
_MAX_EVAL_DEPTH = 32


@record(slots=True)
class Definition:
    """One binding of a name: a macro, a variable with its initialiser, or a (template) parameter."""

    name: str
    kind: str  # macro | var | param | tparam
    start_byte: int
    scope: tuple[int, int]
    is_const: bool
    type_text: str | None
    value_text: str | None
    template_index: int = -1
    template_entity: str | None = None
    default_text: str | None = None


def _scope_of(node: tree_sitter.Node, owner_only: bool = False) -> tuple[int, int]:
    kinds = _OWNER_TYPES if owner_only else _SCOPE_TYPES
    parent = node.parent
    while parent is not None and parent.type not in kinds:
        parent = parent.parent
    if parent is None:
        return (0, 1 << 62)
    if parent.type == "translation_unit":
        return (0, 1 << 62)
    return (parent.start_byte, parent.end_byte)


def _is_const(type_node: tree_sitter.Node, decl: tree_sitter.Node) -> bool:
    for child in decl.children:
        if child.type == "type_qualifier" and text_of(child) in ("const", "constexpr", "constinit"):
            return True
    return "const" in text_of(type_node).split()


def _template_entity(template: tree_sitter.Node) -> str | None:
    """The name a template declares (function or class), to find its instantiations."""
    for child in template.named_children:
        if child.type in ("struct_specifier", "class_specifier"):
            name = child.child_by_field_name("name")
            return text_of(name) if name is not None else None
        if child.type in ("function_definition", "declaration"):
            declarator = child.child_by_field_name("declarator")
            while declarator is not None and declarator.type not in (
                "identifier",
                "field_identifier",
                "qualified_identifier",
            ):
                declarator = declarator.child_by_field_name("declarator")
            if declarator is not None:
                return text_of(declarator).split("::")[-1]
    return None


class CppConstants:
    """Resolves identifiers to constant values at a given position of one file."""

    def __init__(
        self,
        root: tree_sitter.Node,
        path: str | None,
        include_dirs: tuple[str, ...] = (),
        defines: dict[str, str] | None = None,
        _visited: frozenset[str] = frozenset(),
        includes: list[str] | None = None,
        symbols: dict[str, list[tree_sitter.Node]] | None = None,
        arms: list[ConditionalArm] | None = None,
    ) -> None:
        self._root = root
        # The arms of `#if` groups whose condition is unknown: alternatives that are never compiled together.
        self._arms = [arm for arm in arms or () if arm.state is None]
        # What the caller's own queries already found: quoted include names, the symbol query's captures.
        self._includes = includes
        self._symbols = symbols
        self._path = path
        self._include_dirs = include_dirs
        self._defines = dict(defines or {})
        self._visited = _visited | ({os.path.abspath(path)} if path else set())
        self._defs: dict[str, list[Definition]] | None = None
        self._symbols_read: dict[str, list[tree_sitter.Node]] | None = None  # once `_ensure_includes` ran
        # Bindings found by the query but not yet read, by name: (kind, node, declarator or index).
        self._pending: dict[
            str, list[tuple[str, tree_sitter.Node, tree_sitter.Node | tuple[int, tree_sitter.Node] | None]]
        ] = {}
        self._assigned_nodes: list[tree_sitter.Node] = []
        self._function_nodes: list[tree_sitter.Node] = []
        self._writes: WriteFinder | None = None
        self._instantiation_nodes: list[tree_sitter.Node] = []
        self._instantiations: dict[str, list[tuple[int, list[str]]]] | None = None
        # A template parameter's value does not depend on where it is read: worked out once. `None` is
        # also stored while it is being worked out, so a parameter whose arguments name it again is unknown.
        self._template_values: dict[tuple[str, int, int], int | None] = {}
        self._names: dict[bytes, str] = {}
        self._macro_names: set[str] = set()  # see `macro_names`
        self._by_scope: dict[str, dict[tuple[int, int], list[Definition]]] = {}
        self._macros: dict[str, set[str]] = {}
        self._scopes_cache: tuple[int, list[tuple[int, int]]] | None = None
        self.dependencies: list[str] = []
        # Quoted headers read for this file, and (for a header) the kernels it may define by name:
        # its classes with an `operator()` and its function definitions.
        self._headers: list[tuple[str, CppConstants]] = []
        self._imported: dict[str, tuple[Definition, ...]] = {}  # what an includer binds from this header
        self._imported_names: set[str] = set()  # names whose bindings from the headers are read (`_definitions`)
        self.callables: frozenset[str] = frozenset()

    # -- public --------------------------------------------------------------------------------

    def value(self, text: str, at_byte: int) -> int | None:
        """The value of expression `text` as written at byte `at_byte`, or None."""
        return self._eval(text, at_byte, 0)

    def node_value(self, node: tree_sitter.Node) -> int | None:
        return self._eval(text_of(node), node.start_byte, 0)

    def definition(self, name: str, at_byte: int) -> Definition | None:
        """The binding of `name` visible at `at_byte` (variables and parameters), if any."""
        self._ensure()
        return self._visible(name.split("::")[-1], at_byte)

    def macro_body(self, name: str) -> str | None:
        """The body of the object-like macro `name` (configured, of the file or of a quoted include),
        when it has one body only."""
        self._ensure()
        bodies = {d.value_text for d in self._definitions(name) if d.kind == "macro"}
        return bodies.pop() if len(bodies) == 1 else None

    def header_defining(self, name: str, _seen: set[int] | None = None) -> str | None:
        """The quoted header (as its `#include` names it, or through the headers it includes) that
        defines a class with an `operator()` or a function called `name`; None when none does."""
        self._ensure()
        seen = _seen if _seen is not None else set()
        seen.add(id(self))
        for include, header in self._headers:
            if id(header) in seen:
                continue  # headers are shared between files: two may include each other
            if name in header.callables or header.header_defining(name, seen) is not None:
                return include
        return None

    def macro_names(self) -> frozenset[str]:
        """Every name #defined (object-like or function-like, or configured with -D) by the file and the
        quoted includes it reaches. Needs the includes only (`_ensure_includes`), not the table: every
        file's preprocessor facts ask, and most files never look a value up."""
        self._ensure_includes()
        return frozenset(self._macro_names)

    def included(self) -> list[str]:
        """The quoted headers the file reads and theirs, first seen first, read now: what its results depend on."""
        self._ensure_includes()
        return self.dependencies

    def header_roots(self, _seen: set[int] | None = None) -> list[tree_sitter.Node]:
        """The trees of the quoted includes (and theirs), in first-seen order."""
        self._ensure()
        seen = _seen if _seen is not None else set()
        seen.add(id(self))
        roots: list[tree_sitter.Node] = []
        for _include, header in self._headers:
            if id(header) in seen:
                continue  # headers are shared between files: two may include each other
            roots += [r for r in (header._root, *header.header_roots(seen)) if r not in roots]
        return roots

    def imported_named(self, name: str) -> tuple[Definition, ...]:
        """What a file including this header binds to `name` from it: its file-scope macros and
        variables of that name, at no position of the includer's. Worked out once per header and name
        (the files of a folder share the header), and only for the names an includer looks up."""
        found = self._imported.get(name)
        if found is None:
            self._ensure()
            found = self._imported[name] = tuple(
                Definition(d.name, d.kind, -1, (0, 1 << 62), d.is_const, d.type_text, d.value_text)
                for d in self._definitions(name)
                if d.scope == (0, 1 << 62) and d.kind in ("macro", "var")
            )
        return found

    # -- table ---------------------------------------------------------------------------------

    def _ensure_includes(self) -> None:
        """The first stage of `_ensure`, all `macro_names` needs: the quoted includes (`_headers`,
        `dependencies`, loaded depth first as before) and every macro name the file and they define."""
        if self._symbols_read is not None:
            return
        captures = self._symbols if self._symbols is not None else treesitter.captures("cpp", "cpp_symbols", self._root)
        self._symbols = None
        self._symbols_read = captures
        self._collect_includes()
        self._macro_names.update(self._defines)
        self._macro_names.update(self._name(node) for node in captures.get("macro.name", []))
        self._macro_names.update(self._name(node) for node in captures.get("macro.function", []))

    def _ensure(self) -> None:
        """Run the symbol query and index what it found by name; `_definitions` reads a name's bindings."""
        if self._defs is not None:
            return
        self._ensure_includes()
        captures, self._symbols_read = self._symbols_read, {}  # released once read, as before
        assert captures is not None  # read by `_ensure_includes`
        self._defs = {}
        for name, value in self._defines.items():
            self._add(Definition(name, "macro", -1, (0, 1 << 62), True, None, value))
        # Bindings of a name keep the order below (macros, valueless macros, variables, parameters,
        # template parameters), which is the order `_visible` breaks ties in.
        pending = self._pending
        for name_node in captures.get("macro.name", []):
            pending.setdefault(self._name(name_node), []).append(("macro", name_node, None))
        for node in captures.get("macro.empty", []):
            macro_name = node.child_by_field_name("name")
            if macro_name is not None:
                pending.setdefault(self._name(macro_name), []).append(("macro.empty", node, None))
        for decl in captures.get("var.decl", []):
            if decl.child_by_field_name("type") is None:
                continue
            for declarator in decl.children_by_field_name("declarator"):
                declared = (
                    declarator.child_by_field_name("declarator")
                    if declarator.type != "field_identifier"
                    else declarator
                )
                if declared is not None and declared.type in ("identifier", "field_identifier"):
                    pending.setdefault(self._name(declared), []).append(("var", decl, declarator))
        for node in captures.get("param.name", []):
            pending.setdefault(self._name(node), []).append(("param", node, None))
        for template in captures.get("tparam.template", []):
            params = template.child_by_field_name("parameters")
            if params is None:
                continue
            for index, param in enumerate(arguments_of(params)):
                if param.type not in ("parameter_declaration", "optional_parameter_declaration"):
                    continue
                param_name = param.child_by_field_name("declarator")
                if param_name is not None and param_name.type == "identifier":
                    pending.setdefault(self._name(param_name), []).append(("tparam", template, (index, param)))
        self._assigned_nodes = captures.get("assigned.name", [])
        self._function_nodes = captures.get("function.name", [])
        self._instantiation_nodes = captures.get("inst.name", [])

    def _name(self, node: tree_sitter.Node) -> str:
        """`text_of(node)` for an identifier, decoded once per distinct spelling."""
        raw = node.text
        if raw is None:
            return ""
        name = self._names.get(raw)
        if name is None:
            name = self._names[raw] = raw.decode("utf-8", errors="replace")
        return name

    def _definitions(self, name: str) -> list[Definition]:
        """Every binding of `name`: configured, then bound by the quoted includes (in the order they are
        included), then the file's own (read from the tree on first use)."""
        assert self._defs is not None
        if name not in self._imported_names:
            self._imported_names.add(name)
            for _include, header in self._headers:
                for definition in header.imported_named(name):
                    if not (definition.kind == "macro" and name in self._defines):
                        self._add(definition)
        for kind, node, extra in self._pending.pop(name, ()):
            if kind == "macro":
                value_node = node.parent.child_by_field_name("value") if node.parent is not None else None
                if value_node is not None:
                    self._add_macro(name, text_of(value_node).strip(), node.start_byte)
            elif kind == "macro.empty":
                self._add_macro(name, "", node.start_byte)
            elif kind == "var":
                assert isinstance(extra, tree_sitter.Node)  # a variable's entry carries its declarator
                self._add_variable(name, node, extra)
            elif kind == "param":
                if (
                    node.parent is not None
                    and node.parent.parent is not None
                    and node.parent.parent.type == "template_parameter_list"
                ):
                    continue  # template parameters are bound below, by their instantiations
                self._add(
                    Definition(name, "param", node.start_byte, _scope_of(node, owner_only=True), False, None, None)
                )
            else:
                assert isinstance(extra, tuple)  # a template parameter's entry carries (index, parameter)
                self._add_template_parameter(name, node, *extra)
        return self._defs.get(name, [])

    def _add(self, definition: Definition) -> None:
        assert self._defs is not None
        self._defs.setdefault(definition.name, []).append(definition)

    def _add_macro(self, name: str, value: str, start: int) -> None:
        if name in self._defines:
            return  # a configured -D wins over the file's own default
        self._add(Definition(name, "macro", start, (0, 1 << 62), True, None, value))

    def _add_variable(self, name: str, decl: tree_sitter.Node, declarator: tree_sitter.Node) -> None:
        type_node = decl.child_by_field_name("type")
        if declarator.type == "field_identifier":
            value_node = decl.child_by_field_name("default_value")
        elif declarator.type == "function_declarator":
            value_node = declarator.child_by_field_name("parameters")
        else:
            value_node = declarator.child_by_field_name("value")
        if value_node is None or type_node is None:
            return
        type_text = text_of(type_node)
        value_text = text_of(value_node)
        if value_node.type in ("argument_list", "parameter_list", "initializer_list"):
            value_text = f"{type_text}{value_text}"  # T x(args) / T x{args}: a construction of T
        self._add(
            Definition(name, "var", decl.start_byte, _scope_of(decl), _is_const(type_node, decl), type_text, value_text)
        )

    def _add_template_parameter(
        self, name: str, template: tree_sitter.Node, index: int, param: tree_sitter.Node
    ) -> None:
        default = param.child_by_field_name("default_value")
        self._add(
            Definition(
                name,
                "tparam",
                template.start_byte,
                (template.start_byte, template.end_byte),
                True,
                None,
                None,
                index,
                _template_entity(template),
                text_of(default) if default is not None else None,
            )
        )

    def _collect_includes(self) -> None:
        """Import macros and namespace-scope constants from quoted includes."""
        if self._path is None or len(self._visited) > _MAX_INCLUDE_DEPTH:
            return
        includes = self._includes
        if includes is None:
            includes = [text_of(n) for n in treesitter.captures("cpp", "cpp", self._root).get("include.path", [])]
        for name in includes:
            resolved = self._resolve_include(name)
            if resolved is None or resolved in self._visited:
                continue
            header = _load_header(resolved, self._include_dirs, self._visited)
            if header is None:
                continue
            self._headers.append((name, header))
            # once each, in first-seen order (a header's own includes may already be listed)
            self.dependencies.extend(d for d in (resolved, *header.included()) if d not in self.dependencies)
            self._macro_names |= header.macro_names()

    def _resolve_include(self, name: str) -> str | None:
        assert self._path is not None
        for base in (os.path.dirname(os.path.abspath(self._path)), *self._include_dirs):
            candidate = os.path.join(base, name)
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
        return None

    # -- resolution ----------------------------------------------------------------------------

    def _visible(self, name: str, at_byte: int) -> Definition | None:
        """The innermost binding before `at_byte`, or None when there is none, or when an `#if` arm whose
        choice is unknown binds it differently (two values, and no telling which is compiled). Only the
        bindings made in the scopes around `at_byte` are looked at, innermost first."""
        scoped = self._scoped(name)
        if not scoped:
            return None
        for scope in self._scopes_at(at_byte):
            candidates = [
                definition
                for definition in scoped.get(scope, ())
                if definition.start_byte <= at_byte
                # written in another arm than the use: never compiled together
                and not (self._arms and alternatives(self._arms, definition.start_byte, at_byte))
            ]
            if not candidates:
                continue
            best = candidates[0]
            for definition in candidates[1:]:
                if definition.start_byte > best.start_byte:
                    best = definition
            if self._arms and any(
                other.value_text != best.value_text and alternatives(self._arms, other.start_byte, best.start_byte)
                for other in candidates
            ):
                return None
            return best
        return None

    def _scoped(self, name: str) -> dict[tuple[int, int], list[Definition]]:
        """The bindings of `name` other than macros, by the scope they are visible in."""
        found = self._by_scope.get(name)
        if found is None:
            found = self._by_scope[name] = {}
            for definition in self._definitions(name):
                if definition.kind != "macro":
                    found.setdefault(definition.scope, []).append(definition)
        return found

    def _scopes_at(self, at_byte: int) -> list[tuple[int, int]]:
        """The scopes around `at_byte` (as `_scope_of` names them), innermost first, file scope last:
        read by one descent of the tree (lookups of one expression share it)."""
        if self._scopes_cache is not None and self._scopes_cache[0] == at_byte:
            return self._scopes_cache[1]
        chain = [(0, 1 << 62)]
        cursor = self._root.walk()
        while True:
            node = cursor.node
            if node is None or node.start_byte > at_byte:
                break
            if node.type in _SCOPE_TYPES and node.type != "translation_unit" and at_byte < node.end_byte:
                chain.append((node.start_byte, node.end_byte))
            if cursor.goto_first_child_for_byte(at_byte) is None:
                break
        chain.reverse()
        self._scopes_cache = (at_byte, chain)
        return chain

    def _macro_values(self, name: str) -> set[str]:
        """The bodies `name` is defined with as an object-like macro (configured, file, quoted includes)."""
        found = self._macros.get(name)
        if found is None:
            found = self._macros[name] = {
                d.value_text for d in self._definitions(name) if d.kind == "macro" and d.value_text is not None
            }
        return found

    def _eval(self, text: str, at_byte: int, depth: int) -> int | None:
        if depth > _MAX_EVAL_DEPTH:
            return None
        return evaluate(text, lambda name: self._resolve(name, at_byte, depth + 1))

    def _resolve(self, name: str, at_byte: int, depth: int) -> int | None:
        self._ensure()
        short = name.split("::")[-1]
        macros = self._macro_values(name)
        if macros:
            return self._eval(next(iter(macros)), at_byte, depth) if len(macros) == 1 else None
        definition = self._visible(short, at_byte)
        if definition is None and "::" in name:
            candidates = [d for d in self._definitions(short) if d.kind == "var" and d.is_const]
            definition = candidates[0] if len({d.value_text for d in candidates}) == 1 else None
        if definition is None:
            return None
        if definition.kind == "param":
            return None
        if definition.kind == "tparam":
            return self._template_argument(definition, depth)
        if self.written(definition):
            return None
        # Imported (header) definitions sit at byte -1: evaluate them at file scope.
        return self._eval(definition.value_text or "", max(definition.start_byte, 0), depth)

    def written(self, definition: Definition) -> bool:
        """Whether a variable may be written after its initialiser (see `constant_writes`)."""
        self._ensure()
        if self._writes is None:
            self._writes = WriteFinder(self._root, self._assigned_nodes, self._function_nodes, self._name)
        return self._writes.written(definition)

    def _instantiations_of(self, entity: str) -> list[tuple[int, list[str]]]:
        """(position, argument texts) of every `entity<…>` written in the file."""
        if self._instantiations is None:
            self._instantiations = {}
            for name_node in self._instantiation_nodes:
                args = name_node.parent.child_by_field_name("arguments") if name_node.parent is not None else None
                if args is None:
                    continue
                arguments = [text_of(a) for a in arguments_of(args)]
                self._instantiations.setdefault(self._name(name_node), []).append((args.start_byte, arguments))
        return self._instantiations.get(entity, [])

    def _template_argument(self, definition: Definition, depth: int) -> int | None:
        """A template parameter is known when every instantiation in the file passes the same value.
        Memoised per parameter: arguments that name other parameters would otherwise be evaluated
        again at every site, which grows exponentially with the nesting of templates."""
        if definition.template_entity is None:
            return None
        key = (definition.template_entity, definition.template_index, definition.start_byte)
        if key not in self._template_values:
            self._template_values[key] = None
            self._template_values[key] = self._template_argument_value(definition, depth)
        return self._template_values[key]

    def _template_argument_value(self, definition: Definition, depth: int) -> int | None:
        entity = definition.template_entity
        if entity is None:  # `_template_argument` only asks about parameters of a named template
            return None
        values: set[int | None] = set()
        for site, arguments in self._instantiations_of(entity):
            lo, hi = definition.scope
            if lo <= site < hi:
                continue  # a use inside the template itself
            if definition.template_index < len(arguments):
                values.add(self._eval(arguments[definition.template_index], site, depth))
            elif definition.default_text is not None:
                values.add(self._eval(definition.default_text, definition.start_byte, depth))
        if not values and definition.default_text is not None:
            values.add(self._eval(definition.default_text, definition.start_byte, depth))
        return values.pop() if len(values) == 1 else None


#: Parsed quoted headers, most recently used last. Files of one directory include the same few
#: headers, and the pool hands out files in path order, so a small bound keeps nearly every hit while
#: a worker's memory stays flat over a large tree (each entry holds a header's tree and definitions).
_HEADER_CACHE: OrderedDict[tuple[str, int, int], CppConstants] = OrderedDict()
_HEADER_CACHE_SIZE = 64


def _load_header(path: str, include_dirs: tuple[str, ...], visited: frozenset[str]) -> CppConstants | None:
    """Parse a quoted include once per process while it is in use (keyed by path, size and mtime)."""
    try:
        stat = Path(path).stat()
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key in _HEADER_CACHE:
            _HEADER_CACHE.move_to_end(key)
        else:
            data = Path(path).read_bytes()
            tree, found = parsed(file_macros(path, data, include_dirs).apply(data))  # as the file itself, if it is one
            root = tree.root_node
            includes, symbols = include_paths(found), treesitter.as_captures(found["cpp_symbols"])
            header = CppConstants(root, path, include_dirs, None, visited, includes=includes, symbols=symbols)
            header.callables = defined_callables(found)
            _HEADER_CACHE[key] = header
            if len(_HEADER_CACHE) > _HEADER_CACHE_SIZE:
                _HEADER_CACHE.popitem(last=False)
        return _HEADER_CACHE[key]
    except OSError:
        return None


def defined_callables(found: dict[str, list[treesitter.Match]]) -> frozenset[str]:
    """Names a file's matches define as callables: classes with an `operator()`, functions."""
    names = {text_of(match["functor.class"][0]) for _index, match in found["cpp"] if "functor.class" in match}
    for _index, match in found["cpp_device_index"]:
        if "function" not in match:
            continue
        declarator = match["function"][0].child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        name = declarator.child_by_field_name("declarator") if declarator is not None else None
        if name is not None and name.type in ("identifier", "qualified_identifier", "template_function"):
            names.add(re.split(r"::", re.sub(r"<.*", "", text_of(name)))[-1])
    return frozenset(names)
