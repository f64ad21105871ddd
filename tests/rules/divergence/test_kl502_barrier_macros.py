"""Barriers spelled through a parameterless function-like macro (`#define syncthreads() item.barrier(…)`,
common in code ported from CUDA) are read as the barrier they expand to: KL502 checks them, and the shared
memory they order is uniform after them. A macro with parameters, one whose body is more than a barrier,
and sub-group barriers through a macro are not read as barriers."""

from __future__ import annotations

import textwrap

import pytest

from conftest import run_rule
from kernlint.diagnostics import Severity
from kernlint.frontends.cpp.frontend import extract
from kernlint_rules.divergence.kl502_divergent_barrier import DivergentBarrier

KERNEL = """
    #include <sycl/sycl.hpp>
    {define}
    void f(sycl::queue &q, float *d, const int *flag, int n) {{
      q.submit([&](sycl::handler &h) {{
        sycl::local_accessor<float, 1> s(64, h);
        h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> item) {{
          const int lid = item.get_local_id(0);
          if (flag[item.get_global_id(0)] > 0) {{
            s[lid] = d[item.get_global_id(0)];
            {call};
          }}
        }});
      }});
    }}
"""


def barriers(define: str, call: str) -> list[str]:
    facts = extract("t.cpp", textwrap.dedent(KERNEL.format(define=define, call=call)).encode())
    return [f"{b.form}:{b.scope}" for b in facts.barriers]


@pytest.mark.parametrize(
    "define",
    [
        "#define syncthreads() item.barrier(sycl::access::fence_space::local_space)",
        "#define syncthreads() item.barrier();",
        "#define syncthreads() sycl::group_barrier(item.get_group())",
        "#define syncthreads() group_barrier(item.get_group())",
    ],
)
def test_a_macro_that_is_one_work_group_barrier_is_that_barrier(define: str) -> None:
    assert barriers(define, "syncthreads()") == ["syncthreads():work-group"]
    (found,) = run_rule(DivergentBarrier, KERNEL.format(define=define, call="syncthreads()"))
    assert found.severity is Severity.ERROR and "`syncthreads()`" in found.message


@pytest.mark.parametrize(
    ("define", "call"),
    [
        ("#define syncthreads(x) item.barrier(x)", "syncthreads(sycl::access::fence_space::local_space)"),
        ("#define syncthreads() item.barrier(); s[0] = 0", "syncthreads()"),
        ("#define syncthreads() sycl::group_barrier(item.get_sub_group())", "syncthreads()"),
        ("#define syncthreads() item.get_sub_group().barrier()", "syncthreads()"),
        ("", "syncthreads()"),  # no definition in view: an unknown call, not a barrier
    ],
)
def test_other_macros_are_not_read_as_barriers(define: str, call: str) -> None:
    assert barriers(define, call) == []


def test_a_flag_published_before_a_macro_barrier_is_uniform_after_it() -> None:
    code = """
        #include <sycl/sycl.hpp>
        #define syncthreads() item.barrier(sycl::access::fence_space::local_space)
        void f(sycl::queue &q, float *d, const float *limit, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<int, 1> again(1, h);
            h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> item) {
              do {
                d[item.get_global_id(0)] *= 0.5f;
                if (item.get_local_id(0) == 0) again[0] = d[item.get_global_id(0)] > limit[0];
                syncthreads();
              } while (again[0]);
            });
          });
        }
    """
    assert run_rule(DivergentBarrier, code) == []
    loop = [b for b in extract("t.cpp", textwrap.dedent(code).encode()).branches if b.kind == "loop"]
    assert loop == []  # the flag read after the barrier is the same for every work-item
