"""How kernels use their accessors: reads, writes, read-modify-writes, atomics and escapes.

For every device accessor created in a command group, the kernel launched in that group is searched for
references to it (one tree-sitter query, `queries/cpp_accessors.scm`, run on the kernel body only): by
name in a lambda body (lambdas capture accessors by name), through the members a functor was constructed
with, and through the parameters of helper functions defined in the file. Each reference is classified
from its syntactic context. Whatever the analysis cannot follow (an unknown function, a pointer or an
alias taken, a shadowing declaration, a use outside the kernel) is an escape, which rules treat as "may
read and write": unknown never turns into a finding.

Where the writes are (`index`), whether one covers the whole buffer (`coverage`) and
how the mode is spelled (`mode_syntax`) are worked out by the modules named; this one collects the
uses and puts the summary together.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import tree_sitter

from kernlint.facts import Accessor, KernelLaunch, Span
from kernlint.facts.accessor_uses import AccessorUse, AccessorUses
from kernlint.facts.kinds import AccessorUseKind
from kernlint.frontends.common.nodes import arguments_of, contains, node_at, span_of, text_of
from kernlint.frontends.cpp.accessors.binding import (
    functor_arguments,
    is_constructor,
    member_for_argument,
    member_type,
    parameter_name,
)
from kernlint.frontends.cpp.accessors.coverage import CoverageReader
from kernlint.frontends.cpp.accessors.index import Captures, Index, IndexReader, Scope, Write, is_own
from kernlint.frontends.cpp.accessors.mode_syntax import mode_syntax
from kernlint.frontends.cpp.callees import Callees, element_argument_effect, parameters
from kernlint.frontends.cpp.sycl.api import ATOMIC_METHODS, MODE_WORD, NEUTRAL_METHODS
from kernlint.frontends.cpp.syntax import data_pointer, element_context, last_name, no_spaces, unwrap_value
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

_MAX_DEPTH = 4  # helper-function nesting followed


@dataclass
class _Found:
    """Uses collected for one accessor across its kernel and helpers."""

    uses: list[AccessorUse] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    typed_sites: list[Span] = field(default_factory=list)
    consumed: set[int] = field(default_factory=set)  # reads folded into a read-modify-write

    def add(self, kind: AccessorUseKind, node: Node, detail: str = "") -> None:
        self.uses.append(AccessorUse(kind, span_of(node), detail))


#: Kernels whose code names the accessors of the command group as it does: written there, or a functor
#: whose members it binds.
_BOUND_HERE = frozenset({"inline", "variable", "functor"})


class _Analysis:
    """Accessor-usage analysis of one file."""

    def __init__(self, unit: CppUnit, launches: tuple[KernelLaunch, ...]) -> None:
        self.unit = unit
        self.root = unit.root
        self.launches = launches
        self.captures = Captures()
        self.index = IndexReader(unit.constants, self.captures)
        self.coverage = CoverageReader(unit)
        self._functions: dict[str, list[Node]] | None = None
        self._helper_stack: set[tuple[int, int]] = set()
        self._launches_of: dict[Span | None, list[KernelLaunch]] = {}  # by command group
        for launch in launches:
            self._launches_of.setdefault(launch.command_group, []).append(launch)

    # -- driver ------------------------------------------------------------------------------

    def accessor(self, accessor: Accessor) -> Accessor:
        if (
            accessor.target != "device"
            or accessor.form not in ("constructor", "get_access")
            or accessor.command_group is None
        ):
            return accessor
        launches = self._launches_of.get(accessor.command_group, [])
        if not launches or any(launch.body is None or launch.link not in _BOUND_HERE for launch in launches):
            return accessor  # a kernel made elsewhere (a factory's) names the accessor by another name
        group = node_at(self.root, accessor.command_group, ("lambda_expression", "function_definition"))
        node = node_at(self.root, accessor.span)
        if group is None or node is None or node.has_error:
            return accessor  # a creation the parser could not read has no mode to judge
        found = _Found()
        bound_args: list[Node] = []
        if accessor.name:
            self.captures(group)  # needed for the uses outside the kernels; queried first, the kernels' blocks reuse it
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
        body = node_at(self.root, launch.body, ("compound_statement",)) if launch.body else None
        if body is None:
            found.add("escape", self.root, "kernel body not found")
            return
        self._scan(self._kernel_scope(body, launch, frozenset({name}), members=False), found)

    def _kernel_scope(self, body: Node, launch: KernelLaunch, names: frozenset[str], members: bool) -> Scope:
        nd = launch.index_type == "nd_item" or (launch.range_kind == "nd_range" and launch.index_type == "auto")
        scope = Scope(body, names, members, launch.index_param, nd, captures=self.captures(body))
        if (
            launch.index_param
            and not nd
            and launch.index_type in ("id", "item", "auto", "integral")
            and launch.api == "parallel_for"
        ):
            scope.own[launch.index_param] = Index("whole")
        self.index.derive_locals(scope)
        return scope

    def _functor_kernel(
        self, launch: KernelLaunch, accessor: Accessor, node: Node, group: Node, found: _Found
    ) -> list[Node]:
        """Uses through the functor member the accessor initialises; returns the bound arguments."""
        body = node_at(self.root, launch.body, ("compound_statement",)) if launch.body else None
        operator = body.parent if body is not None else None
        members_list = operator.parent if operator is not None else None
        if members_list is None or members_list.type != "field_declaration_list":
            return []
        class_name = text_of(members_list.parent.child_by_field_name("name")) if members_list.parent else ""
        args = functor_arguments(self.root, self.captures, launch, class_name, group)
        if args is None:
            found.add("escape", node, f"functor `{class_name}` is constructed where the analysis cannot see")
            return []
        position = next(
            (
                i
                for i, a in enumerate(args)
                if (accessor.name and text_of(a).strip() == accessor.name)
                or (a.start_byte == node.start_byte and a.end_byte == node.end_byte)
            ),
            None,
        )
        if position is None:
            return []
        member = member_for_argument(members_list, class_name, position, len(args))
        if member is None:
            found.add("escape", args[position], f"passed to a constructor of `{class_name}` the analysis cannot follow")
            return [args[position]]
        field_type = member_type(members_list, member)
        if field_type is not None and MODE_WORD.search(text_of(field_type)) and "accessor" in text_of(field_type):
            found.typed_sites.append(span_of(field_type))
        for method in members_list.named_children:
            if method.type != "function_definition" or is_constructor(method, class_name):
                continue
            method_body = method.child_by_field_name("body")
            if method_body is None:
                continue
            if method == operator:
                scope = self._kernel_scope(method_body, launch, frozenset({member}), members=True)
            else:
                scope = Scope(method_body, frozenset({member}), True, captures=self.captures(method_body))
                scope.conditional = True  # a helper method: whether and how often it runs is unknown
            self._scan(scope, found)
        return [args[position]]

    def _outside_kernels(
        self, name: str, node: Node, group: Node, launches: list[KernelLaunch], bound_args: list[Node], found: _Found
    ) -> None:
        """References to the accessor in its command group but outside the kernels: only size queries
        the functor construction and `decltype(acc)` are understood; anything else escapes."""
        bodies = [launch.body for launch in launches if launch.body is not None]
        caps = self.captures(group)
        for include in caps.get("include", []):
            if include.start_byte > node.end_byte and not any(
                b.start_byte <= include.start_byte < b.end_byte for b in bodies
            ):
                found.add("escape", include, "code #included into the command group may use it")
        wanted = name.encode()
        for ref in caps.get("ref", []) + caps.get("type_ref", []):
            if ref.text != wanted or ref.start_byte < node.end_byte:
                continue
            if any(b.start_byte <= ref.start_byte < b.end_byte for b in bodies):
                continue
            if any(contains(arg, ref) for arg in bound_args):
                continue
            parent = ref.parent
            if (
                parent is not None
                and parent.type == "field_expression"
                and parent.parent is not None
                and parent.parent.type == "call_expression"
                and text_of(parent.child_by_field_name("field")) in NEUTRAL_METHODS
            ):
                continue
            if parent is not None and parent.type in ("lambda_capture_specifier", "decltype"):
                continue  # a capture list, or `Kernel<decltype(acc)>`: the accessor's type, not its value
            found.add("escape", ref, "used in the command group outside the kernel")

    # -- scanning a body ---------------------------------------------------------------------

    def _scan(self, scope: Scope, found: _Found) -> None:
        caps = scope.captures
        for include in caps.get("include", []):
            found.add("escape", include, "code #included into the kernel may use it")
        names = {n.encode() for n in scope.names}
        macros = self.callees.macros
        for ref in caps.get("ref", []):
            macro = macros.get(text_of(ref)) if ref.text not in names and scope.sees(ref) else None
            if macro is not None and macro.words & scope.names:
                found.add("escape", ref, f"macro `{text_of(ref)}` names it")
        for ref in caps.get("ref", []):
            if ref.text in names and scope.sees(ref):
                self._reference(ref, scope, found)
        for ref in caps.get("member_ref", []):
            if scope.members and ref.text in names and ref.parent is not None:
                self._classify_value(ref.parent, scope, found)
        for ref in caps.get("type_ref", []):
            if ref.text in names and scope.sees(ref):
                decl = self._enclosing(ref, ("declaration", "parameter_declaration"))
                outer = self._enclosing(decl, ("declaration",)) if decl is not None else None
                if outer is not None and "atomic" in text_of(outer.child_by_field_name("type")):
                    found.add("atomic", ref)
                else:
                    found.add("escape", ref, "used where the parser saw a type")

    def _reference(self, ref: Node, scope: Scope, found: _Found) -> None:
        parent = ref.parent
        if parent is None:
            return
        ptype = parent.type
        if ptype == "lambda_capture_specifier":
            return  # `[acc]`: a capture, not a use
        if ptype == "lambda_capture_initializer":
            found.add("escape", ref, "captured under another name")
            return
        if (
            ptype
            in (
                "init_declarator",
                "function_declarator",
                "reference_declarator",
                "pointer_declarator",
                "parameter_declaration",
                "for_range_loop",
                "structured_binding_declarator",
            )
            and parent.child_by_field_name("declarator") == ref
        ) or ptype == "declaration":
            found.add("escape", ref, "a declaration shadows the accessor's name")
            return
        if ptype in ("sizeof_expression", "decltype", "alignof_expression"):
            return
        self._classify_value(ref, scope, found)

    def _classify_value(self, node: Node, scope: Scope, found: _Found) -> None:
        """`node` denotes the accessor itself (a name or `this->member`)."""
        parent = node.parent
        if parent is None:
            return
        if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == node:
            element, indices = parent, [parent.child_by_field_name("indices")]
            while (
                element.parent is not None
                and element.parent.type == "subscript_expression"
                and element.parent.child_by_field_name("argument") == element
            ):
                element = element.parent
                indices.append(element.child_by_field_name("indices"))
            self._classify_element(element, [self.index.subscript(i, scope) for i in indices], scope, found)
            return
        if parent.type == "field_expression" and parent.child_by_field_name("argument") == node:
            method = text_of(parent.child_by_field_name("field"))
            call = parent.parent
            if call is not None and call.type == "call_expression" and method in NEUTRAL_METHODS:
                return
            pointer = data_pointer(parent)
            helper_call = _call_taking(pointer) if pointer is not None else None
            if pointer is not None and helper_call is not None:
                # `helper(acc.get_pointer(), …)`: the helper's parameter is the accessor's data
                self._passed_to_function(pointer, helper_call, scope, found)
                return
            alias = _pointer_alias(pointer) if pointer is not None else None
            if alias is not None:
                # `float *p = acc.get_pointer();`: `p` is the accessor's data until its block ends
                name, declaration, block = alias
                self._scan(
                    replace(scope, names=frozenset({name}), within=(declaration.end_byte, block.end_byte)), found
                )
                return
            found.add("escape", node, f"`.{method}` gives access the analysis does not follow")
            return
        call = _call_taking(node)
        if call is not None:
            self._passed_to_function(node, call, scope, found)
            return
        found.add("escape", node, "copied or used as a whole")

    def _classify_element(self, element: Node, index: list[Index], scope: Scope, found: _Found) -> None:
        if element.id in found.consumed:
            return  # the read half of `a[i] = a[i] + …`, already counted as a read-modify-write
        statement = element
        while (
            statement.parent is not None
            and statement != scope.root
            and not (statement.type.endswith("_statement") or statement.type == "declaration")
        ):
            statement = statement.parent
        if statement.has_error:
            found.add("escape", element, "in a statement the parser could not read")
            return
        value, member = element_context(element)
        parent = value.parent
        if parent is None:
            return
        ptype = parent.type
        if ptype == "assignment_expression" and parent.child_by_field_name("left") == value:
            operator = text_of(parent.child_by_field_name("operator")) or text_of(parent.children[1])
            if member:
                found.add("read_modify_write", element, "a member of the element is written")
            elif operator != "=":
                found.add("read_modify_write", element, f"`{operator}`")
            elif self._reads_same_element(parent.child_by_field_name("right"), element, found):
                found.add("read_modify_write", element, "assigned from its own value")
            else:
                found.add("write", element)
                ok, guards = self.index.unconditional(parent, scope, index) if value == element else (False, [])
                found.writes.append((element, index, guards, ok))
            return
        if ptype == "update_expression":
            found.add("read_modify_write", element, "`++`/`--`")
            return
        if ptype == "field_expression" and parent.child_by_field_name("argument") == value:
            method = text_of(parent.child_by_field_name("field"))  # `.method(…)`: `element_context` stops at a call
            if method in ATOMIC_METHODS and not member:
                found.add("atomic", element, f"`.{method}()`")
            else:
                found.add("escape", element, f"method `.{method}()` called on the element")
            return
        if ptype == "pointer_expression" and text_of(parent.children[0]) == "&":
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
            if decl is not None and "atomic" in text_of(decl.child_by_field_name("type")):
                found.add("atomic", element, "atomic_ref")
                return
            init = parent if ptype == "init_declarator" else parent.parent
            declarator = (
                init.child_by_field_name("declarator") if init is not None and init.type == "init_declarator" else None
            )
            if (
                declarator is not None
                and declarator.type == "reference_declarator"
                and not self._is_const_declaration(decl)
            ):
                found.add("escape", element, "bound to a non-const reference")
                return
        found.add("read", element)

    @staticmethod
    def _is_const_declaration(decl: Node | None) -> bool:
        return decl is not None and any(
            c.type == "type_qualifier" and text_of(c) in ("const", "constexpr") for c in decl.children
        )

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
        target = no_spaces(text_of(element))
        same = False
        stack = [right]
        while stack:
            node = stack.pop()
            if node.type == "subscript_expression" and no_spaces(text_of(node)) == target:
                found.consumed.add(node.id)
                same = True
                continue
            stack.extend(node.named_children)
        return same

    def _element_to_function(self, element: Node, argument: Node, call: Node, found: _Found) -> None:
        """`f(a[i])`: a read when `f` takes its argument by value or const reference."""
        effect, detail = element_argument_effect(call, argument, self.callees)
        found.add(effect, element, detail)

    # -- helpers defined in the file ---------------------------------------------------------

    @cached_property
    def callees(self) -> Callees:
        """The file's definitions, prototypes and macros, for what a call does to an element."""
        return Callees(self.unit.functions(prototypes=True), self.unit.macros)

    def functions(self) -> dict[str, list[Node]]:
        """Function definitions of the file by name, found on first use."""
        if self._functions is None:
            self._functions = self.unit.functions()
        return self._functions

    def _passed_to_function(self, node: Node, call: Node, scope: Scope, found: _Found) -> None:
        function = call.child_by_field_name("function")
        name = last_name(text_of(function))
        args = arguments_of(call.child_by_field_name("arguments"))
        position = next((i for i, a in enumerate(args) if a == node), -1)
        if function is None or function.type == "field_expression" or position < 0:
            found.add("escape", node, f"passed to `{name}`")
            return
        candidates = [f for f in self.functions().get(name, ()) if len(parameters(f)) >= len(args)]
        if not candidates or scope.depth >= _MAX_DEPTH:
            found.add("escape", node, f"passed to `{name}`, not defined in this file")
            return
        call_ok, _guards = self.index.unconditional(call, scope, [])
        for function_node in candidates:
            key = (function_node.id, position)
            params = parameters(function_node)
            param_name = parameter_name(params[position])
            body = function_node.child_by_field_name("body")
            if key in self._helper_stack or param_name is None or body is None:
                found.add("escape", node, f"passed to `{name}`")
                continue
            param_type = params[position].child_by_field_name("type")
            if param_type is not None and "accessor" in text_of(param_type) and MODE_WORD.search(text_of(param_type)):
                found.typed_sites.append(span_of(param_type))
            helper = Scope(
                body,
                frozenset({param_name}),
                depth=scope.depth + 1,
                captures=self.captures(body),
                conditional=not call_ok or scope.conditional,
            )
            for i, arg in enumerate(args):
                index = self.index.index_of(arg, scope)
                arg_name = parameter_name(params[i]) if i < len(params) else None
                if arg_name and scope.item is not None and text_of(unwrap_value(arg)) == scope.item:
                    helper.item, helper.nd = arg_name, scope.nd  # the kernel's item, passed on
                if index.kind in ("whole", "dim", "linear") and arg_name:
                    helper.own[arg_name] = index
            self.index.derive_locals(helper)
            self._helper_stack.add(key)
            try:
                self._scan(helper, found)
            finally:
                self._helper_stack.discard(key)

    # -- the summary -------------------------------------------------------------------------

    def _summarise(self, accessor: Accessor, node: Node, launch: KernelLaunch, found: _Found) -> AccessorUses:
        kinds = [u.kind for u in found.uses]
        syntax = mode_syntax(accessor, node)
        coverage = self.coverage.coverage(accessor, node, launch, found.writes, syntax.ranged)
        buffer = coverage.buffer
        own = all(is_own(index) for (_n, index, _g, _ok) in found.writes) and bool(found.writes)
        return AccessorUses(
            reads=kinds.count("read"),
            writes=kinds.count("write"),
            read_modify_writes=kinds.count("read_modify_write"),
            atomic="atomic" in kinds,
            escapes="escape" in kinds,
            uses=tuple(found.uses),
            covering_write=coverage.covering_write,
            writes_at_own_index=own,
            range_matches_buffer=coverage.range_matches,
            kernel=launch.span,
            kernel_name=launch.name,
            buffer_span=buffer.span if buffer else None,
            buffer_extent=buffer.extent if buffer else None,
            buffer_has_host_data=buffer.has_host_data if buffer else None,
            element_size=coverage.element_size,
            typed_sites=tuple(dict.fromkeys(found.typed_sites)),
            syntax=syntax,
        )


