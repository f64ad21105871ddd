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

The tree is walked once: the walk records what it tells the flow as a list of steps (`_Op`), each
with what the hooks answered, and that list is what runs, again for every round a loop needs. A loop's
second round then costs a pass over its steps, not another walk of its nodes and another question to
the hooks for each name (their answers do not depend on the flow's state, so they are the same).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from kernlint.analysis.names import DefinitionKey, Variable
from kernlint.analysis.reaching import ENTRY, Flow, Steps, drive
from kernlint.frontends.cpp.dependence.nodes import Node, declared_name, key_of, named, text_of
from kernlint.records import record

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


@record
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
    # an identifier read -> the variable read there (the hooks' answer: lowering need not ask again)
    variables: dict[tuple[int, int], Variable] = field(default_factory=dict)

    def run(self, body: Node) -> None:
        self._flow = Flow(shared=set(self.shared))
        self._ops: list[_Op] = []
        drive(self._statement(body))  # the walk: records the steps
        drive(self._replay(self._ops))  # the steps run, loops to their fixpoint
        self._flow.finish()
        self.uses = dict(self._flow.uses)  # type: ignore[arg-type]

    # -- definitions and uses (recorded as steps) --------------------------------------------------

    def _define(self, variable: Variable, node: Node, how: str, strong: bool = True) -> None:
        key = DefinitionKey(variable, node.start_byte, how)
        self._ops.append((_DEFINE, Definition(key, variable, node, how), strong))

    def _use(self, node: Node) -> Variable | None:
        text = node.text  # read once (a property that copies the bytes); a missing identifier's is b""
        variable = (
            self.hooks.variable(text.decode("utf-8", errors="replace"), node.start_byte) if text is not None else None
        )
        if variable is not None:
            at = key_of(node)
            self.variables[at] = variable
            self._ops.append((_USE, variable, at))
        return variable

    def _block(self, walk: Steps) -> Steps:
        """The steps of `walk` as a list of their own (a loop's test, body or update; a case)."""
        outer = self._ops
        self._ops = []
        yield walk
        ops, self._ops = self._ops, outer
        return ops

    # -- the recorded steps, run -------------------------------------------------------------------

    def _replay(self, ops: list[_Op]) -> Steps:
        """Tell the flow what `ops` record, in order; a loop or switch is a walk of its own (`drive`)."""
        flow, defs = self._flow, self.defs
        saved: list[Any] = []  # the states of the forks open in `ops` (if / ?: / && / ||)
        for op in ops:
            code = op[0]
            if code == _USE:
                flow.use(op[1], op[2])
            elif code == _DEFINE:
                definition = op[1]
                defs[definition.key] = definition
                flow.define(definition.variable, definition.key, op[2])
            elif code == _FORK:
                saved.append(flow.fork())
            elif code == _OTHER_ARM:
                taken = flow.fork()
                flow.restore(saved.pop())
                saved.append(taken)
            elif code == _JOIN:
                flow.merge(saved.pop())
            elif code == _LOOP:
                _code, body, test, update, test_first, key = op
                yield flow.looping(
                    partial(self._replay, body),
                    partial(self._replay, test) if test is not None else None,
                    partial(self._replay, update) if update is not None else None,
                    test_first,
                    key,
                )
            elif code == _SWITCH:
                yield flow.blocking(partial(self._replay_switch, op[1], op[2]))
            elif code == _JUMP:
                flow.jump(op[1])
            elif code == _BARRIER:
                flow.barrier()
            else:  # _OUTPUT: a call of unknown code gives the variable its first value
                definition = op[1]
                if flow.use(definition.variable, op[2]) == {ENTRY}:
                    defs[definition.key] = definition
                    flow.define(definition.variable, definition.key, True)

    def _replay_switch(self, cases: list[list[_Op]], has_default: bool) -> Steps:
        flow = self._flow
        saved = flow.fork()
        flow.restore(None)
        for case in cases:
            flow.merge(saved)  # entered from the switch, or falling through
            yield self._replay(case)
        if not has_default:
            flow.merge(saved)

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
            self._ops.append((_JUMP, {"return_statement": "return", "break_statement": "break"}.get(kind, "continue")))
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
        self._ops.append(_FORK_OP)
        yield self._statement(node.child_by_field_name("consequence"))
        self._ops.append(_OTHER_ARM_OP)
        yield self._statement(node.child_by_field_name("alternative"))
        self._ops.append(_JOIN_OP)

    def _loop(self, node: Node) -> Steps:
        body = node.child_by_field_name("body")
        condition = node.child_by_field_name("condition")
        test: list[_Op] | None
        update: list[_Op] | None = None
        test_first = True
        if node.type == "for_statement":
            for initializer in node.children_by_field_name("initializer"):
                yield self._statement(initializer)
            increment = node.child_by_field_name("update")
            test = (yield self._block(self._expression(condition))) if condition is not None else None
            steps = yield self._block(self._statement(body))
            update = (yield self._block(self._expression(increment))) if increment is not None else None
        elif node.type == "for_range_loop":
            yield self._expression(node.child_by_field_name("right"))
            test = []  # nothing to read, but the loop may be left before its body
            steps = yield self._block(self._statement(body))
        elif node.type == "do_statement":
            test_first = False
            steps = yield self._block(self._statement(body))
            test = yield self._block(self._statement(condition))
        else:
            test = yield self._block(self._statement(condition))
            steps = yield self._block(self._statement(body))
        self._ops.append((_LOOP, steps, test, update, test_first, key_of(node)))

    def _switch(self, node: Node) -> Steps:
        yield self._statement(node.child_by_field_name("condition"))
        body = node.child_by_field_name("body")
        cases = [c for c in named(body) if c.type == "case_statement"]
        has_default = any(c.child_by_field_name("value") is None for c in cases)
        steps = []
        for case in cases:
            steps.append((yield self._block(self._case(case))))
        self._ops.append((_SWITCH, steps, has_default))

    def _case(self, case: Node) -> Steps:
        for child in named(case)[1 if case.child_by_field_name("value") is not None else 0 :]:
            yield self._statement(child) if _is_statement(child) else self._expression(child)

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
            self._ops.append(_FORK_OP)
            yield self._expression(node.child_by_field_name("consequence"))
            self._ops.append(_OTHER_ARM_OP)
            yield self._expression(node.child_by_field_name("alternative"))
            self._ops.append(_JOIN_OP)
        elif kind == "binary_expression" and _operator(node) in ("&&", "||", "and", "or"):
            yield self._expression(node.child_by_field_name("left"))
            self._ops.append(_FORK_OP)
            yield self._expression(node.child_by_field_name("right"))
            self._ops.append(_JOIN_OP)
        elif kind == "call_expression":
            for child in named(node):
                yield self._expression(child)
            if self.hooks.is_barrier(node):
                self._ops.append(_BARRIER_OP)
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
                if variable is not None:  # its first value comes from the call, if none reaches it
                    definition = Definition(
                        DefinitionKey(variable, argument.start_byte, "reference"), variable, argument, "reference"
                    )
                    self.variables[key_of(argument)] = variable
                    self._ops.append((_OUTPUT, definition, key_of(argument)))
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


# The steps a walk records (`_Op`: the code first): a use, a definition, a fork and its other arm and join,
# a loop, a switch, a jump, a barrier, and a possible first value from a call of unknown code.
_USE, _DEFINE, _FORK, _OTHER_ARM, _JOIN, _LOOP, _SWITCH, _JUMP, _BARRIER, _OUTPUT = range(10)
_Op = tuple[Any, ...]
_FORK_OP: _Op = (_FORK,)
_OTHER_ARM_OP: _Op = (_OTHER_ARM,)
_JOIN_OP: _Op = (_JOIN,)
_BARRIER_OP: _Op = (_BARRIER,)


def _operator(node: Node) -> str:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else ""


def _is_statement(node: Node) -> bool:
    return node.type.endswith("_statement") or node.type in ("declaration", "compound_statement", "else_clause")
