"""Answers the C/C++ OpenMP source keeps or skips: the names a target region declares are queried
once per region (every target construct asks about every target region), and the device-pointer
expressions are not run over a file that spells no allocator. Neither may change an answer."""

from __future__ import annotations

import re

import pytest

from kernlint.frontends.cpp.frontend import facts_of_unit
from kernlint.frontends.cpp.openmp import constructs, device
from kernlint.frontends.cpp.openmp.macros import MacroAwareOmpSource
from kernlint.frontends.cpp.unit import CppUnit

_TARGETS = """\
void step(float *a, float *b, int n) {
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) { float t = a[i]; a[i] = t * 2; }
  #pragma omp target teams distribute parallel for map(tofrom: b[0:n])
  for (int j = 0; j < n; j++) { int k = j; b[k] += 1; }
  #pragma omp target
  { float local[4]; for (int q = 0; q < 4; q++) local[q] = a[q]; a[0] = local[3]; }
}
"""


def _source(code: str) -> MacroAwareOmpSource:
    unit = CppUnit("t.cpp", code.encode())
    return MacroAwareOmpSource(unit, facts_of_unit(unit).pragmas)


def test_each_target_region_is_queried_once_with_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    source = _source(_TARGETS)
    source.located()
    regions = [span for span, node in source.nodes.items() if node.type in ("for_statement", "compound_statement")]
    expected = {region: device.declared_names(source.nodes[region]) for region in regions}
    queried: list[int] = []
    real = constructs.declared_names

    def counted(root: object) -> frozenset[str]:
        queried.append(id(root))
        return real(root)  # type: ignore[arg-type]

    monkeypatch.setattr(constructs, "declared_names", counted)
    for _round in range(3):
        assert {region: source.declared_in(region) for region in regions} == expected
    assert len(queried) == len(regions) == 3
    assert expected[regions[2]] >= {"local", "q"}


# Every spelling the device-allocator expressions accept, each a pointer kernlint must find.
_ALLOCATIONS = [
    "p = omp_target_alloc(n, 0);",
    "p = (float *)omp_target_alloc_device(n, 0);",
    "p = llvm_omp_target_alloc_shared(n, 0);",
    "p = sycl::malloc_device<float>(n, q);",
    "p = malloc_shared(n, q);",
    "p = aligned_alloc_device(64, n, q);",
    "p = sycl::aligned_alloc_shared<float>(64, n, q);",
    "p = acc_malloc(n);",
    "p = hipMallocManaged(n);",
    "p = cudaMallocManaged(n);",
    "cudaMalloc(&p, n);",
    "cudaMallocHost((void **)&p, n);",
    "hipMalloc( & p, n);",
]


@pytest.mark.parametrize("line", _ALLOCATIONS)
def test_every_allocator_spelling_gives_a_device_pointer(line: str) -> None:
    assert _source(f"void f(int n) {{ float *p; {line} }}\n").device_pointers() == {"p"}


def test_the_allocator_words_cover_both_expressions() -> None:
    """Each alternative of the allocator expressions spells one of the words checked first."""
    spellings = re.sub(r"\\w[*+]", "", constructs._DEVICE_ALLOCATORS).split("|") + ["cudaMalloc", "hipMalloc"]
    assert all(any(word in spelling for word in constructs._ALLOCATOR_WORDS) for spelling in spellings)
    assert _source("void f(int n) { float *p = (float *)malloc(n); }\n").device_pointers() == frozenset()
