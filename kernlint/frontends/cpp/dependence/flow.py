"""Reaching definitions in one C++ device unit (a kernel body, device function or lambda): a walk of
its statements in evaluation order that drives `kernlint.analysis.reaching.Flow`.

The walker knows C++ control flow (blocks, if / else, ?:, && and ||, switch and case fall-through,
for / while / do / range-for loops, break / continue / return) and which nodes define a variable: a
declarator with an initialiser, an assignment (a compound one reads the old value first), `++` and
`--`, a store into an element of a private array, and a reference argument of a call into device
code (a weak definition: the callee may or may not write it). What counts as a variable, a barrier
or a reference argument is asked of the caller (`Hooks`), which knows SYCL and the scopes.

Nested lambdas are units of their own and are not walked. `Walk.uses` maps each identifier node read
to the definitions that reach it; `Walk.defs` describes each definition.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Protocol

from kernlint.analysis.names import DefinitionKey, Variable
from kernlint.analysis.reaching import ENTRY, Flow, Steps, drive
from kernlint.frontends.cpp.dependence.nodes import Node, declared_name, key_of, named, text_of

_LOOP_TYPES = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})
# Nodes an expression walk reads nothing from.
_NOT_READ = frozenset(
    {
        "lambda_expression",
        "field_identifier",
        "type_identifier",
        "primitive_type",
        "template_argument_list",
        "sizeof_expression",
        "number_literal",
        "string_literal",
        "char_literal",
        "true",
        "false",
        "null",
    }
)


@dataclass(frozen=True)
class Definition:
    """One definition: the variable, the node that makes it (declarator, assignment, update or call
    argument) and how (`init`, `assign`, `update`, `element`, `reference`)."""

    key: DefinitionKey
    variable: Variable
    node: Node
    how: str


class Hooks(Protocol):
    def variable(self, name: str, at_byte: int) -> Variable | None:
        """The key of the unit's own variable `name` denotes at `at_byte` (None: not one of its own)."""

    def element_target(self, left: Node) -> Variable | None:
        """For `a[k] = …` / `s.x = …` on a private aggregate of the unit, its variable key."""

    def is_barrier(self, call: Node) -> bool:
        """Whether the call is a work-group barrier."""

    def reference_arguments(self, call: Node) -> list[Node]:
        """Identifier arguments the call may write through a reference parameter."""

    def unknown_outputs(self, call: Node) -> list[Node]:
        """Variables a call of unknown code is likely to set (declared without a value, passed to it)."""


