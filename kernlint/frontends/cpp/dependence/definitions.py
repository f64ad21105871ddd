"""Reads of a C++ device unit's own variables through the definitions that reach them.

`UnitFlow` runs the reaching-definitions walk (`kernlint.frontends.cpp.dependence.flow`) over one unit and
turns each read into the `Phi` of the definitions that reach it. Each definition is a variable of
the dependence program of its own (its key), and a read outside a branch (or loop) that holds the
definition also depends on that branch's condition: inside the branch every active lane took the
same path, after it the lanes that did not hold the older value. Those reads name a *variant* of
the definition, assigned with the guarding conditions.

What a definition of another kind stands for: `ENTRY` (on entry to the unit) is the parameter's
value, or an uninitialised local; `BARRIER` (shared memory right after a work-group barrier) is the
same for the whole group; a definition through a reference argument of a call is the value that
reaches the argument joined with what the callee leaves in its parameter (the call's output, which
`reference_output` names), never every definition of the variable anywhere in the unit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from kernlint.analysis.dependence import Binary, Const, Expr, Phi, Uniform, Unit, Var
from kernlint.analysis.names import DefinitionKey, Name, Variable, VariantKey, definition_of
from kernlint.analysis.reaching import BARRIER, source_order
from kernlint.frontends.cpp.dependence.flow import Definition, Hooks, Walk
from kernlint.frontends.cpp.dependence.nodes import LOOPS, UNIT_TYPES, Node, key_of, node_key, text_of

_ARMS = {
    "if_statement": ("consequence", "alternative"),
    "conditional_expression": ("consequence", "alternative"),
    "switch_statement": ("body",),
}


def _contains(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def guard_arms(node: Node, root: Node) -> list[tuple[Node, Node]]:
    """(guarding statement, the part of it that holds `node`) for every if / ?: / switch arm and loop
    body (or `for` increment) around `node`, within its unit."""
    arms = []
    child, parent = node, node.parent
    while parent is not None and parent != root and parent.type not in UNIT_TYPES:
        fields = _ARMS.get(parent.type)
        if fields:
            for name in fields:
                arm = parent.child_by_field_name(name)
                if arm is not None and key_of(arm) == key_of(child):
                    arms.append((parent, arm))
        elif parent.type in LOOPS:
            body, update = parent.child_by_field_name("body"), parent.child_by_field_name("update")
            if any(part is not None and key_of(part) == key_of(child) for part in (body, update)):
                arms.append((parent, parent))  # read anywhere in the loop: the lanes still iterate
        child, parent = parent, parent.parent
    return arms


class UnitFlow:
    """The reaching definitions of one unit and the program variables that stand for them."""

    def __init__(
        self,
        root: Node,
        body: Node | None,
        hooks: Hooks,
        shared: set[Variable],
        params: set[str],
        escaped: set[Variable],
    ) -> None:
        self.root = root
        self.params = params
        self.escaped = escaped  # variables that nested lambdas or reference outputs also write
        self.walk = Walk(hooks, set(shared))
        if body is not None:
            self.walk.run(body)
        self._variants: dict[VariantKey, None] = {}  # those the reads asked for, in the order they did
        self._arms: dict[DefinitionKey, list[tuple[Node, Node]]] = {}

    def variable_at(self, node: Node) -> Variable | None:
        """The own variable the walk saw read at the identifier `node` (None: no read seen there: read
        the variable flow-insensitively)."""
        return self.walk.variables.get(key_of(node))

    def read(self, node: Node, variable: Variable) -> Expr:
        """The value of `variable` read at the identifier `node`."""
        reaching = self.walk.uses.get(key_of(node), ())
        if len(reaching) == 1 and variable not in self.escaped:  # most reads: one definition, no sort
            for key in reaching:
                return self._option(key, node, variable)
        options = [self._option(key, node, variable) for key in sorted(reaching, key=source_order)]
        if variable in self.escaped:
            options.append(Var(variable))
        unique = list(dict.fromkeys(options))
        return unique[0] if len(unique) == 1 else Phi(tuple(unique))

    def _option(self, key: Hashable, node: Node, variable: Variable) -> Expr:
        """What one definition reaching the read at `node` stands for."""
        if isinstance(key, DefinitionKey):
            return self._variant(self.walk.defs[key], node)
        if key == BARRIER:
            return Uniform("shared memory after a barrier")
        return Var(variable) if variable in self.params else Const(None)  # ENTRY

    def _variant(self, definition: Definition, use: Node) -> Var:
        arms = self._arms.get(definition.key)
        if arms is None:
            arms = self._arms[definition.key] = guard_arms(definition.node, self.root)
        if not arms:  # a definition outside every branch and loop: read as it is
            return Var(definition.key)
        guards = tuple(node_key(guard) for guard, arm in arms if not _contains(arm, use))
        if not guards:
            return Var(definition.key)
        variant = VariantKey(definition.key, guards)
        self._variants[variant] = None
        return Var(variant)

    def lower_definitions(
        self,
        unit: Unit,
        lower: Callable[[Node | None], Expr],
        skip: Callable[[Definition], bool],
        guards: Callable[[Node], tuple],
    ) -> None:
        """Each definition as an assignment of its own program variable, and of the variable's
        flow-insensitive value (read by nested lambdas). A reference argument's definition starts from
        the value reaching the argument; the call's output joins it (`reference_output`)."""
        for definition in self.walk.defs.values():
            if skip(definition):
                continue
            if definition.how == "reference":
                value: Expr | None = self.read(definition.node, definition.variable)
            else:
                value = _value(definition, lower)
            if value is None:
                continue
            unit.assign(definition.key, value)
            unit.assign(definition.variable, Var(definition.key), guards(definition.node))

    def reference_output(self, argument: Node, variable: Variable) -> Name:
        """The program variable a call's output through the reference `argument` assigns: the
        definition the walk made there, or (where the walk did not see the call) the variable."""
        key = DefinitionKey(variable, argument.start_byte, "reference")
        return key if key in self.walk.defs else variable

    def _definition(self, name: Name) -> Definition | None:
        """The definition of this unit a program variable stands for, if it stands for one."""
        key = definition_of(name)
        return self.walk.defs.get(key) if key is not None else None

    def lower_variants(self, unit: Unit) -> None:
        """The variants the reads asked for (call after every read is lowered)."""
        for variant in self._variants:
            unit.assign(variant, Var(variant.definition), variant.apart)

    def defined_nodes(self) -> set[tuple[int, int]]:
        return {key_of(d.node) for d in self.walk.defs.values()}

    def varying(self, names: Iterable[Name], loops: Sequence[Node]) -> set[Name]:
        """The program variables of `names` (those an expression reads) whose definitions the `loops`
        repeat: an assignment or update in a loop's body or increment. (A declaration in the body is
        computed afresh from the others each time, and is not counted.)"""
        found: set[Name] = set()
        for name in names:
            definition = self._definition(name)
            if definition is None or definition.how == "init":
                continue
            for loop in loops:
                parts = (
                    loop.child_by_field_name("body"),
                    loop.child_by_field_name("update"),
                    loop.child_by_field_name("condition"),
                )
                if any(part is not None and _contains(part, definition.node) for part in parts):
                    found.add(name)
        return found

    def of_variables(self, names: Iterable[Name], variables: set[Variable]) -> set[Name]:
        """The program variables of `names` (those an expression reads) that stand for `variables` or
        for definitions of them."""
        found: set[Name] = set()
        for name in names:
            definition = self._definition(name)
            if name in variables or (definition is not None and definition.variable in variables):
                found.add(name)
        return found

    def floors(self, names: Iterable[Name], by_variable: Mapping[Name, int]) -> dict[Name, int]:
        """`by_variable` floors carried over to the definitions of those variables among `names` (those
        an expression reads)."""
        found: dict[Name, int] = {}
        for name in names:
            definition = self._definition(name)
            if definition is not None and definition.variable in by_variable:
                found[name] = by_variable[definition.variable]
        return found


def _value(definition: Definition, lower: Callable[[Node | None], Expr]) -> Expr | None:
    node = definition.node
    if definition.how == "init":
        value = node.child_by_field_name("value")
        return lower(value) if value is not None and value.type != "lambda_expression" else None
    if definition.how == "update":
        return Binary("+", lower(node.child_by_field_name("argument")), Const(1))
    operator = node.child_by_field_name("operator")
    right = lower(node.child_by_field_name("right"))
    if operator is None or operator.type == "=" or definition.how == "element":
        return right
    op = text_of(operator)[:-1]
    return Binary(op, lower(node.child_by_field_name("left")), right)
