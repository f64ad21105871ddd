"""KL501 and KL502 on the uniformity the dependence analysis proves: values published through shared
memory by a barrier, sub-group-level values, calling contexts, and KL502's severity by what is proven."""

from __future__ import annotations

from conftest import run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch
from kernlint_rules.divergence.kl502_divergent_barrier import DivergentBarrier


def test_a_leader_value_published_by_a_barrier_is_uniform() -> None:
    found = run_rule(
        DivergentBarrier,
        """
        void f(sycl::queue &q, int *counter, float *d, int limit, int *shared_next) {
          q.parallel_for(sycl::nd_range<1>(1024, 64), [=](sycl::nd_item<1> it) {
            int lid = it.get_local_id(0);
            int &next = shared_next[it.get_group(0)];
            if (lid == 0) next = counter[0]++;
            it.barrier();
            while (next < limit) {
              d[next * 64 + lid] = 0;
              it.barrier();
              if (lid == 0) next = counter[0]++;
              it.barrier();
            }
          });
        }
    """,
    )
    assert found == []


def test_sub_group_values_split_sub_groups_not_lanes() -> None:
    code = """
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
            auto sg = it.get_sub_group();
            int lid = it.get_local_id(0);
            if ((lid / 32) % 2 == 0) d[lid] = 1;
            if (sycl::all_of_group(sg, d[lid] > 0)) {
              sycl::group_barrier(sg);
              sycl::group_barrier(it.get_group());
            }
          });
        }
    """
    assert run_rule(DivergentBranch, code) == []
    (barrier,) = run_rule(DivergentBarrier, code)
    assert barrier.line == 9 and "sub-group-dependent" in barrier.message and barrier.severity is Severity.ERROR


def test_a_tail_guard_return_before_a_barrier_is_a_warning_that_says_what_is_unknown() -> None:
    (found,) = run_rule(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(4096, 64), [=](sycl::nd_item<1> it) {
            size_t i = it.get_global_id(0);
            if (i >= n) return;
            d[i] *= 2;
            it.barrier();
          });
        }
    """,
    )
    assert found.severity is Severity.WARNING and "multiple of the work-group size" in found.message


def test_values_from_unknown_code_stay_per_lane() -> None:
    found = run_rule(
        DivergentBranch,
        """
        void f(sycl::queue &q, const float *in, float *out, int n) {
          q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
            float world;
            transform_point(in[idx[0]], world);          // defined elsewhere: it sets `world`
            if (world > 0.0f) out[idx[0]] = world;
            visit(in, [&](int cell) {                    // whoever calls the lambda passes per-lane cells
              if (in[cell] > 1.0f) out[cell] = 0.0f;
            });
          });
        }
    """,
    )
    assert sorted(d.line for d in found) == [6, 8]
