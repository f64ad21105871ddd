"""KL501 on the sweeps of a work-efficient scan: the halving up-sweep and the doubling down-sweep are one
scan (class `tree-scan`, a group scan replaces both); a halving tree alone stays a reduction, and a doubling
step without an up-sweep before it (a broadcast tree) gets no tree advice."""

from __future__ import annotations

from conftest import run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch

UP = """
      for (int d = 128; d > 0; d >>= 1) {
        sycl::group_barrier(it.get_group());
        if (t < d) { const int a = span * (2 * t + 1) - 1; const int b = span * (2 * t + 2) - 1; s[b] += s[a]; }
        span *= 2;
      }
"""
DOWN = """
      for (int d = 1; d <= 128; d *= 2) {
        span >>= 1;
        sycl::group_barrier(it.get_group());
        if (t < d) {
          const int a = span * (2 * t + 1) - 1; const int b = span * (2 * t + 2) - 1;
          const float c = s[a]; s[a] = s[b]; s[b] += c;
        }
      }
"""
KERNEL = """
    #include <sycl/sycl.hpp>
    void f(sycl::queue &q, float *x, size_t n) {{
      q.submit([&](sycl::handler &h) {{
        sycl::local_accessor<float, 1> s(256, h);
        h.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {{
          const int t = it.get_local_id(0);
          int span = 1;
          s[2 * t] = x[2 * it.get_global_id(0)];
          {first}
          {second}
          x[2 * it.get_global_id(0)] = s[2 * t];
        }});
      }});
    }}
"""


def classes(first: str, second: str = "") -> list[tuple[str, Severity]]:
    found = run_rule(DivergentBranch, KERNEL.format(first=first, second=second), device=None)
    return [(d.evidence["class"], d.severity) for d in found]


def test_the_up_sweep_and_down_sweep_are_one_scan_with_a_group_scan_named() -> None:
    found = run_rule(DivergentBranch, KERNEL.format(first=UP, second=DOWN), device=None)
    assert [(d.evidence["class"], d.severity, d.evidence["lanes"]) for d in found] == [
        ("tree-scan", Severity.WARNING, "shrinking"),
        ("tree-scan", Severity.WARNING, "growing"),
    ]
    for d in found:
        assert "joint_exclusive_scan" in d.message and "reduce_over_group" not in d.message
    assert "the first 5 steps run within one sub-group, on more and more of its lanes" in found[1].message
    assert "the last 5 steps run within one sub-group, on fewer and fewer of its lanes" in found[0].message


def test_a_halving_tree_alone_is_a_reduction() -> None:
    assert classes(UP) == [("tree-reduction", Severity.WARNING)]


def test_a_doubling_step_alone_or_before_the_halving_one_is_no_scan() -> None:
    alone = classes(DOWN)
    assert alone and all(klass != "tree-scan" for klass, _severity in alone)
    reversed_order = classes(DOWN, UP)
    assert ("tree-scan", Severity.WARNING) not in reversed_order
    assert ("tree-reduction", Severity.WARNING) in reversed_order


def test_openmp_names_its_own_scan() -> None:
    code = """
        #include <omp.h>
        void f(float *x, int teams) {
        #pragma omp target teams num_teams(teams) thread_limit(128) map(tofrom: x[0:teams * 256])
          {
            float s[256];
        #pragma omp parallel
            {
              const int t = omp_get_thread_num();
              int span = 1;
              s[2 * t] = x[2 * t];
              for (int d = 128; d > 0; d >>= 1) {
        #pragma omp barrier
                if (t < d) { const int a = span * (2 * t + 1) - 1; const int b = span * (2 * t + 2) - 1; s[b] += s[a]; }
                span *= 2;
              }
              for (int d = 1; d <= 128; d *= 2) {
                span >>= 1;
        #pragma omp barrier
                if (t < d) {
                  const int a = span * (2 * t + 1) - 1; const int b = span * (2 * t + 2) - 1;
                  const float c = s[a]; s[a] = s[b]; s[b] += c;
                }
              }
              x[2 * t] = s[2 * t];
            }
          }
        }
    """
    found = run_rule(DivergentBranch, code, device=None, path="t.c")
    assert [d.evidence["class"] for d in found] == ["tree-scan", "tree-scan"]
    for d in found:
        assert "`scan exclusive` directive" in d.message and "sycl::" not in d.message
