"""A write in a loop after a `continue`/`break`/`return`/`goto` of the loop's body is conditional
(`openmp.uses._jump_before`). Where each body's jumps start is found once per body and kept for
its other writes: the answer must be the walk of the body up to the write, for every identifier."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter

from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.openmp.nodes import FUNCTION_TYPES, JUMP_TYPES, LOOP_TYPES
from kernlint.frontends.cpp.openmp.uses import _jump_before

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "openmp"
_JUMPS = """\
void f(float *a, int n, int m) {
  for (int i = 0; i < n; i++) {
    a[i] = 1;
    auto skip = [&](int k) { if (k) return; a[k] = 0; };
    for (int j = 0; j < m; j++) a[j] = 2;
    if (a[i] > 3) continue;
    a[i] = 4;
    while (m) { a[m] = 5; break; a[m] = 6; }
    do a[n] = 7; while (0);
    for (;;) { a[0] = 8; goto out; }
  out:
    a[i] = 9;
  }
}
"""


def _walked(access: tree_sitter.Node, region: tree_sitter.Node) -> bool:
    """The walk `_jump_before` made of the body each time, before it kept the bodies' jumps."""
    node = access.parent
    while node is not None and node.type not in FUNCTION_TYPES:
        body = node.child_by_field_name("body") if node.type in LOOP_TYPES else None
        if body is not None and body.start_byte <= access.start_byte < body.end_byte:
            stack = [body]
            while stack:
                inner = stack.pop()
                if inner.start_byte >= access.start_byte or inner.type in FUNCTION_TYPES:
                    continue
                if inner.type in JUMP_TYPES:
                    return True
                stack.extend(inner.named_children)
            return False
        if node == region:
            break
        node = node.parent
    return False


def _nodes(node: tree_sitter.Node, types: tuple[str, ...] | frozenset[str]) -> list[tree_sitter.Node]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type in types:
            found.append(current)
        stack.extend(current.children)
    return found


@pytest.mark.parametrize(
    "code",
    [_JUMPS.encode()] + [p.read_bytes() for p in sorted(CORPUS.iterdir()) if p.suffix in (".c", ".cpp", ".h")],
)
def test_kept_jumps_answer_as_the_walk(code: bytes) -> None:
    root = treesitter.parser("cpp").parse(code).root_node
    jumps: dict[int, list[int]] = {}
    accesses = _nodes(root, ("identifier", "subscript_expression"))
    assert accesses
    for region in (root, *_nodes(root, LOOP_TYPES)):
        for access in accesses:
            assert _jump_before(access, region, jumps) == _walked(access, region), access
    if code == _JUMPS.encode():
        answers = [_jump_before(a, root, jumps) for a in accesses]
        assert True in answers and False in answers