def _pointer_alias(pointer: Node) -> tuple[str, Node, Node] | None:
    """(name, declaration, block) when `pointer` initialises a local declared in a block
    (`float *p = acc.get_pointer();`, `auto p = acc.get_multi_ptr<…>().get();`)."""
    init = pointer.parent
    if init is None or init.type != "init_declarator" or init.child_by_field_name("value") != pointer:
        return None
    declarator = init.child_by_field_name("declarator")
    while declarator is not None and declarator.type == "pointer_declarator":
        declarator = declarator.child_by_field_name("declarator")
    declaration = init.parent
    block = declaration.parent if declaration is not None else None
    if (
        declarator is None
        or declarator.type != "identifier"
        or declaration is None
        or declaration.type != "declaration"
    ):
        return None
    if block is None or block.type != "compound_statement":
        return None
    return text_of(declarator), declaration, block


def _call_taking(node: Node) -> Node | None:
    """The call `node` is an argument of (`f(node, …)`), if it is one."""
    parent = node.parent
    call = parent.parent if parent is not None and parent.type == "argument_list" else None
    return call if call is not None and call.type == "call_expression" else None


def analyse_accessor_uses(
    unit: CppUnit, launches: tuple[KernelLaunch, ...], accessors: list[Accessor]
) -> list[Accessor]:
    """Each device accessor with `uses` filled in when the kernel of its command group could be
    analysed (left None otherwise: no kernel in the group, a kernel the file does not define)."""
    if not accessors or not launches:
        return accessors
    analysis = _Analysis(unit, launches)
    analysed = [analysis.accessor(a) for a in accessors]
    by_group: dict[Span | None, list[Accessor]] = {}
    for a in analysed:
        by_group.setdefault(a.command_group, []).append(a)
    return [
        replace(a, uses=replace(a.uses, same_buffer_modes=_same_buffer_modes(a, by_group[a.command_group])))
        if a.uses is not None
        else a
        for a in analysed
    ]


def _same_buffer_modes(accessor: Accessor, group: list[Accessor]) -> tuple[str, ...]:
    """Modes of the other accessors created over the same buffer (same text) in the same command
    group (`group`: the accessors of that command group)."""
    modes: list[str] = []
    for other in group:
        if other is accessor or no_spaces(other.buffer or "") != no_spaces(accessor.buffer or ""):
            continue
        if other.mode is not None:
            modes.append(other.mode)
        else:
            defaulted = other.uses is not None and other.uses.syntax is not None and other.uses.syntax.defaulted
            modes.append("read_write" if defaulted else "unknown")
    return tuple(modes)