@dataclass
class Walk:
    """The reaching definitions of one unit."""

    hooks: Hooks
    shared: set[Variable] = field(default_factory=set)
    defs: dict[DefinitionKey, Definition] = field(default_factory=dict)
    # an identifier read -> the definitions that reach it (`DefinitionKey`s, `ENTRY`, `BARRIER`)
    uses: dict[tuple[int, int], frozenset[Hashable]] = field(default_factory=dict)

    def run(self, body: Node) -> None:
        self._flow = Flow(shared=set(self.shared))
        drive(self._statement(body))
        self._flow.finish()
        self.uses = dict(self._flow.uses)  # type: ignore[arg-type]

    # -- definitions and uses -------------------------------------------------------------------

    def _define(self, variable: Variable, node: Node, how: str, strong: bool = True) -> None:
        key = DefinitionKey(variable, node.start_byte, how)
        self.defs[key] = Definition(key, variable, node, how)
        self._flow.define(variable, key, strong)

    def _use(self, node: Node) -> Variable | None:
        text = node.text  # read once (a property that copies the bytes); a missing identifier's is b""
        variable = (
            self.hooks.variable(text.decode("utf-8", errors="replace"), node.start_byte) if text is not None else None
        )
        if variable is not None:
            self._flow.use(variable, key_of(node))
        return variable

    # -- statements (each a walk that yields the walks of what it holds: see `reaching.drive`) -------

    def _statement(self, node: Node | None) -> Steps:
        if node is None:
            return
        kind = node.type
        if kind == "if_statement":
            yield self._if(node)
        elif kind in _LOOP_TYPES:
            yield self._loop(node)
        elif kind == "switch_statement":
            yield self._switch(node)
        elif kind in ("return_statement", "break_statement", "continue_statement"):
            for child in named(node):
                yield self._expression(child)
            self._flow.jump({"return_statement": "return", "break_statement": "break"}.get(kind, "continue"))
        elif kind == "declaration":
            yield self._declaration(node)
        elif kind in (
            "compound_statement",
            "labeled_statement",
            "else_clause",
            "condition_clause",
            "case_statement",
            "expression_statement",
            "init_statement",
        ):
            for child in named(node):
                yield self._statement(child) if _is_statement(child) else self._expression(child)
        elif kind not in ("lambda_expression", "comment", "goto_statement"):
            yield self._expression(node)

    def _declaration(self, node: Node) -> Steps:
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
            if value is None:
                continue
            yield self._expression(value)
            name, _reference, _array = declared_name(declarator)
            variable = self.hooks.variable(name, declarator.start_byte + 1) if name else None
            if variable is not None:
                self._define(variable, declarator, "init")

    def _if(self, node: Node) -> Steps:
        yield self._statement(node.child_by_field_name("condition"))
        saved = self._flow.fork()
        yield self._statement(node.child_by_field_name("consequence"))
        taken = self._flow.fork()
        self._flow.restore(saved)
        yield self._statement(node.child_by_field_name("alternative"))
        self._flow.merge(taken)

    def _loop(self, node: Node) -> Steps:
        body = node.child_by_field_name("body")
        condition = node.child_by_field_name("condition")
        if node.type == "for_statement":
            for initializer in node.children_by_field_name("initializer"):
                yield self._statement(initializer)
            update = node.child_by_field_name("update")
            yield self._flow.looping(
                lambda: self._statement(body),
                (lambda: self._expression(condition)) if condition is not None else None,
                (lambda: self._expression(update)) if update is not None else None,
                key=key_of(node),
            )
        elif node.type == "for_range_loop":
            yield self._expression(node.child_by_field_name("right"))
            yield self._flow.looping(lambda: self._statement(body), lambda: self._statement(None), key=key_of(node))
        else:
            yield self._flow.looping(
                lambda: self._statement(body),
                lambda: self._statement(condition),
                test_first=node.type != "do_statement",
                key=key_of(node),
            )

    def _switch(self, node: Node) -> Steps:
        yield self._statement(node.child_by_field_name("condition"))
        body = node.child_by_field_name("body")
        cases = [c for c in named(body) if c.type == "case_statement"]
        has_default = any(c.child_by_field_name("value") is None for c in cases)

        def run() -> Steps:
            saved = self._flow.fork()
            self._flow.restore(None)
            for case in cases:
                self._flow.merge(saved)  # entered from the switch, or falling through
                for child in named(case)[1 if case.child_by_field_name("value") is not None else 0 :]:
                    yield self._statement(child) if _is_statement(child) else self._expression(child)
            if not has_default:
                self._flow.merge(saved)

        yield self._flow.blocking(run)

    # -- expressions ------------------------------------------------------------------------------

    def _expression(self, node: Node | None) -> Steps:
        if node is None:
            return
        kind = node.type
        if kind == "identifier":
            self._use(node)
        elif kind == "assignment_expression":
            yield self._assignment(node)
        elif kind == "update_expression":
            target = node.child_by_field_name("argument")
            yield self._expression(target)
            variable = (
                self.hooks.variable(text_of(target), target.start_byte)
                if target is not None and target.type == "identifier" and target.text is not None
                else None
            )
            if variable is not None:
                self._define(variable, node, "update")
        elif kind == "conditional_expression":
            yield self._expression(node.child_by_field_name("condition"))
            saved = self._flow.fork()
            yield self._expression(node.child_by_field_name("consequence"))
            taken = self._flow.fork()
            self._flow.restore(saved)
            yield self._expression(node.child_by_field_name("alternative"))
            self._flow.merge(taken)
        elif kind == "binary_expression" and _operator(node) in ("&&", "||", "and", "or"):
            yield self._expression(node.child_by_field_name("left"))
            saved = self._flow.fork()
            yield self._expression(node.child_by_field_name("right"))
            self._flow.merge(saved)
        elif kind == "call_expression":
            for child in named(node):
                yield self._expression(child)
            if self.hooks.is_barrier(node):
                self._flow.barrier()
            for argument in self.hooks.reference_arguments(node):
                variable = (
                    self.hooks.variable(text_of(argument), argument.start_byte) if argument.text is not None else None
                )
                if variable is not None:
                    self._define(variable, argument, "reference", strong=False)
            for argument in self.hooks.unknown_outputs(node):
                variable = (
                    self.hooks.variable(text_of(argument), argument.start_byte) if argument.text is not None else None
                )
                if variable is not None and self._flow.use(variable, key_of(argument)) == {ENTRY}:
                    self._define(variable, argument, "reference")  # its first value comes from the call
        elif kind == "field_expression":
            yield self._expression(node.child_by_field_name("argument"))
        elif kind == "declaration":
            yield self._declaration(node)
        elif kind not in _NOT_READ:
            for child in named(node):
                if child.type == "identifier":  # most children: read here, without a walk of their own
                    self._use(child)
                elif child.type not in _NOT_READ:
                    yield self._expression(child)

    def _assignment(self, node: Node) -> Steps:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        compound = _operator(node) != "="
        yield self._expression(right)
        if left is not None and left.type == "identifier":
            if compound:
                self._use(left)
            variable = self.hooks.variable(text_of(left), left.start_byte) if left.text is not None else None
            if variable is not None:
                self._define(variable, node, "assign")
            return
        yield self._expression(left)  # indices and bases are read
        variable = self.hooks.element_target(left) if left is not None else None
        if variable is not None:
            self._define(variable, node, "element", strong=False)


def _operator(node: Node) -> str:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else ""


def _is_statement(node: Node) -> bool:
    return node.type.endswith("_statement") or node.type in ("declaration", "compound_statement", "else_clause")
