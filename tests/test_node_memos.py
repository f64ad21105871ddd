"""The memoised tree walks of the C++ device analysis (`Owners`, `Ancestry`) answer exactly what a
plain walk up the tree answers, for every node of kernels with nested lambdas, a local class's member
function, loops and every kind of guard."""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import span_between, span_of
from kernlint.frontends.cpp.dependence.nodes import _GUARDING, LOOPS, UNIT_TYPES, Ancestry, Owners, node_key, owner_of

SOURCE = b"""
#include <sycl/sycl.hpp>
void run(sycl::queue &q, float *out, int n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
    struct Helper {
      float twice(float v) const { if (v > 0) return v * 2; return 0; }
    };
    auto clamp = [&](float v) { return v < 0 ? 0.f : v; };
    for (int k = 0; k < 4; ++k) {
      while (out[i] > 1) {
        switch (k) { case 0: out[i] -= 1; break; default: out[i] = clamp(out[i]); }
      }
      if (i[0] % 2) { out[i] = Helper{}.twice(out[i]); } else out[i] = 0;
    }
  });
}
"""


def all_nodes(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


def kernel_and_units() -> tuple[tree_sitter.Node, list[tree_sitter.Node]]:
    root = treesitter.parser("cpp").parse(SOURCE).root_node
    nodes = all_nodes(root)
    kernel = min((n for n in nodes if n.type == "lambda_expression"), key=lambda n: n.start_byte)
    return kernel, [n for n in all_nodes(kernel) if n.type in UNIT_TYPES]


def plain_loops(node: tree_sitter.Node, root: tree_sitter.Node) -> list[tree_sitter.Node]:
    loops, parent = [], node.parent
    while parent is not None and parent != root:
        if parent.type in LOOPS:
            loops.append(parent)
        if parent.type in UNIT_TYPES:
            break
        parent = parent.parent
    return loops


def plain_guards(node: tree_sitter.Node, root: tree_sitter.Node) -> list[tuple[int, int, str]]:
    guards, child, parent = [], node, node.parent
    while parent is not None and parent != root and parent.type not in UNIT_TYPES:
        arms = [parent.child_by_field_name(f) for f in _GUARDING.get(parent.type, ())]
        if any(
            a is not None and (a.start_byte, a.end_byte, a.type) == (child.start_byte, child.end_byte, child.type)
            for a in arms
        ):
            guards.append(node_key(parent))
        child, parent = parent, parent.parent
    return guards


def test_owners_by_position_agree_with_the_walk_up_for_every_node() -> None:
    kernel, units = kernel_and_units()
    assert {u.type for u in units} == {"lambda_expression", "function_definition"}
    owners = Owners()
    owners.add(units)
    for node in all_nodes(kernel):
        assert owners(node) == owner_of(node), (node.type, node.start_point)


def test_owners_of_nodes_outside_every_known_unit_fall_back_to_the_walk() -> None:
    kernel, units = kernel_and_units()
    owners = Owners()
    owners.add(units)
    outside = kernel.parent
    assert outside is not None
    found = owners(outside)
    assert found == owner_of(outside)
    assert found is not None and found.type == "function_definition"


def test_ancestry_agrees_with_the_walk_up_in_any_order() -> None:
    kernel, _ = kernel_and_units()
    nodes = all_nodes(kernel)
    for order in (nodes, nodes[::-1]):  # deepest first, then outermost first: the memo must not depend on it
        ancestry = Ancestry()
        for node in order:
            assert list(ancestry.loops(node, kernel)) == plain_loops(node, kernel)
            assert list(ancestry.guards(node, kernel)) == plain_guards(node, kernel)
    assert any(plain_loops(n, kernel) for n in nodes) and any(plain_guards(n, kernel) for n in nodes)


def test_a_node_s_span_is_the_span_from_it_to_itself() -> None:
    """`span_of` reads each point once; it must give what `span_between(node, node)` gives, lines
    counted from 1, for every node (multi-line ones included)."""
    root = treesitter.parser("cpp").parse(SOURCE).root_node
    stack = [root]
    seen = 0
    while stack:
        node = stack.pop()
        span = span_of(node)
        assert span == span_between(node, node)
        assert (span.start_byte, span.end_byte, span.line) == (node.start_byte, node.end_byte, node.start_point[0] + 1)
        seen += 1
        stack.extend(node.children)
    assert seen > 200
