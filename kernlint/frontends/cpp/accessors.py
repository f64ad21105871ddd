"""How kernels use their accessors: reads, writes, read-modify-writes, atomics and escapes.

For every device accessor created in a command group, the kernel launched in that group is searched for
references to it (one tree-sitter query, `queries/cpp_accessors.scm`, run on the kernel body only): by
name in a lambda body (lambdas capture accessors by name), through the members a functor was constructed
with, and through the parameters of helper functions defined in the file. Each reference is classified
from its syntactic context. Whatever the analysis cannot follow (an unknown function, a pointer or an
alias taken, a shadowing declaration, a use outside the kernel) is an escape, which rules treat as "may
read and write": unknown never turns into a finding.

Writes are also checked for overwriting the whole buffer: unconditional, at the work-item's own index
over a global range equal to the buffer's extent (or in a counting loop over that extent). Extents are
compared by value, or by identical text when every name in it is never reassigned.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

import tree_sitter

from kernlint.analysis.consteval import ARITHMETIC_SIZES
from kernlint.facts import Accessor, Buffer, Extent, KernelLaunch, Span
from kernlint.facts.accessor_uses import AccessorUse, AccessorUses, ModeSyntax
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.ranges import evaluate_range

if TYPE_CHECKING:
    from kernlint.frontends.cpp.frontend import CppFrontend

Node = tree_sitter.Node

_QUERY = "cpp_accessors"
_MAX_DEPTH = 4  # helper-function nesting followed
# Accessor members that do not touch the data.
_NEUTRAL_METHODS = frozenset({"size", "get_size", "byte_size", "get_count", "get_range", "get_offset",
                              "max_size", "empty", "is_placeholder"})
# Methods on an element that make it an atomic access (SYCL 1.2.1 atomic accessors, atomic_ref).
_ATOMIC_METHODS = frozenset({"fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "fetch_min",
                             "fetch_max", "exchange", "compare_exchange_strong", "compare_exchange_weak",
                             "store", "load"})
# Functions that take an element by value (math and common algorithms): passing `a[i]` reads it.
_VALUE_FUNCTIONS = frozenset({
    "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow", "pown",
    "powr", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "fabs", "abs", "fmin",
    "fmax", "min", "max", "clamp", "floor", "ceil", "round", "trunc", "fma", "mad", "hypot", "erf", "erfc",
    "isnan", "isinf", "isfinite", "sign", "step", "smoothstep", "mix", "dot", "cross", "length", "distance",
    "normalize", "native_sqrt", "native_exp", "native_log", "native_sin", "native_cos", "native_recip",
    "half_sqrt", "select", "popcount", "clz", "ctz", "mul24", "mad24", "rotate", "floor_div", "static_cast",
    "float", "double", "int", "size_t", "printf",
})
_MODE_WORD = re.compile(r"\b(read|write|read_write|discard_write|discard_read_write|atomic|read_only|write_only)\b")
_CONTAINER_MUTATORS = r"resize|push_back|emplace_back|pop_back|clear|erase|insert|assign|swap|reserve"


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


def _span(node: Node) -> Span:
    return Span(node.start_byte, node.end_byte, node.start_point[0] + 1, node.start_point[1],
                node.end_point[0] + 1, node.end_point[1])


def _arguments(node: Node | None) -> list[Node]:
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def _last_name(text: str) -> str:
    text = re.sub(r"<.*", "", text)
    return re.split(r"::|\.|->", text.strip())[-1].strip()


def _unwrap(node: Node) -> Node:
    """The expression inside parentheses and value-preserving casts."""
    while True:
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        elif node.type == "cast_expression" and node.child_by_field_name("value") is not None:
            node = node.child_by_field_name("value")
        elif node.type == "call_expression" and _last_name(_text(node.child_by_field_name("function"))) in (
                "static_cast", "size_t", "int", "long", "unsigned") \
                and len(_arguments(node.child_by_field_name("arguments"))) == 1:
            node = _arguments(node.child_by_field_name("arguments"))[0]
        else:
            return node


def _node_at(root: Node, span: Span, types: Iterable[str] = ()) -> Node | None:
    """The node with exactly `span`'s byte range (of one of `types`, when given)."""
    node = root.descendant_for_byte_range(span.start_byte, span.end_byte)
    wanted = frozenset(types)
    while node is not None and (node.start_byte != span.start_byte or node.end_byte != span.end_byte
                                or (wanted and node.type not in wanted)):
        if node.start_byte < span.start_byte or node.end_byte > span.end_byte:
            return None
        node = node.parent
    return node


def _inside(node: Node, ancestor: Node) -> bool:
    return ancestor.start_byte <= node.start_byte and node.end_byte <= ancestor.end_byte


def _captures(node: Node) -> dict[str, list[Node]]:
    found = treesitter.captures("cpp", _QUERY, node)
    return {name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in found.items()}


def _captures_in_block(captures: dict[str, list[Node]], block: Node) -> dict[str, list[Node]]:
    """What `_captures(block)` returns, for a block inside a subtree whose `captures` are known: the
    nodes strictly between its braces (a block's descendants start after its `{`)."""
    lo, hi = block.start_byte, block.end_byte
    found = {}
    for name, nodes in captures.items():
        inside = [n for n in nodes[bisect_right(nodes, lo, key=_start):] if n.start_byte < hi and n.end_byte <= hi]
        if inside:
            found[name] = inside
    return found


def _start(node: Node) -> int:
    return node.start_byte


# -- the work-item's own index ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Index:
    """What one subscript is, as far as coverage goes."""

    kind: str  # whole | dim | linear | counter | const | other
    dim: int = 0
    bound: Node | None = None  # counter: the loop bound expression
    loop: int | None = None  # counter: the loop node's id
    value: int | None = None  # const


_OTHER = _Index("other")


@dataclass
class _Scope:
    """One body being searched for one accessor, with what its names mean there."""

    root: Node
    names: frozenset[str]
    members: bool = False  # `this->name` refers to it too (functor members)
    item: str | None = None  # the kernel's index parameter
    nd: bool = False  # the index parameter is an nd_item
    own: dict[str, _Index] = field(default_factory=dict)
    conditional: bool = False  # this body only runs under a condition (a helper called conditionally)
    depth: int = 0
    captures: dict[str, list[Node]] = field(default_factory=dict)


