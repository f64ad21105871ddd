"""Work-item dependence in SYCL C++ device code: tree-sitter nodes lowered into
`kernlint.analysis.dependence`.

This module knows SYCL; the analysis does not. It decides which names are *handles* (an `nd_item`,
`item`, `h_item`, `group` or `sub_group`, however obtained: typed parameters, the kernel's index
parameter, `it.get_sub_group()`, `this_sub_group()`, arguments passed into device functions), which
calls are id sources (`get_global_id`, `get_local_id`, `…_linear_id`, `get_id`, `it[0]`, the sub-group's
`get_local_id`), which are uniform (group ids, ranges, group collectives such as `reduce_over_group`)
and which vary without being ids (atomic fetches, sub-group block loads). Everything else is lowered
structurally. Each kernel body, device function and nested lambda is one `Unit`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kernlint.analysis.dependence import (
    Grade,
    Program,
    Varying,
)
from kernlint.frontends.cpp.dependence.context import UnitContext, UnitSource
from kernlint.frontends.cpp.dependence.definitions import UnitFlow
from kernlint.frontends.cpp.dependence.lowering import ExpressionLowering
from kernlint.frontends.cpp.dependence.nodes import (
    Ancestry,
    Key,
    Node,
    call_parts,
    callee_name,
    condition_of,
    declared_name,
    identifier_nodes,
    is_const,
    key_of,
    named,
    node_key,
    owner_of,
    parameters_of,
    scope_node,
    target_name,
    text_of,
)
from kernlint.frontends.cpp.dependence.sycl_calls import (
    ARRAY_TYPES,
    BARRIERS,
    HANDLE_FREE_CALLS,
    HANDLE_TYPES,
    ID_TYPES,
)

_DIMS = re.compile(r"<\s*([1-3])\s*>")  # the dimensions of an `nd_item<2>` handle


class CppDependence(ExpressionLowering):
    """Builds and solves the dependence program of a file's device code."""

    def __init__(
        self, units: list[UnitSource], resolve: Callable[[Node], list[Key]], constant: Callable[[str, int], int | None]
    ) -> None:
        self._resolve = resolve
        self._constant_at = constant
        self._constants: dict[tuple[str, Key], int | None] = {}
        self._owners: dict[str, Key] = {}  # variable key -> the unit that declares it
        self._contexts: dict[Key, UnitContext] = {u.key: UnitContext(u) for u in units}
        self._call_parts: dict[int, tuple[Node | None, str, list[Node]]] = {}
        self._ancestry = Ancestry()
        self.program = Program()
        for context in self._contexts.values():
            self._declare(context)
        self._propagate_handles()
        for context in self._contexts.values():
            self._loop_sets(context)
        self._propagate_loop_varying()
        self._sharing()
        for context in self._contexts.values():
            body = context.source.root.child_by_field_name("body")
            context.flow = UnitFlow(
                context.source.root,
                body,
                _Hooks(self, context),
                context.shared,
                {p[0] for p in context.params if p[0]},
                context.escaped,
            )
        for context in self._contexts.values():
            self._lower_unit(context)
        self.program.solve()

    def _constant(self, name: str, at_byte: int, unit: Key | None = None) -> int | None:
        """A file-level constant's value; names not declared in a unit resolve the same anywhere in it."""
        if unit is None:
            return self._constant_at(name, at_byte)
        if (name, unit) not in self._constants:
            self._constants[(name, unit)] = self._constant_at(name, at_byte)
        return self._constants[(name, unit)]

    # -- queries ------------------------------------------------------------------------------

    def parts(self, call: Node) -> tuple[Node | None, str, list[Node]]:
        """`call_parts(call)`, read once per call: every pass over the units asks again."""
        found = self._call_parts.get(call.id)
        if found is None:
            found = self._call_parts[call.id] = call_parts(call)
        return found

    def grade(self, node: Node) -> Grade | None:
        """The grade of a condition statement/expression registered by `_lower_unit`."""
        owner = owner_of(node, self._ancestry.parent_of)
        if owner is None or key_of(owner) not in self._contexts:
            return None
        return self.program.grade(key_of(owner), node_key(node))

    def handle_kind(self, node: Node | None) -> str | None:
        """item | group | sub-group when `node` (in device code) denotes such a handle."""
        if node is None:
            return None
        owner = owner_of(node, self._ancestry.parent_of)
        context = self._contexts.get(key_of(owner)) if owner is not None else None
        return self._handle(node, context) if context is not None else None

    # -- declarations and handles ---------------------------------------------------------------

    def _declare(self, context: UnitContext) -> None:
        source = context.source
        for param in parameters_of(source.root):
            name, reference, array = declared_name(param.child_by_field_name("declarator"))
            type_text = text_of(param.child_by_field_name("type"))
            context.params.append((name or "", reference and not is_const(param)))
            if name:
                self._typed(context, name, type_text, array)
        if source.index_param is not None:
            name, kind = source.index_param
            context.handles[name] = kind
        elif source.parent is None and source.root.type == "lambda_expression" and context.params:
            # a kernel lambda whose launch was not read (`parallel_for(range, reduction, [=](id<1> i, auto &sum)`):
            # an `id` first parameter is the work-item index all the same
            first = parameters_of(source.root)[0]
            if context.params[0][0] and ID_TYPES.search(text_of(first.child_by_field_name("type"))):
                context.handles[context.params[0][0]] = "item"
        for decl in source.nodes.get("decl", []):
            type_text = text_of(decl.child_by_field_name("type"))
            scope = scope_node(decl, source.root)
            for declarator in decl.children_by_field_name("declarator"):
                name, _reference, array = declared_name(declarator)
                if not name:
                    continue
                context.assigned.add(name)
                context.scopes.setdefault(name, []).append(
                    (scope.start_byte, scope.end_byte, decl.start_byte, f"{name}@{decl.start_byte}")
                )
                if declarator.type != "init_declarator":
                    context.uninitialized.add(f"{name}@{decl.start_byte}")
                self._typed(context, name, type_text, array)
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                if value is not None and type_text.strip() == "auto":
                    handle = self._handle(value, context)
                    if handle is not None:
                        context.handles[name] = handle
                    elif (
                        value.type == "call_expression"
                        and not named(value.child_by_field_name("arguments"))
                        and callee_name(value.child_by_field_name("function")).startswith("get_")
                    ):
                        context.id_like.add(name)  # auto gid = it.get_global_id();
        for node in source.nodes.get("assign", []):
            target = target_name(node.child_by_field_name("left"))
            if target:
                context.assigned.add(target)

    @staticmethod
    def _typed(context: UnitContext, name: str, type_text: str, array: bool) -> None:
        for pattern, kind in HANDLE_TYPES:
            if pattern.search(type_text):
                context.handles[name] = kind
                dims = _DIMS.search(type_text)
                if dims is not None:
                    context.dims[name] = int(dims.group(1))
                return
        if ID_TYPES.search(type_text):
            context.id_like.add(name)
        if array or ARRAY_TYPES.search(type_text):
            context.arrays.add(name)

    def _variable(self, context: UnitContext, name: str, at_byte: int) -> str:
        """The key of the variable `name` denotes at `at_byte`: the innermost visible local, a
        parameter, a variable of an enclosing unit (a lambda's capture), else the bare name."""
        current: UnitContext | None = context
        for _ in range(16):
            if current is None:
                break
            best = None
            for lo, hi, declared, key in current.scopes.get(name, ()):
                if lo <= at_byte < hi and declared <= at_byte and (best is None or hi - lo < best[1] - best[0]):
                    best = (lo, hi, key)
            if best is not None:
                self._owners[best[2]] = current.source.key
                return best[2]
            if any(p[0] == name for p in current.params):
                return name
            parent = current.source.parent
            current = self._contexts.get(parent) if parent is not None else None
        return name

    def _keys_in(self, node: Node, context: UnitContext) -> set[str]:
        return {self._variable(context, text_of(n), n.start_byte) for n in identifier_nodes(node)}

    def _lookup_handle(self, context: UnitContext | None, name: str) -> str | None:
        depth = 0
        while context is not None and depth < 16:
            if name in context.handles:
                return context.handles[name]
            if name in context.assigned or any(p[0] == name for p in context.params):
                return None
            parent = context.source.parent
            context = self._contexts.get(parent) if parent is not None else None
            depth += 1
        return None

    def _handle(self, node: Node, context: UnitContext | None) -> str | None:
        if node.type == "parenthesized_expression":
            inner = next(iter(named(node)), None)
            return self._handle(inner, context) if inner is not None else None
        if node.type == "identifier":
            return self._lookup_handle(context, text_of(node))
        if node.type != "call_expression":
            return None
        receiver, name, args = self.parts(node)
        if receiver is not None:
            kind = self._handle(receiver, context)
            if kind in ("item", "group") and name == "get_sub_group":
                return "sub-group"
            if kind == "item" and name == "get_group" and not args:
                return "group"
            return None
        return HANDLE_FREE_CALLS.get(name)

    def _propagate_handles(self) -> None:
        """Handles passed into device functions make their parameters handles (templates, `auto`)."""
        for _ in range(8):
            changed = False
            for context in self._contexts.values():
                for call in context.source.nodes.get("call", []):
                    _receiver, _name, args = self.parts(call)
                    for callee in self._resolve(call):
                        target = self._contexts.get(callee)
                        if target is None:
                            continue
                        for index, arg in enumerate(args[: len(target.params)]):
                            kind = self._handle(arg, context)
                            param = target.params[index][0]
                            if kind is not None and param and target.handles.get(param) != kind:
                                target.handles[param] = kind
                                changed = True
            if not changed:
                return

    # -- loops --------------------------------------------------------------------------------

    def _loop_sets(self, context: UnitContext) -> None:
        """Variables each loop assigns, so they change from one iteration to the next. (Variables
        merely declared in the body are recomputed from the others, and are not counted.)"""
        root = context.source.root
        for kind in ("assign", "update"):
            for node in context.source.nodes.get(kind, []):
                target = node.child_by_field_name("left" if kind == "assign" else "argument")
                if target is None or target.type != "identifier":
                    continue
                key = self._variable(context, text_of(target), target.start_byte)
                for loop in self._ancestry.loops(node, root):
                    context.loop_sets.setdefault(key_of(loop), set()).add(key)

    def _varying_at(self, node: Node, context: UnitContext) -> set[str]:
        names = set(context.inherited_varying)
        for loop in self._ancestry.loops(node, context.source.root):
            names |= context.loop_sets.get(key_of(loop), set())
        return names

    def _floors_at(self, node: Node, context: UnitContext) -> dict[str, int]:
        """Lower bounds that enclosing `for` loops keep their counters at: `s > 16` → 17."""
        floors: dict[str, int] = {}
        for loop in self._ancestry.loops(node, context.source.root):
            test = loop.child_by_field_name("condition") if loop.type == "for_statement" else None
            if test is None or test.type != "binary_expression":
                continue
            operator = test.child_by_field_name("operator")
            left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
            op = operator.type if operator is not None else ""
            if left is not None and right is not None and right.type == "identifier" and op in ("<", "<="):
                left, right, op = right, left, {"<": ">", "<=": ">="}[op]
            if left is None or right is None or left.type != "identifier" or op not in (">", ">="):
                continue
            bound = self._constant(text_of(right), right.start_byte)
            key = self._variable(context, text_of(left), left.start_byte)
            if bound is not None and key in context.loop_sets.get(key_of(loop), set()):
                floors[key] = bound + 1 if op == ">" else bound
        return floors

    def _propagate_loop_varying(self) -> None:
        """A device function parameter passed a loop-varying value at a call site varies too (a tree
        reduction's step spread over a helper: `for (s …) step(lid, s);`)."""
        for _ in range(8):
            changed = False
            for context in self._contexts.values():
                for call in context.source.nodes.get("call", []):
                    targets = [self._contexts[k] for k in self._resolve(call) if k in self._contexts]
                    if not targets:
                        continue
                    varying = self._varying_at(call, context)
                    if not varying:
                        continue
                    _receiver, _name, args = self.parts(call)
                    for target in targets:
                        for index, arg in enumerate(args[: len(target.params)]):
                            param = target.params[index][0]
                            if (
                                param
                                and param not in target.inherited_varying
                                and self._keys_in(arg, context) & varying
                            ):
                                target.inherited_varying.add(param)
                                changed = True
            if not changed:
                return

    # -- shared memory and own variables -------------------------------------------------------

    def _own(self, context: UnitContext, key: str) -> bool:
        """Whether `key` is a local or parameter of this unit (not a capture or a global)."""
        if "@" in key:
            return self._owners.get(key) == context.source.key
        return any(p[0] == key for p in context.params)

    def _sharing(self) -> None:
        """Which references name shared memory: locals bound to an element of memory that is not a
        private array (`int& next = l_mem[0]`), and reference parameters never passed a private
        local; and which own variables nested lambdas assign (`escaped`)."""
        for context in self._contexts.values():
            for decl in context.source.nodes.get("decl", []):
                for declarator in decl.children_by_field_name("declarator"):
                    name, reference, _array = declared_name(declarator)
                    value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                    if name and reference and value is not None and self._shared_memory(value, context):
                        context.shared.add(self._variable(context, name, declarator.start_byte))
            for node in context.source.nodes.get("assign", []):
                target = target_name(node.child_by_field_name("left"))
                key = self._variable(context, target, node.start_byte) if target else None
                owner = self._contexts.get(self._owners.get(key)) if key else None  # type: ignore[arg-type]
                if key and owner is not None and owner is not context:
                    owner.escaped.add(key)
                elif (
                    key
                    and key == target
                    and context.source.parent is None
                    and not self._own(context, key)
                    and target not in context.handles
                ):
                    context.stores.add(key)  # `flag = 1` on a captured 0-dim accessor: a store to memory
        private: set[tuple[Key, str]] = set()
        for _ in range(8):
            before = len(private)
            for context in self._contexts.values():
                for call in context.source.nodes.get("call", []):
                    for callee, index, arg in self._reference_bindings(call):
                        key = self._variable(context, text_of(arg), arg.start_byte) if arg.type == "identifier" else ""
                        if arg.type != "identifier" and self._shared_memory(arg, context):
                            continue
                        reference = any(p == (key, True) for p in context.params)
                        if (
                            not key
                            or (self._own(context, key) and key not in context.shared and not reference)
                            or (context.source.key, key) in private
                        ):
                            private.add((callee, self._contexts[callee].params[index][0]))
            if len(private) == before:
                break
        for context in self._contexts.values():
            context.shared |= {
                name
                for name, reference in context.params
                if name and reference and (context.source.key, name) not in private
            }
            context.shared |= context.stores

    def _shared_memory(self, node: Node, context: UnitContext) -> bool:
        """An element of memory reached through a pointer, accessor or parameter, not a private array."""
        if node.type not in ("subscript_expression", "pointer_expression", "field_expression"):
            return False
        base: Node | None = node
        while base is not None and base.type in (
            "subscript_expression",
            "pointer_expression",
            "field_expression",
            "parenthesized_expression",
        ):
            base = base.child_by_field_name("argument") or next(iter(named(base)), None)
        if base is None or base.type != "identifier":
            return False
        key = self._variable(context, text_of(base), base.start_byte)
        return not (text_of(base) in context.arrays and self._own(context, key))

    def _unknown_outputs(self, call: Node, context: UnitContext) -> list[Node]:
        """Own variables declared without a value and handed to a call of a function the file does not
        define, made for its effects (`T out; transform(p, out);`): it writes them through references."""
        if call.parent is None or call.parent.type != "expression_statement" or call.type != "call_expression":
            return []
        receiver, name, args = self.parts(call)
        if (
            receiver is not None
            or name in BARRIERS
            or self._resolve(call)
            or any(self._handle(arg, context) is not None for arg in args[:1])
        ):
            return []
        return [
            arg
            for arg in args
            if arg.type == "identifier"
            and text_of(arg) not in context.handles
            and self._variable(context, text_of(arg), arg.start_byte) in context.uninitialized
        ]

    def _reference_bindings(self, call: Node) -> list[tuple[Key, int, Node]]:
        """(callee, parameter index, argument) for the non-const reference parameters a call binds."""
        found = []
        _receiver, _name, args = self.parts(call)
        for callee in self._resolve(call):
            target = self._contexts.get(callee)
            if target is not None:
                found += [(callee, i, arg) for i, arg in enumerate(args[: len(target.params)]) if target.params[i][1]]
        return found

    # -- lowering -------------------------------------------------------------------------------

    def _lower_unit(self, context: UnitContext) -> None:
        source = context.source
        unit = self.program.unit(source.key, [p[0] for p in context.params], source.parent)
        root = source.root
        flow = context.flow
        assert flow is not None
        if source.parent is not None and root.parent is not None and root.parent.type == "argument_list":
            # a lambda handed to a call (a callback, a visitor): whoever calls it may pass per-lane values
            for name, _reference in context.params:
                if name and name not in context.handles:
                    unit.assign(name, Varying(name))
        flow.lower_definitions(
            unit,
            lambda n: self._lower(n, context),
            lambda d: d.variable.split("@")[0] in context.handles,
            lambda n: self._ancestry.guards(n, root),
        )
        covered = flow.defined_nodes()
        for decl in source.nodes.get("decl", []):  # declarations the walk did not reach
            guards = self._ancestry.guards(decl, root)
            for declarator in decl.children_by_field_name("declarator"):
                declared, _r, _a = declared_name(declarator)
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                if (
                    not declared
                    or value is None
                    or value.type == "lambda_expression"
                    or declared in context.handles
                    or key_of(declarator) in covered
                ):
                    continue
                unit.assign(f"{declared}@{decl.start_byte}", self._lower(value, context), guards)
        for node in source.nodes.get("assign", []):
            target = target_name(node.child_by_field_name("left"), context.arrays)
            right = node.child_by_field_name("right")
            if target is None or right is None or target in context.handles or key_of(node) in covered:
                continue
            operator = node.child_by_field_name("operator")
            key = self._variable(context, target, node.start_byte)
            owner = self._owners.get(key)
            unit.assign(
                key,
                self._lower(right, context),
                self._ancestry.guards(node, root),
                compound=operator is not None and operator.type != "=",
                into=owner if owner != source.key else None,
            )
        for node in source.nodes.get("return", []):
            value = next(iter(named(node)), None)
            if value is not None:
                unit.give_return(self._lower(value, context), self._ancestry.guards(node, root))
        for call in source.nodes.get("call", []) + source.nodes.get("tcall", []):
            callees = [k for k in self._resolve(call) if k in self._contexts]
            if not callees:
                for arg in self._unknown_outputs(call, context):  # `T out; transform(p, out);` sets `out`
                    if key_of(arg) in covered:
                        unit.assign(self._variable(context, text_of(arg), arg.start_byte), self._lower(call, context))
                continue
            _receiver, _name, args = self.parts(call)
            lowered = [self._lower(arg, context) for arg in args]
            for callee in callees:
                callee_context = self._contexts[callee]
                outputs = [
                    (i, self._variable(context, text_of(arg), arg.start_byte))
                    for i, arg in enumerate(args[: len(callee_context.params)])
                    if callee_context.params[i][1] and arg.type == "identifier"
                ]
                unit.bind_call(callee, lowered, self._ancestry.guards(call, root), outputs)
        for kind in ("if", "ternary", "switch", "loop"):
            for node in source.nodes.get(kind, []):
                condition = condition_of(node)
                if condition is None:
                    continue
                expr = self._lower(condition, context)
                floors = self._floors_at(condition, context)
                if kind == "loop":  # its trip count is fixed on entry unless the loop itself moves the bound
                    varying = context.loop_sets.get(key_of(node), set()) | flow.varying(expr, condition, [node])
                else:
                    varying = self._varying_at(condition, context) | flow.varying(
                        expr, condition, self._ancestry.loops(condition, root)
                    )
                unit.condition(
                    node_key(node),
                    expr,
                    self._ancestry.guards(node, root),
                    varying,
                    "loop" if kind == "loop" else kind,
                    {**floors, **flow.floors(expr, floors)},
                )
        flow.lower_variants(unit)


class _Hooks:
    """What the reaching-definitions walk asks about SYCL and the scopes of one unit."""

    def __init__(self, owner: CppDependence, context: UnitContext) -> None:
        self._owner = owner
        self._context = context

    def variable(self, name: str, at_byte: int) -> str | None:
        if name in self._context.handles:
            return None
        key = self._owner._variable(self._context, name, at_byte)
        return key if self._owner._own(self._context, key) or key in self._context.stores else None

    def element_target(self, left: Node) -> str | None:
        name = target_name(left, self._context.arrays)
        return self.variable(name, left.start_byte) if name and left.type != "identifier" else None

    def is_barrier(self, call: Node) -> bool:
        receiver, name, args = self._owner.parts(call)
        if name not in BARRIERS:
            return False
        if receiver is not None:
            return self._owner._handle(receiver, self._context) in ("item", "group")
        return not args or self._owner._handle(args[0], self._context) != "sub-group"

    def reference_arguments(self, call: Node) -> list[Node]:
        return [arg for _callee, _index, arg in self._owner._reference_bindings(call) if arg.type == "identifier"]

    def unknown_outputs(self, call: Node) -> list[Node]:
        return self._owner._unknown_outputs(call, self._context)
