"""A file whose `#if` groups split a construct is parsed again per further arm (`CppUnit.with_arm`);
that parse reuses what the file's bytes give before an arm is chosen (arms, rewritten macros,
directives). It must be the parse a unit made from scratch for that arm is."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.frontends.cpp.frontend import facts_of_unit
from kernlint.frontends.cpp.unit import CppUnit

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "sycl"
_SPLIT = """\
#include <sycl/sycl.hpp>
#define ATTR __attribute__((always_inline))
void run(sycl::queue &q, float *a, int n) {
#ifdef USE_ND
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
#else
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
#endif
    if (i % 2) a[i] = 0;
  });
  _Pragma("omp barrier")
}
"""


@pytest.mark.parametrize(
    "path, data",
    [
        (str(CORPUS / name), (CORPUS / name).read_bytes())
        for name in ("cov_conditional_arms.cpp", "kl101_solver_blocks.cpp")
    ]
    + [("split.cpp", _SPLIT.encode())],
)
def test_an_arm_read_from_the_first_parse_is_the_arm_read_alone(path: str, data: bytes) -> None:
    first = CppUnit(path, data, defines={"UNRELATED": "1"}, macros={"ATTR": ""})
    choices = first.other_arms()
    assert choices
    for choice, _regions in choices:
        reused = first.with_arm(choice)
        alone = CppUnit(path, data, defines={"UNRELATED": "1"}, macros={"ATTR": ""}, arm_choice=(first.split, choice))
        assert reused.tree.root_node.text == alone.tree.root_node.text
        assert (reused.arms, reused.pragma_texts, reused.split_choice) == (alone.arms, alone.pragma_texts, choice)
        assert facts_of_unit(reused) == facts_of_unit(alone)