@dataclass
class _Found:
    """Uses collected for one accessor across its kernel and helpers."""

    uses: list[AccessorUse] = field(default_factory=list)
    writes: list[tuple[Node, list[_Index], list[Node], bool]] = field(default_factory=list)  # node, index, guards, ok
    typed_sites: list[Span] = field(default_factory=list)
    consumed: set[int] = field(default_factory=set)  # reads folded into a read-modify-write

    def add(self, kind: str, node: Node, detail: str = "") -> None:
        self.uses.append(AccessorUse(kind, _span(node), detail))


class _Analysis:
    """Accessor-usage analysis of one file."""

    def __init__(self, frontend: "CppFrontend", launches: tuple[KernelLaunch, ...]) -> None:
        self.fe = frontend
        self.root = frontend.root
        self.launches = launches
        self._functions: dict[str, list[Node]] | None = None
        self._assigned_in: dict[int, tuple[set[str], str]] = {}
        self._helper_stack: set[tuple[int, int]] = set()
        self._captured: dict[int, dict[str, list[Node]]] = {}
        self._regions: list[tuple[Node, dict[str, list[Node]]]] = []  # what `_captured` holds, by node
        self._launch_texts_at: dict[int, tuple[str, ...] | None] = {}
        self._buffer_at: dict[int, tuple[Buffer | None, tuple[str, ...] | None, int | None]] = {}

    def _caps(self, node: Node) -> dict[str, list[Node]]:
        """The query's captures in `node`. Each subtree is queried once, and a block inside a subtree
        already queried (a kernel body in its command group, a loop body in a kernel) is read from
        that subtree's captures instead of walking it again."""
        found = self._captured.get(node.id)
        if found is None:
            outer = min((region for region in self._regions if region[0].start_byte <= node.start_byte
                         and node.end_byte <= region[0].end_byte),
                        key=lambda region: region[0].end_byte - region[0].start_byte, default=None) \
                if node.type == "compound_statement" else None
            found = _captures(node) if outer is None else _captures_in_block(outer[1], node)
            self._captured[node.id] = found
            self._regions.append((node, found))
        return found

    # -- driver ------------------------------------------------------------------------------

    def accessor(self, accessor: Accessor) -> Accessor:
        if accessor.target != "device" or accessor.form not in ("constructor", "get_access") \
                or accessor.command_group is None:
            return accessor
        launches = [l for l in self.launches if l.command_group == accessor.command_group]
        if not launches or any(l.body is None for l in launches):
            return accessor
        group = _node_at(self.root, accessor.command_group, ("lambda_expression", "function_definition"))
        node = _node_at(self.root, accessor.span)
        if group is None or node is None or node.has_error:
            return accessor  # a creation the parser could not read has no mode to judge
        found = _Found()
        bound_args: list[Node] = []
        if accessor.name:
            self._caps(group)  # needed for the uses outside the kernels; queried first, the kernels' blocks reuse it
        for launch in launches:
            if launch.body_kind == "lambda" and accessor.name:
                self._lambda_kernel(launch, accessor.name, found)
            elif launch.body_kind == "functor":
                bound_args += self._functor_kernel(launch, accessor, node, group, found)
        if accessor.name:
            self._outside_kernels(accessor.name, node, group, launches, bound_args, found)
        return replace(accessor, uses=self._summarise(accessor, node, launches[0], found))

    # -- binding the accessor to the code that uses it ---------------------------------------

    def _lambda_kernel(self, launch: KernelLaunch, name: str, found: _Found) -> None:
        body = _node_at(self.root, launch.body, ("compound_statement",)) if launch.body else None
        if body is None:
            found.add("escape", self.root, "kernel body not found")
            return
        self._scan(self._kernel_scope(body, launch, frozenset({name}), members=False), found)

    def _kernel_scope(self, body: Node, launch: KernelLaunch, names: frozenset[str], members: bool) -> _Scope:
        nd = launch.index_type == "nd_item" or (launch.range_kind == "nd_range" and launch.index_type == "auto")
        scope = _Scope(body, names, members, launch.index_param, nd, captures=self._caps(body))
        if launch.index_param and not nd and launch.index_type in ("id", "item", "auto", "integral") \
                and launch.api == "parallel_for":
            scope.own[launch.index_param] = _Index("whole")
        self._derive_locals(scope)
        return scope

    def _functor_kernel(self, launch: KernelLaunch, accessor: Accessor, node: Node, group: Node,
                        found: _Found) -> list[Node]:
        """Uses through the functor member the accessor initialises; returns the bound arguments."""
        body = _node_at(self.root, launch.body, ("compound_statement",)) if launch.body else None
        operator = body.parent if body is not None else None
        members_list = operator.parent if operator is not None else None
        if members_list is None or members_list.type != "field_declaration_list":
            return []
        class_name = _text(members_list.parent.child_by_field_name("name")) if members_list.parent else ""
        args = self._functor_arguments(launch, class_name, group)
        if args is None:
            found.add("escape", node, f"functor `{class_name}` is constructed where the analysis cannot see")
            return []
        position = next((i for i, a in enumerate(args)
                         if (accessor.name and _text(a).strip() == accessor.name)
                         or (a.start_byte == node.start_byte and a.end_byte == node.end_byte)), None)
        if position is None:
            return []
        member = self._member_for_argument(members_list, class_name, position, len(args))
        if member is None:
            found.add("escape", args[position], f"passed to a constructor of `{class_name}` the analysis cannot follow")
            return [args[position]]
        field_type = self._member_type(members_list, member)
        if field_type is not None and _MODE_WORD.search(_text(field_type)) and "accessor" in _text(field_type):
            found.typed_sites.append(_span(field_type))
        for method in members_list.named_children:
            if method.type != "function_definition" or self._is_constructor(method, class_name):
                continue
            method_body = method.child_by_field_name("body")
            if method_body is None:
                continue
            if method == operator:
                scope = self._kernel_scope(method_body, launch, frozenset({member}), members=True)
            else:
                scope = _Scope(method_body, frozenset({member}), True, captures=self._caps(method_body))
                scope.conditional = True  # a helper method: whether and how often it runs is unknown
            self._scan(scope, found)
        return [args[position]]

    def _functor_arguments(self, launch: KernelLaunch, class_name: str, group: Node) -> list[Node] | None:
        """The constructor arguments of the functor object the launch runs."""
        call = _node_at(self.root, launch.span, ("call_expression",))
        launch_args = _arguments(call.child_by_field_name("arguments")) if call is not None else []
        if not launch_args:
            return None
        kernel = launch_args[-1]
        if kernel.type in ("compound_literal_expression", "call_expression"):
            return self._construction_arguments(kernel, class_name)
        if kernel.type != "identifier":
            return None
        name = _text(kernel)
        for decl in self._declarations_named(group, name):
            if decl.start_byte > kernel.start_byte:
                continue
            declarator = decl.child_by_field_name("declarator")
            if declarator is None:
                continue
            if declarator.type == "function_declarator":  # `Kernel k(acc);`, the most vexing parse
                return _arguments(declarator.child_by_field_name("parameters"))
            value = declarator.child_by_field_name("value")
            if value is None:
                return None
            if value.type in ("initializer_list", "argument_list"):
                return _arguments(value)
            return self._construction_arguments(value, class_name)
        return None

    def _construction_arguments(self, node: Node, class_name: str) -> list[Node] | None:
        if node.type == "compound_literal_expression":
            type_name = _last_name(_text(node.child_by_field_name("type")))
            args = node.child_by_field_name("value")
        elif node.type == "call_expression":
            type_name = _last_name(_text(node.child_by_field_name("function")))
            args = node.child_by_field_name("arguments")
        else:
            return None
        return _arguments(args) if type_name == class_name else None

    def _declarations_named(self, group: Node, name: str) -> list[Node]:
        found = []
        for ref in self._caps(group).get("ref", []):
            if _text(ref) != name:
                continue
            parent = ref.parent
            if parent is not None and parent.type in ("init_declarator", "function_declarator"):
                parent = parent.parent
            if parent is not None and parent.type == "declaration":
                found.append(parent)
        return found

    @staticmethod
    def _is_constructor(method: Node, class_name: str) -> bool:
        """A constructor (or destructor): it runs on the host, not in the kernel."""
        declarator = method.child_by_field_name("declarator")
        inner = declarator.child_by_field_name("declarator") if declarator is not None else None
        return inner is not None and _text(inner).lstrip("~") == class_name

    def _member_for_argument(self, members_list: Node, class_name: str, position: int, count: int) -> str | None:
        constructors = [m for m in members_list.named_children
                        if m.type == "function_definition" and self._is_constructor(m, class_name)]
        if not constructors:  # an aggregate: arguments initialise the fields in order
            fields = self._fields(members_list)
            return fields[position][0] if position < len(fields) else None
        matching = []
        for ctor in constructors:
            params = self._parameters(ctor)
            if len(params) == count:
                matching.append((ctor, params))
        if len(matching) != 1:
            return None
        ctor, params = matching[0]
        param_name = self._parameter_name(params[position])
        initializers = next((c for c in ctor.named_children if c.type == "field_initializer_list"), None)
        for initializer in _arguments(initializers):
            values = [c for c in initializer.named_children if c.type in ("argument_list", "initializer_list")]
            member = next((c for c in initializer.named_children if c.type == "field_identifier"), None)
            if member is not None and values and [_text(a) for a in _arguments(values[0])] == [param_name]:
                return _text(member)
        return None

    @staticmethod
    def _fields(members_list: Node) -> list[tuple[str, Node]]:
        fields = []
        for decl in members_list.named_children:
            if decl.type != "field_declaration" or any(_text(c) == "static" for c in decl.children):
                continue
            type_node = decl.child_by_field_name("type")
            for declarator in decl.children_by_field_name("declarator"):
                if declarator.type == "field_identifier" and type_node is not None:
                    fields.append((_text(declarator), type_node))
        return fields

    def _member_type(self, members_list: Node, member: str) -> Node | None:
        return next((t for n, t in self._fields(members_list) if n == member), None)

    @staticmethod
    def _parameter_name(param: Node) -> str | None:
        declarator = param.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "identifier":
            declarator = declarator.child_by_field_name("declarator") or next(
                (c for c in declarator.named_children if c.type == "identifier"), None)
        return _text(declarator) if declarator is not None else None

    def _outside_kernels(self, name: str, node: Node, group: Node, launches: list[KernelLaunch],
                         bound_args: list[Node], found: _Found) -> None:
        """References to the accessor in its command group but outside the kernels: only size queries
        and the functor construction are understood; anything else escapes."""
        bodies = [l.body for l in launches if l.body is not None]
        caps = self._caps(group)
        wanted = name.encode()
        for ref in caps.get("ref", []) + caps.get("type_ref", []):
            if ref.text != wanted or ref.start_byte < node.end_byte:
                continue
            if any(b.start_byte <= ref.start_byte < b.end_byte for b in bodies):
                continue
            if any(_inside(ref, arg) for arg in bound_args):
                continue
            parent = ref.parent
            if parent is not None and parent.type == "field_expression" and parent.parent is not None \
                    and parent.parent.type == "call_expression" \
                    and _text(parent.child_by_field_name("field")) in _NEUTRAL_METHODS:
                continue
            if parent is not None and parent.type == "lambda_capture_specifier":
                continue
            found.add("escape", ref, "used in the command group outside the kernel")

    # -- scanning a body ---------------------------------------------------------------------

    def _scan(self, scope: _Scope, found: _Found) -> None:
        caps = scope.captures
        names = {n.encode() for n in scope.names}
        for ref in caps.get("ref", []):
            if ref.text in names:
                self._reference(ref, scope, found)
        for ref in caps.get("member_ref", []):
            if scope.members and ref.text in names and ref.parent is not None:
                self._classify_value(ref.parent, scope, found)
        for ref in caps.get("type_ref", []):
            if ref.text in names:
                decl = self._enclosing(ref, ("declaration", "parameter_declaration"))
                outer = self._enclosing(decl, ("declaration",)) if decl is not None else None
                if outer is not None and "atomic" in _text(outer.child_by_field_name("type")):
                    found.add("atomic", ref)
                else:
                    found.add("escape", ref, "used where the parser saw a type")

    def _reference(self, ref: Node, scope: _Scope, found: _Found) -> None:
        parent = ref.parent
        if parent is None:
            return
        ptype = parent.type
        if ptype == "lambda_capture_specifier":
            return  # `[acc]`: a capture, not a use
        if ptype == "lambda_capture_initializer":
            found.add("escape", ref, "captured under another name")
            return
        if ptype in ("init_declarator", "function_declarator", "reference_declarator", "pointer_declarator",
                     "parameter_declaration", "for_range_loop", "structured_binding_declarator") \
                and parent.child_by_field_name("declarator") == ref or ptype == "declaration":
            found.add("escape", ref, "a declaration shadows the accessor's name")
            return
        if ptype in ("sizeof_expression", "decltype", "alignof_expression"):
            return
        self._classify_value(ref, scope, found)

    def _classify_value(self, node: Node, scope: _Scope, found: _Found) -> None:
        """`node` denotes the accessor itself (a name or `this->member`)."""
        parent = node.parent
        if parent is None:
            return
        if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == node:
            element, indices = parent, [parent.child_by_field_name("indices")]
            while element.parent is not None and element.parent.type == "subscript_expression" \
                    and element.parent.child_by_field_name("argument") == element:
                element = element.parent
                indices.append(element.child_by_field_name("indices"))
            self._classify_element(element, [self._subscript_index(i, scope) for i in indices], scope, found)
            return
        if parent.type == "field_expression" and parent.child_by_field_name("argument") == node:
            method = _text(parent.child_by_field_name("field"))
            call = parent.parent
            if call is not None and call.type == "call_expression" and method in _NEUTRAL_METHODS:
                return
            found.add("escape", node, f"`.{method}` gives access the analysis does not follow")
            return
        if parent.type == "argument_list" and parent.parent is not None and parent.parent.type == "call_expression":
            self._passed_to_function(node, parent.parent, scope, found)
            return
        found.add("escape", node, "copied or used as a whole")

    def _subscript_index(self, indices: Node | None, scope: _Scope) -> _Index:
        args = _arguments(indices)
        return self._index_of(args[0], scope) if len(args) == 1 else _OTHER

    def _classify_element(self, element: Node, index: list[_Index], scope: _Scope, found: _Found) -> None:
        if element.id in found.consumed:
            return  # the read half of `a[i] = a[i] + …`, already counted as a read-modify-write
        statement = element
        while statement.parent is not None and statement != scope.root and not (
                statement.type.endswith("_statement") or statement.type == "declaration"):
            statement = statement.parent
        if statement.has_error:
            found.add("escape", element, "in a statement the parser could not read")
            return
        value = element
        while value.parent is not None and (
                value.parent.type == "parenthesized_expression"
                or (value.parent.type == "conditional_expression"
                    and value.parent.child_by_field_name("condition") != value)
                or (value.parent.type == "comma_expression" and value.parent.child_by_field_name("right") == value)):
            value = value.parent
        parent = value.parent
        if parent is None:
            return
        ptype = parent.type
        if ptype == "assignment_expression" and parent.child_by_field_name("left") == value:
            operator = _text(parent.child_by_field_name("operator")) or _text(parent.children[1])
            if operator != "=":
                found.add("read_modify_write", element, f"`{operator}`")
            elif self._reads_same_element(parent.child_by_field_name("right"), element, found):
                found.add("read_modify_write", element, "assigned from its own value")
            else:
                found.add("write", element)
                ok, guards = (self._unconditional(parent, scope, index) if value == element else (False, []))
                found.writes.append((element, index, guards, ok))
            return
        if ptype == "update_expression":
            found.add("read_modify_write", element, "`++`/`--`")
            return
        if ptype == "field_expression" and parent.child_by_field_name("argument") == value:
            call = parent.parent
            method = _text(parent.child_by_field_name("field"))
            if call is not None and call.type == "call_expression" and call.child_by_field_name("function") == parent:
                if method in _ATOMIC_METHODS:
                    found.add("atomic", element, f"`.{method}()`")
                else:
                    found.add("escape", element, f"element method `.{method}()`")
            elif self._is_lvalue(parent):
                found.add("read_modify_write", element, "a member of the element is written")
            else:
                found.add("read", element)
            return
        if ptype == "pointer_expression" and _text(parent.children[0]) == "&":
            found.add("escape", element, "address taken")
            return
        if ptype == "argument_list" and parent.parent is not None and parent.parent.type == "call_expression":
            self._element_to_function(element, value, parent.parent, found)
            return
        if ptype == "lambda_capture_initializer":
            found.add("escape", element, "captured by a nested lambda")
            return
        if ptype in ("init_declarator", "initializer_list", "argument_list"):
            decl = self._enclosing(parent, ("declaration",))
            if decl is not None and "atomic" in _text(decl.child_by_field_name("type")):
                found.add("atomic", element, "atomic_ref")
                return
            init = parent if ptype == "init_declarator" else parent.parent
            declarator = init.child_by_field_name("declarator") \
                if init is not None and init.type == "init_declarator" else None
            if declarator is not None and declarator.type == "reference_declarator" \
                    and not self._is_const_declaration(decl):
                found.add("escape", element, "bound to a non-const reference")
                return
        found.add("read", element)

    @staticmethod
    def _is_lvalue(node: Node) -> bool:
        parent = node.parent
        return parent is not None and ((parent.type == "assignment_expression"
                                        and parent.child_by_field_name("left") == node)
                                       or parent.type == "update_expression")

    @staticmethod
    def _is_const_declaration(decl: Node | None) -> bool:
        return decl is not None and any(c.type == "type_qualifier" and _text(c) in ("const", "constexpr")
                                        for c in decl.children)

    @staticmethod
    def _enclosing(node: Node | None, types: tuple[str, ...]) -> Node | None:
        while node is not None and node.type not in types:
            if node.type in ("compound_statement", "lambda_expression", "expression_statement"):
                return None
            node = node.parent
        return node

    def _reads_same_element(self, right: Node | None, element: Node, found: _Found) -> bool:
        """`a[i] = a[i] + …`: the right side reads the element being written."""
        if right is None:
            return False
        target = re.sub(r"\s+", "", _text(element))
        same = False
        stack = [right]
        while stack:
            node = stack.pop()
            if node.type == "subscript_expression" and re.sub(r"\s+", "", _text(node)) == target:
                found.consumed.add(node.id)
                same = True
                continue
            stack.extend(node.named_children)
        return same

    def _element_to_function(self, element: Node, argument: Node, call: Node, found: _Found) -> None:
        """`f(a[i])`: a read when `f` takes its argument by value or const reference."""
        callee = _text(call.child_by_field_name("function"))
        name = _last_name(callee)
        if "atomic" in callee:
            found.add("atomic", element, f"`{name}`")
        elif name in self.functions():
            args = _arguments(call.child_by_field_name("arguments"))
            position = args.index(argument) if argument in args else -1
            by_reference = any(self._parameter_is_mutable_reference(fn, position) for fn in self.functions()[name])
            found.add("escape" if by_reference else "read", element,
                      f"passed by reference to `{name}`" if by_reference else "")
        elif name in _VALUE_FUNCTIONS or re.match(r"^(sycl|std|cl::sycl)::", callee) and name not in (
                "swap", "exchange", "iter_swap", "memcpy", "memset", "memmove", "copy", "fill", "move"):
            found.add("read", element)
        else:
            found.add("escape", element, f"passed to `{name}`, which may take it by reference")

    def _parameter_is_mutable_reference(self, function: Node, position: int) -> bool:
        params = self._parameters(function)
        if not 0 <= position < len(params):
            return True
        param = params[position]
        text = _text(param)
        return ("&" in text or "*" in text) and not re.search(r"\bconst\b", text)

    # -- helpers defined in the file ---------------------------------------------------------

    def functions(self) -> dict[str, list[Node]]:
        """Function definitions at namespace scope (also in namespaces and templates), by name."""
        if self._functions is None:
            self._functions = {}
            stack = list(self.root.named_children)
            while stack:
                node = stack.pop()
                if node.type == "function_definition":
                    declarator = node.child_by_field_name("declarator")
                    while declarator is not None and declarator.type not in ("function_declarator",):
                        declarator = declarator.child_by_field_name("declarator")
                    name = declarator.child_by_field_name("declarator") if declarator is not None else None
                    if name is not None:
                        self._functions.setdefault(_last_name(_text(name)), []).append(node)
                elif node.type in ("namespace_definition", "declaration_list", "template_declaration",
                                   "linkage_specification", "preproc_if", "preproc_ifdef", "preproc_else",
                                   "preproc_elif"):
                    stack.extend(node.named_children)
        return self._functions

    @staticmethod
    def _parameters(function: Node) -> list[Node]:
        declarator = function.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        return _arguments(declarator.child_by_field_name("parameters")) if declarator is not None else []

    def _passed_to_function(self, node: Node, call: Node, scope: _Scope, found: _Found) -> None:
        function = call.child_by_field_name("function")
        name = _last_name(_text(function))
        args = _arguments(call.child_by_field_name("arguments"))
        position = next((i for i, a in enumerate(args) if a == node), -1)
        if function is None or function.type == "field_expression" or position < 0:
            found.add("escape", node, f"passed to `{name}`")
            return
        candidates = [f for f in self.functions().get(name, ()) if len(self._parameters(f)) >= len(args)]
        if not candidates or scope.depth >= _MAX_DEPTH:
            found.add("escape", node, f"passed to `{name}`, not defined in this file")
            return
        call_ok, _guards = self._unconditional(call, scope, [])
        for function_node in candidates:
            key = (function_node.id, position)
            params = self._parameters(function_node)
            param_name = self._parameter_name(params[position])
            body = function_node.child_by_field_name("body")
            if key in self._helper_stack or param_name is None or body is None:
                found.add("escape", node, f"passed to `{name}`")
                continue
            param_type = params[position].child_by_field_name("type")
            if "accessor" in _text(param_type) and _MODE_WORD.search(_text(param_type)):
                found.typed_sites.append(_span(param_type))
            helper = _Scope(body, frozenset({param_name}), depth=scope.depth + 1, captures=self._caps(body),
                            conditional=not call_ok or scope.conditional)
            for i, arg in enumerate(args):
                index = self._index_of(arg, scope)
                arg_name = self._parameter_name(params[i]) if i < len(params) else None
                if arg_name and scope.item is not None and _text(_unwrap(arg)) == scope.item:
                    helper.item, helper.nd = arg_name, scope.nd  # the kernel's item, passed on
                if index.kind in ("whole", "dim", "linear") and arg_name:
                    helper.own[arg_name] = index
            self._derive_locals(helper)
            self._helper_stack.add(key)
            try:
                self._scan(helper, found)
            finally:
                self._helper_stack.discard(key)

    # -- own index and conditions ------------------------------------------------------------

    def _derive_locals(self, scope: _Scope) -> None:
        """Locals initialised from the own index and never reassigned (`size_t i = it.get_global_id(0);`)."""
        assigned = {_text(n) for n in scope.captures.get("assigned", [])}
        for value in scope.captures.get("local.value", []):
            name_node = value.parent.child_by_field_name("declarator") if value.parent is not None else None
            name = _text(name_node)
            if name in assigned or name in scope.names:
                continue
            index = self._index_of(value, scope)
            if index.kind in ("whole", "dim", "linear"):
                scope.own[name] = index

    def _index_of(self, node: Node, scope: _Scope) -> _Index:
        node = _unwrap(node)
        text = _text(node)
        if node.type == "identifier":
            if text in scope.own:
                return scope.own[text]
            counter = self._counter(node, scope)
            return counter or _OTHER
        if node.type == "number_literal":
            value = self.fe.constants.value(text, node.start_byte)
            return _Index("const", value=value) if value is not None else _OTHER
        if scope.item is None:
            return _OTHER
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if function is None or function.type != "field_expression" \
                    or _text(function.child_by_field_name("argument")) != scope.item:
                return _OTHER
            method = _text(function.child_by_field_name("field"))
            args = _arguments(node.child_by_field_name("arguments"))
            whole, linear = ("get_global_id", "get_global_linear_id") if scope.nd else ("get_id", "get_linear_id")
            if method == linear and not args:
                return _Index("linear")
            if method == whole:
                if not args:
                    return _Index("whole")
                dim = self.fe.constants.value(_text(args[0]), args[0].start_byte) if len(args) == 1 else None
                return _Index("dim", dim) if dim is not None else _OTHER
            return _OTHER
        if node.type == "subscript_expression" and not scope.nd \
                and _text(node.child_by_field_name("argument")) == scope.item:
            args = _arguments(node.child_by_field_name("indices"))
            dim = self.fe.constants.value(_text(args[0]), args[0].start_byte) if len(args) == 1 else None
            return _Index("dim", dim) if dim is not None else _OTHER
        return _OTHER

    def _counter(self, ident: Node, scope: _Scope) -> _Index | None:
        """`k` in `for (T k = 0; k < N; ++k) … a[k] …`, with `k` never assigned in the body."""
        name = _text(ident)
        node = ident.parent
        while node is not None and node != scope.root:
            if node.type == "for_statement":
                init = node.child_by_field_name("initializer")
                declarator = init.child_by_field_name("declarator") \
                    if init is not None and init.type == "declaration" else None
                condition = node.child_by_field_name("condition")
                update = node.child_by_field_name("update")
                body = node.child_by_field_name("body")
                if declarator is not None and declarator.type == "init_declarator" \
                        and _text(declarator.child_by_field_name("declarator")) == name:
                    start = declarator.child_by_field_name("value")
                    if start is None or self.fe.constants.value(_text(start), start.start_byte) != 0:
                        return None
                    if condition is None or condition.type != "binary_expression" \
                            or _text(condition.child_by_field_name("operator")) not in ("<",) \
                            or _text(condition.child_by_field_name("left")) != name:
                        return None
                    if update is None or _normal(_text(update)) not in (f"++{name}", f"{name}++", f"{name}+=1"):
                        return None
                    if body is not None and any(_text(n) == name for n in self._caps(body).get("assigned", [])):
                        return None
                    return _Index("counter", bound=condition.child_by_field_name("right"), loop=node.id)
            node = node.parent
        return None

    def _unconditional(self, node: Node, scope: _Scope, index: list[_Index]) -> tuple[bool, list[Node]]:
        """Whether `node` runs once for every work-item that reaches the body, and the bounds checks
        (`if (i < n)`) it runs under, which coverage must then prove true for the whole buffer."""
        if scope.conditional:
            return False, []
        loops = {i.loop for i in index if i.kind == "counter"}
        guards: list[Node] = []
        enclosing_loops: list[Node] = []
        current = node
        while current != scope.root:
            parent = current.parent
            if parent is None:
                return False, []
            kind = parent.type
            if kind == "if_statement":
                guard = self._guard(parent, current, scope, index)
                if guard is None:
                    return False, []
                guards.append(guard)
            elif kind == "for_statement":
                if parent.child_by_field_name("body") != current or (
                        parent.id not in loops and not self._runs_at_least_once(parent)):
                    return False, []
                enclosing_loops.append(parent)
            elif kind == "do_statement":
                enclosing_loops.append(parent)
            elif kind in ("while_statement", "for_range_loop", "switch_statement", "case_statement",
                          "lambda_expression", "conditional_expression", "preproc_if", "preproc_ifdef",
                          "preproc_else", "preproc_elif", "try_statement", "catch_clause", "ERROR"):
                return False, []
            elif kind == "binary_expression" and _text(parent.child_by_field_name("operator")) in ("&&", "||") \
                    and parent.child_by_field_name("right") == current:
                return False, []
            current = parent
        for jump in scope.captures.get("jump", []):
            if self._in_nested_lambda(jump, scope.root):
                continue
            if jump.type in ("return_statement", "goto_statement") and jump.start_byte < node.start_byte:
                return False, []
            if jump.type in ("break_statement", "continue_statement") \
                    and any(_inside(jump, loop) for loop in enclosing_loops):
                return False, []
        return True, guards

    def _guard(self, statement: Node, branch: Node, scope: _Scope, index: list[_Index]) -> Node | None:
        """The bound `n` of `if (i < n) <branch>` where `i` is the write's own 1-D index."""
        if statement.child_by_field_name("consequence") != branch or len(index) != 1 \
                or index[0].kind not in ("whole", "dim", "linear"):
            return None
        condition = statement.child_by_field_name("condition")
        value = condition.child_by_field_name("value") if condition is not None else None
        value = _unwrap(value) if value is not None else None
        if value is None or value.type != "binary_expression":
            return None
        operator = _text(value.child_by_field_name("operator"))
        left, right = value.child_by_field_name("left"), value.child_by_field_name("right")
        if operator == ">":
            left, right, operator = right, left, "<"
        if operator != "<" or left is None or right is None:
            return None
        if self._index_of(left, scope) != index[0]:
            return None
        return right

    def _runs_at_least_once(self, loop: Node) -> bool:
        """A `for` loop with constant bounds that runs at least once."""
        init = loop.child_by_field_name("initializer")
        condition = loop.child_by_field_name("condition")
        declarator = init.child_by_field_name("declarator") if init is not None and init.type == "declaration" else None
        if declarator is None or declarator.type != "init_declarator" or condition is None \
                or condition.type != "binary_expression":
            return False
        start = declarator.child_by_field_name("value")
        bound = condition.child_by_field_name("right")
        if start is None or bound is None \
                or _text(condition.child_by_field_name("left")) != _text(declarator.child_by_field_name("declarator")):
            return False
        first = self.fe.constants.value(_text(start), start.start_byte)
        limit = self.fe.constants.value(_text(bound), bound.start_byte)
        operator = _text(condition.child_by_field_name("operator"))
        return first is not None and limit is not None and (
            (operator == "<" and first < limit) or (operator == "<=" and first <= limit))

    @staticmethod
    def _in_nested_lambda(node: Node, root: Node) -> bool:
        parent = node.parent
        while parent is not None and parent != root:
            if parent.type == "lambda_expression":
                return True
            parent = parent.parent
        return False

    # -- the buffer, the launch and coverage -------------------------------------------------

    def _summarise(self, accessor: Accessor, node: Node, launch: KernelLaunch, found: _Found) -> AccessorUses:
        kinds = [u.kind for u in found.uses]
        buffer, buffer_texts, element = self._buffer(accessor, node)
        syntax = self._syntax(accessor, node)
        launch_texts = self._launch_texts(launch)
        range_matches = self._same_extent(
            launch.global_range, launch_texts, buffer.extent if buffer else None, buffer_texts, launch)
        over_accessor = self._launch_over_accessor(launch, accessor)
        if over_accessor:
            range_matches = True
        own = all(self._own(index) for (_n, index, _g, _ok) in found.writes) and bool(found.writes)
        covering = None
        if not syntax.ranged:
            for element_node, index, guards, ok in found.writes:
                if not ok:
                    continue
                if (over_accessor and index == [_Index("whole")] and not guards
                        and not self._launch_has_offset(launch)) or (
                        buffer is not None
                        and self._covers(index, guards, launch, range_matches, buffer, buffer_texts)):
                    covering = _span(element_node)
                    break
        return AccessorUses(
            reads=kinds.count("read"), writes=kinds.count("write"),
            read_modify_writes=kinds.count("read_modify_write"), atomic="atomic" in kinds,
            escapes="escape" in kinds, uses=tuple(found.uses), covering_write=covering,
            writes_at_own_index=own, range_matches_buffer=range_matches, kernel=launch.span,
            kernel_name=launch.name, buffer_span=buffer.span if buffer else None,
            buffer_extent=buffer.extent if buffer else None,
            buffer_has_host_data=buffer.has_host_data if buffer else None, element_size=element,
            typed_sites=tuple(dict.fromkeys(found.typed_sites)), syntax=syntax,
        )

    @staticmethod
    def _own(index: list[_Index]) -> bool:
        return index == [_Index("whole")] or index == [_Index("linear")] or (
            bool(index) and all(i.kind == "dim" and i.dim == k for k, i in enumerate(index)))

    def _covers(self, index: list[_Index], guards: list[Node], launch: KernelLaunch, range_matches: bool | None,
                buffer: Buffer, buffer_texts: tuple[str, ...] | None) -> bool:
        extent = buffer.extent
        dims = len(extent.dims) if extent is not None else (len(buffer_texts) if buffer_texts else 0)
        if not dims:
            return False
        if len(index) == 1 and index[0].kind == "const":
            return index[0].value == 0 and extent is not None and extent.total == 1 and not guards
        if len(index) == 1 and index[0].kind == "counter" and index[0].bound is not None:
            return dims == 1 and not guards and self._equals_dim(index[0].bound, extent, buffer_texts, 0)
        if launch.api != "parallel_for" or self._launch_has_offset(launch) or not self._own(index):
            return False
        if index[0].kind == "linear":
            if dims != 1:
                return False
        elif index[0].kind == "dim" and len(index) != dims:
            return False
        global_range = launch.global_range
        if global_range is not None and index[0].kind != "linear" and len(global_range.dims) != dims:
            return False
        if not guards:
            if index[0].kind == "linear" and range_matches is not True and global_range is not None \
                    and global_range.known and extent is not None and extent.known:
                return global_range.total == extent.total
            return range_matches is True
        if dims != 1 or not all(self._equals_dim(g, extent, buffer_texts, 0) for g in guards):
            return False
        if range_matches is True:
            return True
        return global_range is not None and global_range.known and extent is not None and extent.known \
            and global_range.total >= extent.total

    def _equals_dim(self, bound: Node, extent: Extent | None, texts: tuple[str, ...] | None, dim: int) -> bool:
        value = self.fe.constants.value(_text(bound), bound.start_byte)
        if value is not None and extent is not None and len(extent.dims) > dim and extent.dims[dim] is not None:
            return value == extent.dims[dim]
        if texts and len(texts) > dim:
            return _normal(_text(bound)) == _normal(texts[dim]) and self._stable(texts[dim], bound)
        return False

    def _same_extent(self, launch_extent: Extent | None, launch_texts: tuple[str, ...] | None,
                     buffer_extent: Extent | None, buffer_texts: tuple[str, ...] | None,
                     launch: KernelLaunch) -> bool | None:
        if launch_extent is not None and buffer_extent is not None and launch_extent.known and buffer_extent.known:
            return launch_extent.dims == buffer_extent.dims
        if launch_texts and buffer_texts and len(launch_texts) == len(buffer_texts):
            call = _node_at(self.root, launch.span, ("call_expression",))
            if call is not None and all(_normal(a) == _normal(b) and self._stable(a, call)
                                        for a, b in zip(launch_texts, buffer_texts)):
                return True
        return None

    def _stable(self, text: str, at: Node) -> bool:
        """Every name in `text` keeps its value through the function around `at` (never assigned or
        resized), and the text calls nothing but `.size()`."""
        if "(" in re.sub(r"\.\s*size\s*\(\s*\)", "", text):
            return False
        function = at
        while function.parent is not None and function.type != "function_definition":
            function = function.parent
        if function.id not in self._assigned_in:
            self._assigned_in[function.id] = (self.fe.assigned_names(function), _text(function))
        assigned, body = self._assigned_in[function.id]
        for name in set(re.findall(r"[A-Za-z_]\w*", text)) - {"size"}:
            if name in assigned or re.search(rf"\b{re.escape(name)}\s*(\.|->)\s*({_CONTAINER_MUTATORS})\s*\(", body):
                return False
        return True

    def _launch_texts(self, launch: KernelLaunch) -> tuple[str, ...] | None:
        """Per-dimension texts of a launch's range, needed only when it has no value."""
        if launch.range_kind not in ("range", "scalar") or launch.api != "parallel_for" \
                or (launch.global_range is not None and launch.global_range.known):
            return None
        key = launch.span.start_byte
        if key not in self._launch_texts_at:
            call = _node_at(self.root, launch.span, ("call_expression",))
            args = _arguments(call.child_by_field_name("arguments")) if call is not None else []
            self._launch_texts_at[key] = self._dim_texts(args[0]) if len(args) >= 2 else None
        return self._launch_texts_at[key]

    def _launch_over_accessor(self, launch: KernelLaunch, accessor: Accessor) -> bool:
        """`parallel_for(acc.get_range(), …)`: the launch is exactly the accessor's range."""
        if launch.api != "parallel_for" or not accessor.name:
            return False
        call = _node_at(self.root, launch.span, ("call_expression",))
        args = _arguments(call.child_by_field_name("arguments")) if call is not None else []
        if len(args) != 2:
            return False
        text = re.sub(r"\s+", "", _text(args[0]))
        return text in (f"{accessor.name}.get_range()", f"{accessor.buffer}.get_range()")

    def _launch_has_offset(self, launch: KernelLaunch) -> bool:
        call = _node_at(self.root, launch.span, ("call_expression",))
        args = _arguments(call.child_by_field_name("arguments")) if call is not None else []
        return any(re.search(r"\bid\b|offset", _text(a)) for a in args[1:-1])

    def _dim_texts(self, node: Node) -> tuple[str, ...] | None:
        """The per-dimension expressions of a range written at `node` (following range variables)."""
        parts: list[str] = []
        at = node.start_byte

        def value(text: str) -> int | None:
            parts.append(text.strip())
            return self.fe.constants.value(text, at)

        extent = evaluate_range(_text(node), value, lambda n: self.fe._init_text(n, at))
        if extent is None or len(parts) != len(extent.dims):
            return None
        return tuple(parts)

    def _buffer(self, accessor: Accessor, node: Node) -> tuple[Buffer | None, tuple[str, ...] | None, int | None]:
        """The buffer the accessor is created over, when it is constructed in the file and visible here,
        with the per-dimension texts of its extent and its element size."""
        element = self._element_size(self._accessor_template_args(node)[:1])
        name = (accessor.buffer or "").strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return None, None, element
        definition = self.fe.constants.definition(name, accessor.span.start_byte)
        if definition is None or definition.kind != "var":
            return None, None, element
        key = definition.start_byte
        if key not in self._buffer_at:
            self._buffer_at[key] = self._buffer_declared_at(definition.start_byte)
        buffer, texts, buffer_element = self._buffer_at[key]
        return buffer, texts, buffer_element or element

    def _buffer_declared_at(self, start_byte: int) -> tuple[Buffer | None, tuple[str, ...] | None, int | None]:
        decl = self.root.descendant_for_byte_range(start_byte, start_byte + 1)
        while decl is not None and not (decl.type == "declaration" and decl.start_byte == start_byte):
            decl = decl.parent
        if decl is None:
            return None, None, None
        construction = self.fe._construction_from_decl(decl)
        if construction is None:
            declarator = decl.child_by_field_name("declarator")
            value = declarator.child_by_field_name("value") if declarator is not None else None
            callee = (value.child_by_field_name("function") or value.child_by_field_name("type")) \
                if value is not None else None
            if value is not None and callee is not None:
                construction = self.fe._construction_from_call(value, callee)
        if construction is None or construction.cls != "buffer":
            return None, None, None
        args = construction.args
        if (len(args) >= 3 and not self._is_property(args[2])) or \
                any(re.search(r"\.\s*(c?r?begin|c?r?end)\s*\(", _text(a)) for a in args):
            return None, None, None  # a sub-buffer or an iterator range: the extent is not the range argument
        buffer = self.fe._buffer(construction, False)
        texts = None
        if buffer.extent is not None and not buffer.extent.known:
            range_arg = args[1] if buffer.has_host_data and len(args) >= 2 else args[0]
            texts = self._dim_texts(range_arg)
        elif len(args) == 1 and args[0].type in ("identifier", "parameter_declaration") \
                and re.fullmatch(r"[A-Za-z_]\w*", _text(args[0])):
            texts = (f"{_text(args[0])}.size()",)  # `sycl::buffer b(vec)`: the container's size
        return buffer, texts, self._element_size(construction.template_args[:1])

    @staticmethod
    def _element_size(args: list[Node]) -> int | None:
        if not args:
            return None
        name = re.sub(r"\b(const|volatile)\b", "", _text(args[0])).strip()
        name = re.sub(r"^(::)?(std|sycl|cl::sycl)::", "", name).strip()
        return ARITHMETIC_SIZES.get(name)

    def _accessor_template_args(self, node: Node) -> list[Node]:
        type_node = node.child_by_field_name("type") or node.child_by_field_name("function")
        while type_node is not None and type_node.type == "qualified_identifier":
            type_node = type_node.child_by_field_name("name")
        if type_node is not None and type_node.type in ("template_type", "template_function"):
            return _arguments(type_node.child_by_field_name("arguments"))
        return []

    # -- how the mode is spelled -------------------------------------------------------------

    def _syntax(self, accessor: Accessor, node: Node) -> ModeSyntax:
        if accessor.form == "get_access":
            return self._get_access_syntax(accessor, node)
        targs = self._accessor_template_args(node)
        args = self._construction_args(node)
        handler = _span(args[1]) if len(args) >= 2 else None
        rest = args[2:]
        ranged = any(self._is_range_argument(a) for a in rest)
        mode = accessor.mode_span
        if mode is not None:
            in_args = any(a.start_byte == mode.start_byte for a in rest)
            last = bool(rest) and rest[-1].start_byte == mode.start_byte
            return ModeSyntax("tag" if in_args else "enum", handler, in_args and last, None, ranged)
        if len(targs) >= 3 or any(not self._is_range_argument(a) and not self._is_property(a) for a in rest):
            return ModeSyntax("other", handler, ranged=ranged)
        if rest:
            return ModeSyntax("default-other", handler, ranged=ranged)
        return ModeSyntax("default-typed" if targs else "default-ctad", handler)

    def _get_access_syntax(self, accessor: Accessor, node: Node) -> ModeSyntax:
        function = node.child_by_field_name("function")
        method = function.child_by_field_name("field") if function is not None else None
        if method is not None and method.type == "dependent_name":
            method = method.named_children[0] if method.named_children else None
        targ_list = method.child_by_field_name("arguments") \
            if method is not None and method.type == "template_method" else None
        targs = _arguments(targ_list)
        args = _arguments(node.child_by_field_name("arguments"))
        handler = _span(args[0]) if args else None
        rest = args[1:]
        ranged = any(self._is_range_argument(a) for a in rest)
        mode = accessor.mode_span
        if mode is not None:
            if targ_list is not None and targ_list.start_byte <= mode.start_byte < targ_list.end_byte:
                whole = _span(targ_list) if len(targs) == 1 and len(args) == 1 and method.type == "template_method" \
                    and (function.child_by_field_name("field") == method) else None
                return ModeSyntax("enum", handler, False, whole, ranged)
            last = bool(rest) and rest[-1].start_byte == mode.start_byte
            return ModeSyntax("tag", handler, last, None, ranged)
        if targs or any(not self._is_range_argument(a) and not self._is_property(a) for a in rest):
            return ModeSyntax("other", handler, ranged=ranged)
        return ModeSyntax("default-other" if rest else "default-get-access", handler, ranged=ranged)

    @staticmethod
    def _construction_args(node: Node) -> list[Node]:
        if node.type == "declaration":
            declarator = node.child_by_field_name("declarator")
            if declarator is None:
                return []
            if declarator.type == "function_declarator":
                return _arguments(declarator.child_by_field_name("parameters"))
            return _arguments(declarator.child_by_field_name("value"))
        return _arguments(node.child_by_field_name("arguments") or node.child_by_field_name("value"))

    @staticmethod
    def _is_property(node: Node) -> bool:
        return bool(re.search(r"\b(property_list|no_init|property)\b", _text(node)))

    @staticmethod
    def _is_range_argument(node: Node) -> bool:
        text = _text(node)
        return not re.search(r"\b(property_list|no_init|property)\b", text) and bool(
            re.search(r"\b(range|id)\b", text) or text.lstrip().startswith("{"))


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", text)


def analyse_accessor_uses(frontend: "CppFrontend", launches: tuple[KernelLaunch, ...],
                          accessors: list[Accessor]) -> list[Accessor]:
    """Each device accessor with `uses` filled in when the kernel of its command group could be
    analysed (left None otherwise: no kernel in the group, a kernel the file does not define)."""
    if not accessors or not launches:
        return accessors
    analysis = _Analysis(frontend, launches)
    analysed = [analysis.accessor(a) for a in accessors]
    return [replace(a, uses=replace(a.uses, same_buffer_modes=_same_buffer_modes(a, analysed)))
            if a.uses is not None else a for a in analysed]


def _same_buffer_modes(accessor: Accessor, accessors: list[Accessor]) -> tuple[str, ...]:
    """Modes of the other accessors created over the same buffer (same text) in the same command group."""
    modes = []
    for other in accessors:
        if other is accessor or other.command_group != accessor.command_group \
                or _normal(other.buffer or "") != _normal(accessor.buffer or ""):
            continue
        if other.mode is not None:
            modes.append(other.mode)
        else:
            defaulted = other.uses is not None and other.uses.syntax is not None and other.uses.syntax.defaulted
            modes.append("read_write" if defaulted else "unknown")
    return tuple(modes)
