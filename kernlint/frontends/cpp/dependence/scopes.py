"""What a name means in one unit of SYCL device code (a kernel body, a device function, a lambda inside
one): a handle (an `nd_item`, `item`, `group` or `sub_group`, however obtained), a variable (the
innermost visible local, a parameter, a capture of an enclosing unit), a file constant; and each call's
parts, read once. The program builder (`program`) and the lowering of expressions (`lowering`) ask one
`Scopes` per file."""

from __future__ import annotations

from collections.abc import Callable

from kernlint.analysis.names import Local, Variable
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.nodes import Key, Node, call_parts, identifier_nodes, named, text_of
from kernlint.frontends.cpp.dependence.sycl_calls import HANDLE_FREE_CALLS

_MAX_NESTING = 16  # enclosing units searched for a name (lambdas in lambdas)


class Scopes:
    """The units of a file's device code (`contexts`), and what each name means in them."""

    def __init__(
        self,
        contexts: dict[Key, UnitContext],
        resolve: Callable[[Node], list[Key]],
        constant: Callable[[str, int], int | None],
    ) -> None:
        self.contexts = contexts
        self.resolve = resolve  # a call -> the units it may call
        self.owners: dict[Variable, Key] = {}  # a local -> the unit that declares it (as looked up)
        self._constant_at = constant
        self._constants: dict[tuple[str, Key], int | None] = {}
        self._call_parts: dict[int, tuple[Node | None, str, list[Node]]] = {}

    def constant(self, name: str, at_byte: int, unit: Key | None = None) -> int | None:
        """A file-level constant's value; names not declared in a unit resolve the same anywhere in it."""
        if unit is None:
            return self._constant_at(name, at_byte)
        if (name, unit) not in self._constants:
            self._constants[(name, unit)] = self._constant_at(name, at_byte)
        return self._constants[(name, unit)]

    def parts(self, call: Node) -> tuple[Node | None, str, list[Node]]:
        """`call_parts(call)`, read once per call: every pass over the units asks again."""
        found = self._call_parts.get(call.id)
        if found is None:
            found = self._call_parts[call.id] = call_parts(call)
        return found

    # -- variables --------------------------------------------------------------------------------

    def variable(self, context: UnitContext, name: str, at_byte: int) -> Variable:
        """The variable `name` denotes at `at_byte`: the innermost visible local, a parameter, a
        variable of an enclosing unit (a lambda's capture), else the bare name."""
        current: UnitContext | None = context
        for _ in range(_MAX_NESTING):
            if current is None:
                break
            best = None
            for lo, hi, declared, key in current.scopes.get(name, ()):
                if lo <= at_byte < hi and declared <= at_byte and (best is None or hi - lo < best[1] - best[0]):
                    best = (lo, hi, key)
            if best is not None:
                self.owners[best[2]] = current.source.key
                return best[2]
            if any(p[0] == name for p in current.params):
                return name
            parent = current.source.parent  # the unit around it (a lambda's enclosing code)
            current = self.contexts.get(parent) if parent is not None else None
        return name

    def keys_in(self, node: Node, context: UnitContext) -> set[Variable]:
        """The variables a small expression reads."""
        return {self.variable(context, text_of(n), n.start_byte) for n in identifier_nodes(node)}

    def own(self, context: UnitContext, key: Variable) -> bool:
        """Whether `key` is a local or parameter of this unit (not a capture or a global)."""
        if isinstance(key, Local):
            return self.owners.get(key) == context.source.key
        return any(p[0] == key for p in context.params)

    # -- handles ----------------------------------------------------------------------------------

    def lookup_handle(self, context: UnitContext | None, name: str) -> str | None:
        """item | group | sub-group when `name` names such a handle in `context` or a unit around it."""
        depth = 0
        while context is not None and depth < _MAX_NESTING:
            if name in context.handles:
                return context.handles[name]
            if name in context.assigned or any(p[0] == name for p in context.params):
                return None
            parent = context.source.parent
            context = self.contexts.get(parent) if parent is not None else None
            depth += 1
        return None

    def lookup_dims(self, context: UnitContext | None, name: str) -> int | None:
        """The dimensions of the handle `name` (`nd_item<2>`: 2), when its type says."""
        depth = 0
        while context is not None and depth < _MAX_NESTING:
            if name in context.handles:
                return context.dims.get(name)
            parent = context.source.parent
            context = self.contexts.get(parent) if parent is not None else None
            depth += 1
        return None

    def handle(self, node: Node, context: UnitContext | None) -> str | None:
        """item | group | sub-group when the expression `node` denotes such a handle."""
        if node.type == "parenthesized_expression":
            inner = next(iter(named(node)), None)
            return self.handle(inner, context) if inner is not None else None
        if node.type == "identifier":
            return self.lookup_handle(context, text_of(node))
        if node.type != "call_expression":
            return None
        receiver, name, args = self.parts(node)
        if receiver is not None:
            kind = self.handle(receiver, context)
            if kind in ("item", "group") and name == "get_sub_group":
                return "sub-group"
            if kind == "item" and name == "get_group" and not args:
                return "group"
            return None
        return HANDLE_FREE_CALLS.get(name)
