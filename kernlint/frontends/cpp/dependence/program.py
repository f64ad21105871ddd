"""Work-item dependence in SYCL C++ device code: tree-sitter nodes lowered into
`kernlint.analysis.dependence`.

This module knows SYCL; the analysis does not. It decides which names are *handles* (an `nd_item`,
`item`, `h_item`, `group` or `sub_group`, however obtained: typed parameters, the kernel's index
parameter, `it.get_sub_group()`, `this_sub_group()`, arguments passed into device functions), which
calls are id sources (`get_global_id`, `get_local_id`, `…_linear_id`, `get_id`, `it[0]`, the sub-group's
`get_local_id`), which are uniform (group ids, ranges, group collectives such as `reduce_over_group`)
and which vary without being ids (atomic fetches, sub-group block loads). Everything else is lowered
structurally. Each kernel body, device function and nested lambda is one `Unit`.

This module builds the program: declarations and handles, loop-carried variables, shared memory, and
each unit's assignments, calls and conditions. What a name means is `scopes`'s to say; expressions
are lowered by `lowering`; reads go through the reaching definitions of `definitions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kernlint.analysis.dependence import (
    Expr,
    Grade,
    Program,
    Varying,
    names_in,
)
from kernlint.analysis.names import Local, Name, Variable, plain_name
from kernlint.frontends.cpp.dependence.context import UnitContext, UnitSource
from kernlint.frontends.cpp.dependence.definitions import UnitFlow
from kernlint.frontends.cpp.dependence.lowering import ExpressionLowering
from kernlint.frontends.cpp.dependence.nodes import (
    Ancestry,
    Key,
    Node,
    callee_name,
    condition_of,
    declared_name,
    is_const,
    key_of,
    named,
    node_key,
    parameters_of,
    scope_node,
    target_name,
    text_of,
)
from kernlint.frontends.cpp.dependence.scopes import Scopes
from kernlint.frontends.cpp.dependence.sycl_calls import ARRAY_TYPES, BARRIERS, HANDLE_TYPES, ID_TYPES

_DIMS = re.compile(r"<\s*([1-3])\s*>")  # the dimensions of an `nd_item<2>` handle


class CppDependence:
    """Builds and solves the dependence program of a file's device code."""

    def __init__(
        self,
        units: list[UnitSource],
        resolve: Callable[[Node], list[Key]],
        constant: Callable[[str, int], int | None],
        root: Node | None = None,
        work_group_macro: Callable[[str], bool] | None = None,
    ) -> None:
        """`work_group_macro`: whether a parameterless function-like macro of that name is a work-group
        barrier (`#define syncthreads() item.barrier(…)`), which orders shared memory as one."""
        self._resolve = resolve
        self.work_group_macro = work_group_macro
        self._contexts: dict[Key, UnitContext] = {u.key: UnitContext(u) for u in units}
        self.scopes = Scopes(self._contexts, resolve, constant)
        self._lowering = ExpressionLowering(self.scopes)
        self._ancestry = Ancestry(root)  # `root`: the file's tree, for parents found by a walk down
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

    # -- queries ------------------------------------------------------------------------------

    @property
    def too_deep(self) -> dict[int, Node]:
        """The parts of expressions nested deeper than the lowering reads, by position (see `lowering`)."""
        return self._lowering.too_deep

    def grade(self, node: Node) -> Grade | None:
        """The grade of a condition statement/expression registered by `_lower_unit`."""
        owner = self._ancestry.owner(node)
        if owner is None or key_of(owner) not in self._contexts:
            return None
        return self.program.grade(key_of(owner), node_key(node))

    def parent_of(self, node: Node) -> Node | None:
        """`node.parent`, remembered (tree-sitter finds a parent by walking down from the root)."""
        return self._ancestry.parent_of(node)

    def context_of(self, node: Node) -> UnitContext | None:
        """The unit (kernel body, device function, lambda) whose code holds `node`."""
        owner = self._ancestry.owner(node)
        return self._contexts.get(key_of(owner)) if owner is not None else None

    def lower(self, node: Node, context: UnitContext) -> Expr:
        """An expression of `context`'s code in the analysis' terms, its reads resolved as the program's."""
        return self._lowering.lower(node, context)

    def loops_around(self, node: Node, context: UnitContext) -> tuple[Node, ...]:
        """The loops around `node` in its unit, innermost first."""
        return self._ancestry.loops(node, context.source.root)

    def handle_kind(self, node: Node | None) -> str | None:
        """item | group | sub-group when `node` (in device code) denotes such a handle."""
        if node is None:
            return None
        owner = self._ancestry.owner(node)
        context = self._contexts.get(key_of(owner)) if owner is not None else None
        return self.scopes.handle(node, context) if context is not None else None

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
                    (scope.start_byte, scope.end_byte, decl.start_byte, Local(name, decl.start_byte))
                )
                if declarator.type != "init_declarator":
                    context.uninitialized.add(Local(name, decl.start_byte))
                self._typed(context, name, type_text, array)
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                if value is not None and type_text.strip() == "auto":
                    handle = self.scopes.handle(value, context)
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

    def _propagate_handles(self) -> None:
        """Handles passed into device functions make their parameters handles (templates, `auto`)."""
        for _ in range(8):
            changed = False
            for context in self._contexts.values():
                for call in context.source.nodes.get("call", []):
                    _receiver, _name, args = self.scopes.parts(call)
                    for callee in self._resolve(call):
                        target = self._contexts.get(callee)
                        if target is None:
                            continue
                        for index, arg in enumerate(args[: len(target.params)]):
                            kind = self.scopes.handle(arg, context)
                            param = target.params[index][0]
                            if kind is not None and param and target.handles.get(param) != kind:
                                target.handles[param] = kind
                                changed = True
            if not changed:
                return

    # -- loops --------------------------------------------------------------------------------

    def _loop_sets(self, context: UnitContext) -> None:
        """Variables each loop assigns, so they change from one iteration to the next. (Variables
        merely declared in the body are recomputed from the others, and are not counted.) And which of
        them loops only ever halve or double (`s >>= 1`, `d *= 2`): a bound of those shrinks the lanes
        geometrically, one stepped by a constant lets them leave one iteration apart."""
        root = context.source.root
        stepped: set[Variable] = set()
        halved: set[Variable] = set()
        for kind in ("assign", "update"):
            for node in context.source.nodes.get(kind, []):
                target = node.child_by_field_name("left" if kind == "assign" else "argument")
                if target is None or target.type != "identifier":
                    continue
                key = self.scopes.variable(context, text_of(target), target.start_byte)
                loops = self._ancestry.loops(node, root)
                for loop in loops:
                    context.loop_sets.setdefault(key_of(loop), set()).add(key)
                if loops and not _in_initializer(node, loops[0]):
                    direction = _scaling(node) if kind == "assign" else None
                    (context.geometric if direction else stepped).add(key)
                    (context.doubling if direction == "doubles" else halved).add(key)
        context.geometric -= stepped
        context.doubling -= stepped | halved

    def _varying_at(self, node: Node, context: UnitContext) -> set[Variable]:
        names: set[Variable] = set(context.inherited_varying)
        for loop in self._ancestry.loops(node, context.source.root):
            names |= context.loop_sets.get(key_of(loop), set())
        return names

    def _floors_at(self, node: Node, context: UnitContext) -> dict[Name, int]:
        """Lower bounds that enclosing `for` loops keep their counters at: `s > 16` → 17."""
        floors: dict[Name, int] = {}
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
            bound = self.scopes.constant(text_of(right), right.start_byte)
            key = self.scopes.variable(context, text_of(left), left.start_byte)
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
                    _receiver, _name, args = self.scopes.parts(call)
                    for target in targets:
                        for index, arg in enumerate(args[: len(target.params)]):
                            param = target.params[index][0]
                            moving = self.scopes.keys_in(arg, context) & varying
                            if param and param not in target.inherited_varying and moving:
                                target.inherited_varying.add(param)
                                if moving <= context.geometric:  # the loop's halving stride, handed down
                                    target.geometric.add(param)
                                if moving <= context.doubling:
                                    target.doubling.add(param)
                                changed = True
            if not changed:
                return

    # -- shared memory and own variables -------------------------------------------------------

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
                        context.shared.add(self.scopes.variable(context, name, declarator.start_byte))
            for node in context.source.nodes.get("assign", []):
                target = target_name(node.child_by_field_name("left"))
                key = self.scopes.variable(context, target, node.start_byte) if target else None
                owner = self._contexts.get(self.scopes.owners.get(key)) if key else None  # type: ignore[arg-type]
                if key and owner is not None and owner is not context:
                    owner.escaped.add(key)
                elif (
                    key
                    and key == target
                    and context.source.parent is None
                    and not self.scopes.own(context, key)
                    and target not in context.handles
                ):
                    context.stores.add(key)  # `flag = 1` on a captured 0-dim accessor: a store to memory
        private: set[tuple[Key, str]] = set()
        for _ in range(8):
            before = len(private)
            for context in self._contexts.values():
                for call in context.source.nodes.get("call", []):
                    for callee, index, arg in self._reference_bindings(call):
                        key = (
                            self.scopes.variable(context, text_of(arg), arg.start_byte)
                            if arg.type == "identifier"
                            else ""
                        )
                        if arg.type != "identifier" and self._shared_memory(arg, context):
                            continue
                        reference = any(p == (key, True) for p in context.params)
                        if (
                            not key
                            or (self.scopes.own(context, key) and key not in context.shared and not reference)
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
        key = self.scopes.variable(context, text_of(base), base.start_byte)
        return not (text_of(base) in context.arrays and self.scopes.own(context, key))

    def _unknown_outputs(self, call: Node, context: UnitContext) -> list[Node]:
        """Own variables declared without a value and handed to a call of a function the file does not
        define, made for its effects (`T out; transform(p, out);`): it writes them through references."""
        if call.parent is None or call.parent.type != "expression_statement" or call.type != "call_expression":
            return []
        receiver, name, args = self.scopes.parts(call)
        if (
            receiver is not None
            or name in BARRIERS
            or self._resolve(call)
            or any(self.scopes.handle(arg, context) is not None for arg in args[:1])
        ):
            return []
        return [
            arg
            for arg in args
            if arg.type == "identifier"
            and text_of(arg) not in context.handles
            and self.scopes.variable(context, text_of(arg), arg.start_byte) in context.uninitialized
        ]

    def _reference_bindings(self, call: Node) -> list[tuple[Key, int, Node]]:
        """(callee, parameter index, argument) for the non-const reference parameters a call binds."""
        found = []
        _receiver, _name, args = self.scopes.parts(call)
        for callee in self._resolve(call):
            target = self._contexts.get(callee)
            if target is not None:
                found += [(callee, i, arg) for i, arg in enumerate(args[: len(target.params)]) if target.params[i][1]]
        return found

    # -- lowering -------------------------------------------------------------------------------

    def _sizes(self, source: UnitSource) -> tuple[int | None, int | None]:
        """The work-group and sub-group sizes a unit runs with: its kernel's (a lambda inside a kernel
        runs with the kernel's); None for a device function, which several kernels may call."""
        seen = 0
        while source.parent is not None and source.parent in self._contexts and seen < 16:
            source = self._contexts[source.parent].source
            seen += 1
        return source.group_size, source.sub_group

    def _lower_unit(self, context: UnitContext) -> None:
        source = context.source
        unit = self.program.unit(source.key, [p[0] for p in context.params], source.parent, *self._sizes(source))
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
            lambda n: self._lowering.lower(n, context),
            lambda d: plain_name(d.variable) in context.handles,
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
                unit.assign(Local(declared, decl.start_byte), self._lowering.lower(value, context), guards)
        for node in source.nodes.get("assign", []):
            target = target_name(node.child_by_field_name("left"), context.arrays)
            right = node.child_by_field_name("right")
            if target is None or right is None or target in context.handles or key_of(node) in covered:
                continue
            operator = node.child_by_field_name("operator")
            key = self.scopes.variable(context, target, node.start_byte)
            owner = self.scopes.owners.get(key)
            unit.assign(
                key,
                self._lowering.lower(right, context),
                self._ancestry.guards(node, root),
                compound=operator is not None and operator.type != "=",
                into=owner if owner != source.key else None,
            )
        for node in source.nodes.get("return", []):
            value = next(iter(named(node)), None)
            if value is not None:
                unit.give_return(self._lowering.lower(value, context), self._ancestry.guards(node, root))
        for call in source.nodes.get("call", []) + source.nodes.get("tcall", []):
            callees = [k for k in self._resolve(call) if k in self._contexts]
            if not callees:
                for arg in self._unknown_outputs(call, context):  # `T out; transform(p, out);` sets `out`
                    if key_of(arg) in covered:
                        variable = self.scopes.variable(context, text_of(arg), arg.start_byte)
                        unit.assign(flow.reference_output(arg, variable), self._lowering.lower(call, context))
                continue
            _receiver, _name, args = self.scopes.parts(call)
            lowered = [self._lowering.lower(arg, context) for arg in args]
            for callee in callees:
                callee_context = self._contexts[callee]
                outputs = [
                    (i, flow.reference_output(arg, self.scopes.variable(context, text_of(arg), arg.start_byte)))
                    for i, arg in enumerate(args[: len(callee_context.params)])
                    if callee_context.params[i][1] and arg.type == "identifier"
                ]
                unit.bind_call(callee, lowered, self._ancestry.guards(call, root), outputs)
        for kind in ("if", "ternary", "switch", "loop"):
            for node in source.nodes.get(kind, []):
                condition = condition_of(node)
                if condition is None:
                    continue
                expr = self._lowering.lower(condition, context)
                names = names_in(expr)  # the program variables it reads, asked of below four times
                floors = self._floors_at(condition, context)
                if kind == "loop":  # its trip count is fixed on entry unless the loop itself moves the bound
                    varying = context.loop_sets.get(key_of(node), set()) | flow.varying(names, [node])
                else:
                    varying = self._varying_at(condition, context) | flow.varying(
                        names, self._ancestry.loops(condition, root)
                    )
                unit.condition(
                    node_key(node),
                    expr,
                    self._ancestry.guards(node, root),
                    varying,
                    "loop" if kind == "loop" else kind,
                    {**floors, **flow.floors(names, floors)},
                    flow.of_variables(names, context.geometric),
                    flow.of_variables(names, context.doubling),
                )
        flow.lower_variants(unit)


def _in_initializer(node: Node, loop: Node) -> bool:
    """Whether `node` sits in the `for` loop's initializer (`for (s = wg / 2; …)`), which runs once."""
    initializer = loop.child_by_field_name("initializer")
    return initializer is not None and initializer.start_byte <= node.start_byte < initializer.end_byte


_SCALING = {">>=": "halves", "/=": "halves", "<<=": "doubles", "*=": "doubles"}
_SCALED_BY = {">>": "halves", "/": "halves", "<<": "doubles", "*": "doubles"}


def _scaling(assignment: Node) -> str | None:
    """ "halves" for `s >>= 1`, `s /= 2`, `s = s >> 1`; "doubles" for `d *= 2`, `d = d << 1`: an update
    that scales its variable, and which way; None for any other."""
    operator = assignment.child_by_field_name("operator")
    if operator is not None and operator.type in _SCALING:
        return _SCALING[operator.type]
    right = assignment.child_by_field_name("right")
    target = text_of(assignment.child_by_field_name("left"))
    if operator is None or operator.type != "=" or right is None or right.type != "binary_expression":
        return None
    scale = right.child_by_field_name("operator")
    if scale is None or scale.type not in _SCALED_BY or text_of(right.child_by_field_name("left")) != target:
        return None
    return _SCALED_BY[scale.type]


class _Hooks:
    """What the reaching-definitions walk asks about SYCL and the scopes of one unit."""

    def __init__(self, owner: CppDependence, context: UnitContext) -> None:
        self._owner = owner
        self._context = context

    def variable(self, name: str, at_byte: int) -> Variable | None:
        if name in self._context.handles:
            return None
        key = self._owner.scopes.variable(self._context, name, at_byte)
        return key if self._owner.scopes.own(self._context, key) or key in self._context.stores else None

    def element_target(self, left: Node) -> Variable | None:
        name = target_name(left, self._context.arrays)
        return self.variable(name, left.start_byte) if name and left.type != "identifier" else None

    def is_barrier(self, call: Node) -> bool:
        receiver, name, args = self._owner.scopes.parts(call)
        if name not in BARRIERS:
            macro = self._owner.work_group_macro
            return receiver is None and not args and name is not None and macro is not None and macro(name)
        if receiver is not None:
            return self._owner.scopes.handle(receiver, self._context) in ("item", "group")
        return not args or self._owner.scopes.handle(args[0], self._context) != "sub-group"

    def reference_arguments(self, call: Node) -> list[Node]:
        return [arg for _callee, _index, arg in self._owner._reference_bindings(call) if arg.type == "identifier"]

    def unknown_outputs(self, call: Node) -> list[Node]:
        return self._owner._unknown_outputs(call, self._context)
