"""Answers the C/C++ OpenMP source keeps or skips: the names a target region declares are queried
once per region (every target construct asks about every target region), and the device-pointer
expressions are not run over a file that spells no allocator. Neither may change an answer."""

from __future__ import annotations

import re

import pytest

from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.frontend import facts_of_unit
from kernlint.frontends.cpp.openmp import constructs
from kernlint.frontends.cpp.openmp.macros import MacroAwareOmpSource
from kernlint.frontends.cpp.openmp.syntax import declarator_name, indirections, struct_pointers
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


def _declared(root: object) -> frozenset[str]:
    nodes = treesitter.captures("cpp", "cpp_openmp_declared", root).get("declared", [])  # type: ignore[arg-type]
    return frozenset(text_of(n) for n in nodes)


def test_each_target_region_is_queried_once_with_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked by every target construct (`declared_in`) and again for what a region assigns
    (`varying_in`): one query per region."""
    source = _source(_TARGETS)
    source.located()
    regions = [span for span, node in source.nodes.items() if node.type in ("for_statement", "compound_statement")]
    expected = {region: _declared(source.nodes[region]) for region in regions}
    queried: list[int] = []
    real = treesitter.captures

    def counted(grammar: str, query_file: str, root: object) -> dict[str, list[object]]:
        if query_file == "cpp_openmp_declared":
            queried.append(id(root))
        return real(grammar, query_file, root)  # type: ignore[arg-type, return-value]

    monkeypatch.setattr(treesitter, "captures", counted)
    for _round in range(3):
        assert {region: source.declared_in(region) for region in regions} == expected
        for region in regions:
            assert expected[region] <= (source.varying_in(region) or frozenset()) | {"i", "j", "q"}
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


_STRUCTS = [
    "struct P { float *x; int n; };\nvoid f(P p) {}\n",
    "class Q { public: double *v; double *w; };\n",
    "typedef struct { int *idx; float y; } R;\n",
    "union U { int *a; float b; };\nstruct S;\n",
    "void f(float *a) { /* no aggregate here */ }\n",
    "#define T(name) struct name { int *p; }\nT(Z);\n",
]


@pytest.mark.parametrize("code", _STRUCTS)
def test_struct_pointers_skip_only_files_without_the_keywords(code: str) -> None:
    """The struct query is not run over a file that spells neither `struct` nor `class`: the table is
    the query's wherever one of them is spelled."""
    root = CppUnit("t.cpp", code.encode()).root
    table: dict[str, tuple[str, ...]] = {}
    for _i, match in treesitter.matches("cpp", "cpp_openmp_types", root):
        name = text_of(match["name"][0]).split("::")[-1]
        fields = [f for f in match["body"][0].named_children if f.type == "field_declaration"]
        pointers = [
            declarator_name(d, field=True)
            for f in fields
            for d in f.children_by_field_name("declarator")
            if None in (indirections(d) or ())
        ]
        table.setdefault(name, tuple(p for p in pointers if p))
    assert struct_pointers(root) == table
    assert bool(table) == any(word in code for word in ("P {", "Q {", "R;"))
