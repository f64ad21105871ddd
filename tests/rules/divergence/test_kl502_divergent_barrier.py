"""KL502 divergent-barrier: barriers under and after branches, calls that reach one, early exits, loops,
and the whole kernel (or, for a warning, the idle lanes) it costs."""

from __future__ import annotations

import pytest

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.divergence.kl502_divergent_barrier import DivergentBarrier
from rule_helpers import cost_at


def lines(diagnostics) -> list[int]:
    return sorted(d.line for d in diagnostics)


def test_kl502_barrier_after_the_branch_is_fine_inside_it_is_not() -> None:
    found = run_rule(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            int lid = it.get_local_id(0);
            for (int s = 32; s > 0; s >>= 1) {
              if (lid < s) d[lid] += d[lid + s];
              it.barrier();
            }
            if (lid < 8) {
              d[lid] = 0;
              sycl::group_barrier(it.get_group());
            }
          });
        }
    """,
    )
    (diagnostic,) = found
    assert diagnostic.line == 11 and diagnostic.severity is Severity.ERROR
    assert diagnostic.evidence["condition_line"] == 9 and diagnostic.evidence["via"] == "under"


def test_kl502_reports_calls_that_reach_a_barrier_and_early_exits() -> None:
    found = run_rule(
        DivergentBarrier,
        """
        void wait_all(sycl::nd_item<1> it) { it.barrier(); }
        void step(sycl::nd_item<1> it) { wait_all(it); }
        void f(sycl::queue &q, float *d, int n, int skip) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t i = it.get_global_id(0);
            if (d[i] > 0) step(it);
            if (it.get_group(0) == skip) return;
            step(it);
            if (i >= n) return;
            sycl::group_barrier(it.get_group());
          });
        }
    """,
    )
    by_line = {d.line: d for d in found}
    assert sorted(by_line) == [7, 11]
    assert by_line[7].evidence["call_lines"] == [7, 3] and by_line[7].evidence["function"] == "wait_all"
    assert by_line[11].evidence["via"] == "early-return"


def test_kl502_reports_every_divergent_call_of_a_synchronising_helper() -> None:
    found = run_rule(
        DivergentBarrier,
        """
        inline void exchange(sycl::nd_item<1> it, float *slm) { slm[0] = 1; it.barrier(); slm[1] = 2; it.barrier(); }
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t lid = it.get_local_id(0);
            if (lid < 8) exchange(it, d);
            exchange(it, d);
            if (d[lid] > 0) {
              if (lid % 2) exchange(it, d);
            }
          });
        }
    """,
    )
    assert lines(found) == [6, 9]
    assert found[1].evidence["condition_line"] == 9  # the innermost condition


def test_kl502_loops_with_id_dependent_trip_counts_and_breaks() -> None:
    found = run_rule(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n, int steps) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            for (size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0)) {
              it.barrier();
            }
            for (int s = 0; s < steps; ++s) {
              if (d[it.get_global_id(0)] > 0) continue;
              it.barrier();
            }
            for (int s = 0; s < steps; ++s) {
              if (s == 3) break;
              it.barrier();
            }
          });
        }
    """,
    )
    assert lines(found) == [5, 9]


def test_kl502_error_loses_the_kernel_and_its_warning_says_what_is_missing() -> None:
    # kl502_barriers.cpp:17: a barrier under `lid < s`: work-items that skip it deadlock the group, so all the
    # kernel's work is at stake (100%, score 1). Line 63: a barrier after a tail-guard `return`, harmless while
    # the global size divides: a warning whose lane figure needs the global size, which the code does not give.
    path = CORPUS / "sycl" / "kl502_barriers.cpp"
    error = cost_at(path, 17, "KL502")
    assert error.value == pytest.approx(100.0) and error.score == 1.0
    warning = cost_at(path, 63, "KL502")
    assert warning.value is None and warning.missing and warning.score is None


def test_kl502_a_device_function_runs_with_its_only_kernel_s_work_group_size() -> None:
    """`lid / 128` in a helper that only a kernel of work-groups of 128 calls is 0 for every work-item:
    the barrier under a test of it is reached by all (one word per work-group, as word2vec has it)."""
    found = run_rule(
        DivergentBarrier,
        """
        constexpr int WORD = 128;
        void per_word(sycl::nd_item<1> it, const int *counts, float *f) {
          int word = it.get_local_id(0) / WORD + it.get_group(0);
          if (counts[word] > 0) {
            f[it.get_local_id(0)] = 1.0f;
            it.barrier();
          }
        }
        void f(sycl::queue &q, const int *counts, float *f, int n) {
          q.parallel_for(sycl::nd_range<1>(n, WORD), [=](sycl::nd_item<1> it) { per_word(it, counts, f); });
        }
    """,
    )
    assert found == []


def test_kl502_a_barrier_under_a_bound_of_unknown_size_is_a_warning() -> None:
    """Under `if (gid < n)` (or `if (ch < count)` for a sub-group collective) the group splits only
    when the bound falls inside it, which the code does not say: a warning, not an error."""
    found = run_rule(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(4096, 256), [=](sycl::nd_item<1> it) {
            int gid = it.get_global_id(0);
            if (gid < n) {
              d[gid] = sycl::reduce_over_group(it.get_group(), d[gid], sycl::plus<float>());
            }
          });
        }
    """,
    )
    (d,) = found
    assert d.severity is Severity.WARNING and d.evidence["collective"]
    assert "harmless only while the bound is a multiple of the work-group size, 256 here" in d.message
