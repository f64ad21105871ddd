"""The reaching-definitions walk of a C++ device unit (`frontends.cpp.dependence.flow.Walk`) records the
flow steps once and runs them again for every round a loop needs. Each case here needs a later round,
a fork or a switch run from the recorded steps exactly as a fresh walk would: a loop run once, a join
dropped or a fall-through lost gives other definitions at the reads checked."""

from __future__ import annotations

import re
from collections.abc import Hashable

from kernlint.analysis.names import DefinitionKey
from kernlint.analysis.reaching import BARRIER, ENTRY
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.dependence.flow import Walk
from kernlint.frontends.cpp.dependence.nodes import Node, callee_name, named, text_of

_LOCALS = {"i", "j", "k", "s", "t", "out", "acc"}


class _Hooks:
    """Locals are `_LOCALS`; `barrier()` is a barrier; `ref(x)` may write `x`; `fill(x)` sets it when
    nothing else has."""

    def variable(self, name: str, at_byte: int) -> str | None:
        return name if name in _LOCALS else None

    def element_target(self, left: Node) -> str | None:
        return None

    def is_barrier(self, call: Node) -> bool:
        return callee_name(call.child_by_field_name("function")) == "barrier"

    def reference_arguments(self, call: Node) -> list[Node]:
        return self._arguments(call, "ref")

    def unknown_outputs(self, call: Node) -> list[Node]:
        return self._arguments(call, "fill")

    @staticmethod
    def _arguments(call: Node, name: str) -> list[Node]:
        if callee_name(call.child_by_field_name("function")) != name:
            return []
        return [a for a in named(call.child_by_field_name("arguments")) if a.type == "identifier"]


def _walk(body: str, shared: set[str] | None = None) -> tuple[Walk, bytes, Node]:
    source = f"void unit(int n) {{\n{body}\n}}\n".encode()
    root = treesitter.parser("cpp").parse(source).root_node
    function = root.named_children[0]
    body_node = function.child_by_field_name("body")
    assert body_node is not None
    walk = Walk(_Hooks(), set(shared or ()))
    walk.run(body_node)
    return walk, source, root


def _reaching(walk: Walk, source: bytes, root: Node, marker: str) -> set[Hashable]:
    """What reaches the identifier that ends just before the comment `/*marker*/`: each definition as
    the source text of the node that makes it, or ENTRY / BARRIER."""
    at = source.index(f"/*{marker}*/".encode())
    (key,) = [k for k in walk.uses if k[1] == at]
    found: set[Hashable] = set()
    for definition in walk.uses[key]:
        if isinstance(definition, DefinitionKey):
            node = walk.defs[definition].node
            found.add(re.sub(r"/\*\w+\*/", "", text_of(node)))
        else:
            found.add(definition)
    return found


def test_a_definition_at_the_end_of_a_loop_reaches_its_head_in_the_next_round() -> None:
    walk, source, root = _walk(
        """
        int i = 0;
        while (i/*head*/ < n) {
            int t = i/*body*/ * 2;
            i = t + 1;
        }
        out = i/*after*/;
        """
    )
    assert _reaching(walk, source, root, "head") == {"i = 0", "i = t + 1"}
    assert _reaching(walk, source, root, "body") == {"i = 0", "i = t + 1"}
    assert _reaching(walk, source, root, "after") == {"i = 0", "i = t + 1"}


def test_nested_loops_carry_an_inner_definition_to_the_outer_head() -> None:
    walk, source, root = _walk(
        """
        int s = 1;
        for (int j = 0; j/*outer*/ < n; ++j) {
            acc = s/*top*/;
            for (int k = 0; k < n; ++k) {
                if (k/*k*/ > 2) s = k; else { break; }
            }
        }
        """
    )
    assert _reaching(walk, source, root, "top") == {"s = 1", "s = k"}
    assert _reaching(walk, source, root, "outer") == {"j = 0", "++j"}
    assert _reaching(walk, source, root, "k") == {"k = 0", "++k"}


def test_forks_join_and_a_return_leaves() -> None:
    walk, source, root = _walk(
        """
        int t = 0;
        if (n > 1) { t = 1; } else if (n > 2) { t = 2; return; } else { }
        acc = t/*if*/;
        int s = n > 3 ? (t = 4) : 5;
        acc = t/*ternary*/;
        if (n && (t = 6)) { }
        acc = t/*and*/;
        """
    )
    assert _reaching(walk, source, root, "if") == {"t = 0", "t = 1"}
    assert _reaching(walk, source, root, "ternary") == {"t = 0", "t = 1", "t = 4"}
    assert _reaching(walk, source, root, "and") == {"t = 0", "t = 1", "t = 4", "t = 6"}


def test_a_switch_falls_through_and_a_do_loop_tests_after_its_body() -> None:
    walk, source, root = _walk(
        """
        int k = 0;
        switch (n) {
            case 0: k = 1;
            case 1: acc = k/*fall*/; break;
            case 2: k = 3; break;
        }
        acc = k/*switch*/;
        do { k = k/*do*/ + 1; } while (k/*test*/ < n);
        """
    )
    assert _reaching(walk, source, root, "fall") == {"k = 0", "k = 1"}
    assert _reaching(walk, source, root, "switch") == {"k = 0", "k = 1", "k = 3"}
    assert _reaching(walk, source, root, "do") == {"k = 0", "k = 1", "k = 3", "k = k + 1"}
    assert _reaching(walk, source, root, "test") == {"k = k + 1"}


def test_a_barrier_and_calls_that_may_write_in_a_loop() -> None:
    walk, source, root = _walk(
        """
        int out;
        for (int i = 0; i < n; ++i) {
            fill(out);
            acc = out/*filled*/;
            ref(s);
            acc = s/*ref*/;
            barrier();
            acc = t/*shared*/;
            t = i;
        }
        """,
        shared={"t"},
    )
    # the call's definition; from the second round on, the value it left in the round before reaches it
    assert _reaching(walk, source, root, "filled") == {ENTRY, "out"}
    assert _reaching(walk, source, root, "ref") == {ENTRY, "s"}
    assert _reaching(walk, source, root, "shared") == {BARRIER}
    fills = [d for d in walk.defs.values() if d.how == "reference" and d.variable == "out"]
    assert len(fills) == 1


def test_the_definitions_are_listed_in_the_order_of_the_code() -> None:
    walk, _source, _root = _walk(
        """
        int i = 0;
        while (i < n) { if (i > 2) { int j = i; s = j; } else { t = i; } i += 2; }
        for (int k = 0; k < n; k++) { acc = k; }
        """
    )
    # in the order the code runs: a `for` loop's increment after its body
    assert [(d.how, text_of(d.node)) for d in walk.defs.values()] == [
        ("init", "i = 0"),
        ("init", "j = i"),
        ("assign", "s = j"),
        ("assign", "t = i"),
        ("assign", "i += 2"),
        ("init", "k = 0"),
        ("assign", "acc = k"),
        ("update", "k++"),
    ]
