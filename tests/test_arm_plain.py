"""Arm costs weigh an expression with no parenthesis, brace or `#` in it whole, without a walk
(`ArmCounter._plain`): such an expression holds no call, statement, loop or jump. Over the corpus and
code made to hold calls, lambdas, statement expressions and directives inside expressions, the counts
must be those of the full walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.device.arms import ArmCounter
from kernlint.frontends.cpp.device.text_marks import open_marks
from test_arm_prefilter import CONSTRUCTS, nodes_of

_CORPUS = Path(__file__).parent.parent / "corpus"
_TRICKY = b"""
void k(float *a, int n, int lid) {
  for (int i = lid; i < n; i += 16) {
    if (a[i] > 0) a[i] = a[i] * 2 + a[i - 1];
    else a[i] = n > 3 ? a[i] + f(a[i]) : [&] { for (int j = 0; j < 4; ++j) a[j] = 0; return 1; }();
    int s = ({ int t = 0; for (int m = 0; m < 8; ++m) t += m; t; });
    a[i] = s + a[i
#if WIDE
      + 1
#endif
    ];
    while (a[i] < 1) { a[i] += b->c[i] ? 1 : 2; if (a[i] > 5) break; }
    switch (n) { case 0: a[i] = -a[i]; return; default: a[i] = ~n & lid; }
    a[i] = g<4>(a[i]) + h(a[i + (n ? 1 : 0)]);
    a[i] += (float)n;
  }
}
"""


def _sources() -> list[tuple[str, bytes]]:
    files = sorted((_CORPUS / "sycl").glob("*.cpp")) + sorted((_CORPUS / "openmp").glob("*.c*"))
    return [("tricky", _TRICKY)] + [(p.name, p.read_bytes()) for p in files]


@pytest.mark.parametrize("name,data", _sources()[::3], ids=lambda v: v if isinstance(v, str) else "")
def test_plain_expressions_weigh_what_the_full_walk_weighs(name: str, data: bytes) -> None:
    root = treesitter.parser("cpp").parse(data).root_node
    constant = lambda text, at: 4 if text == "N" else None  # noqa: E731
    walked = ArmCounter(lambda call: True, constant)
    shortcut = ArmCounter(lambda call: True, constant, marks=open_marks(root.text or b"", root.start_byte))
    constructs = nodes_of(root, CONSTRUCTS | {"expression_statement"})
    for node in constructs:
        assert shortcut.weigh(node) == walked.weigh(node), (name, node.start_point)
        assert shortcut._extent(node) == walked._extent(node), (name, node.start_point)
        assert shortcut._leaves[node.id] == walked._leaves[node.id], (name, node.start_point)
        if node.type != "expression_statement":
            assert shortcut.costs(node) == walked.costs(node), (name, node.start_point)
    assert constructs or name != "tricky"


def test_the_tricky_code_is_weighed_partly_without_a_walk() -> None:
    """The test above compares something: plain expressions are found in it (fewer nodes weighed)."""
    root = treesitter.parser("cpp").parse(_TRICKY).root_node
    body = root.named_children[0].child_by_field_name("body")
    assert body is not None
    walked = ArmCounter(lambda call: True)
    shortcut = ArmCounter(lambda call: True, marks=open_marks(root.text or b"", root.start_byte))
    assert shortcut.weigh(body) == walked.weigh(body)
    assert walked.weigh(body)[2] >= 4  # the calls in expressions count
    assert len(shortcut._weights) < len(walked._weights)
