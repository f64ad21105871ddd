"""KL702 sync-in-loop: which waits the host needs (results read, clocks, sizes, refilled sources, freed
data) and which it does not, and the cost: iterations × the measured launch/sync latency."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from kernlint.occupancy import load_device
from kernlint.transfer_cost import sync_cost
from rule_helpers import XE_HPC_LINK, cost_at, run_engine

H100_SYNC = 7.5e-6  # h100.toml: sync_latency_us = 7.5 (measured, benchmarks/gpu/sync_latency.cu)


def kl702(code: str, path: str = "k.cpp", device: str = "h100") -> list:
    return run_engine(code, path, device=device, select="KL702")


def test_cost_is_the_latency_per_iteration_when_the_trip_count_is_unknown() -> None:
    # corpus relax(): `for (s < steps)` with a q.wait() per step: 7.5 µs per iteration on the H100.
    cost = cost_at(CORPUS / "sycl" / "kl702_sync_in_loop.cpp", 14, "KL702", "h100")
    assert cost.value == pytest.approx(H100_SYNC)
    assert cost.basis == "7.5 µs per wait × 1 wait per iteration = 7.5 µs per iteration"
    assert "the loop's trip count (`steps`) (for the per-loop total)" in cost.missing
    unmeasured = cost_at(CORPUS / "sycl" / "kl702_sync_in_loop.cpp", 14, "KL702", "xe-hpc")
    assert unmeasured.value is None and unmeasured.missing == (
        "the launch/sync latency of xe-hpc (not in the device model)",
    )


def test_cost_per_loop_and_its_share_with_a_constant_trip_count() -> None:
    (found,) = kl702(
        """
        void run(sycl::queue &q, float *d, size_t n) {
          for (int s = 0; s < 100; ++s) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] += 1.0f; });
            q.wait();
          }
        }
        """
    )
    # 100 iterations × 7.5 µs = 750 µs; the wait after the last iteration is needed: 99/100 is waste.
    assert found.cost.value == pytest.approx(100 * H100_SYNC)
    assert found.cost.score == pytest.approx(0.99) and found.cost.seconds == pytest.approx(0.99 * 100 * H100_SYNC)
    assert found.evidence["trip_count"] == 100 and found.evidence["wait"] == "q.wait()"
    assert "in-order queue" in found.message


def test_the_slowest_measured_device_is_the_headline() -> None:
    cost = sync_cost([load_device("xe-hpc"), load_device("h100")], repeats=10)
    assert cost.device == "h100" and cost.value == pytest.approx(10 * H100_SYNC)
    assert cost.figures["per_device"] == {"xe-hpc": "not measured", "h100": "7.5 µs per wait"}


@pytest.mark.parametrize(
    "after",
    [
        "auto t = std::chrono::steady_clock::now(); (void) t;",  # timing on purpose
        'printf("%f\\n", h[0]);',  # output of what came back
        "check(h, n);",  # a function the data is passed to
        "sycl::free(d, q);",  # freeing what the kernel uses
        "wkf_timer_stop(timer);",  # a clock read by its name
    ],
)
def test_a_wait_the_host_needs_is_not_reported(after: str) -> None:
    code = f"""
        void run(sycl::queue &q, float *d, float *h, size_t n, int steps) {{
          for (int s = 0; s < steps; ++s) {{
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ d[i] += 1.0f; }});
            q.memcpy(h, d, n * sizeof(float));
            q.wait();
            {after}
          }}
        }}
        """
    assert kl702(code) == []


def test_a_size_copied_back_for_the_next_submission_keeps_its_wait() -> None:
    code = """
        void run(sycl::queue &q, int *d_n, int *d_out, int *h_out, size_t n, int rounds) {
          int count = 0;
          for (int r = 0; r < rounds; ++r) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_out[i] = r; d_n[0] = r; });
            q.memcpy(&count, d_n, sizeof(int)).wait();
            q.memcpy(h_out, d_out, count * sizeof(int));
          }
          q.wait();
        }
        """
    assert kl702(code) == []


def test_a_wait_right_before_another_wait_for_everything_gains_nothing() -> None:
    code = """
        void run(float *d, size_t n, int steps) {
          sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order()};
          for (int s = 0; s < steps; ++s) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] += 1.0f; }).wait();
            q.wait();
          }
        }
        """
    found = kl702(code)
    assert [d.line for d in found] == [6]  # the second wait; the first is redundant but free
    # The file's only queue is in order: the advice says so instead of asking for an in-order queue.
    assert "the file's one queue is in order, so its work stays in order without the wait" in found[0].message
    assert "use an in-order queue" not in found[0].message


def test_a_chained_wait_on_an_out_of_order_queue_waits_for_one_operation() -> None:
    # Two copies back, each waited: on an in-order queue the second wait covers the first, which is
    # then needless; on the default (out-of-order) queue it does not, and the host reads both.
    template = """
        void run(float *a, float *b, size_t n, int steps) {{
          sycl::queue q{{{props}}};
          float *d_a = sycl::malloc_device<float>(n, q);
          float *d_b = sycl::malloc_device<float>(n, q);
          for (int s = 0; s < steps; ++s) {{
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ d_a[i] += 1.0f; d_b[i] -= 1.0f; }});
            q.memcpy(a, d_a, n * sizeof(float)).wait();
            q.memcpy(b, d_b, n * sizeof(float)).wait();
            consume(a, b, n);
          }}
        }}
        """
    in_order = kl702(template.format(props="sycl::gpu_selector_v, sycl::property::queue::in_order()"))
    assert [d.line for d in in_order] == [8]
    assert kl702(template.format(props="sycl::gpu_selector_v")) == []


def test_taskwait_needs_nowait_tasks_to_wait_for(tmp_path) -> None:
    # corpus: sweeps() has two nowait target tasks and a taskwait per step; blocking_sweeps() has none.
    found = run_engine((CORPUS / "openmp" / "kl702_sync_in_loop.c").read_text(), "k.c", "h100", "KL702")
    assert [(d.line, d.evidence["wait"]) for d in found] == [
        (12, "#pragma omp taskwait"),
        (32, "#pragma omp target update from(temp[0:n])"),
    ]


def test_target_update_from_costs_its_copy_per_iteration() -> None:
    (found,) = kl702(
        """
        #define N 4096
        void run(float *x, int steps) {
        #pragma omp target data map(tofrom: x[0:N])
          for (int s = 0; s < 50; ++s) {
        #pragma omp target teams distribute parallel for
            for (int i = 0; i < N; ++i) x[i] *= 0.5f;
        #pragma omp target update from(x[0:N])
          }
        }
        """,
        "k.c",
        "xe-hpc",
    )
    # 4096 × 4 B = 16,384 B ÷ 63.008 GB/s = 260 ns per iteration; × 50 = 13.0 µs per loop on xe-hpc.
    assert found.cost.figures["bytes"] == 16384
    assert found.cost.value == pytest.approx(50 * 16384 / (XE_HPC_LINK * 1e9))
    assert found.cost.score == pytest.approx(0.98)


def test_a_loop_of_a_few_known_iterations_is_information_not_a_warning() -> None:
    template = """
        void warm_up(sycl::queue &q, float *d, size_t n) {{
          for (int s = 0; s < {trips}; ++s) {{
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ d[i] += 1.0f; }});
            q.wait();
          }}
        }}
        """
    (few,) = kl702(template.format(trips=8))
    (many,) = kl702(template.format(trips=9))
    assert few.severity.value == "info" and many.severity.value == "warning"
    # 8 × 7.5 µs = 60 µs per loop on the H100, of which 7/8 is the needless share.
    assert few.cost.value == pytest.approx(8 * H100_SYNC) and few.cost.score == pytest.approx(7 / 8)


def test_two_in_order_queues_still_need_events_between_them() -> None:
    # Work on `p` and on `q` is ordered within each queue only: the advice asks for events, not for
    # the in-order queues the file already has.
    (found,) = kl702(
        """
        void run(float *d, float *e, size_t n, int steps) {
          sycl::queue p{sycl::gpu_selector_v, sycl::property::queue::in_order()};
          sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order()};
          for (int s = 0; s < steps; ++s) {
            p.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] += 1.0f; });
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { e[i] += 1.0f; });
            q.wait();
          }
        }
        """
    )
    assert "events and `depends_on`" in found.message and "is in order" not in found.message


def test_a_wait_covered_by_a_later_one_in_the_same_iteration_is_dropped_not_moved() -> None:
    """Two copies back, each waited for, then the host checks both: the first wait is spare (the second
    waits for everything on the in-order queue), but the results are read in the same iteration, so the
    advice is to drop that wait, not to wait once after the loop."""
    (found,) = kl702(
        """
        void check(sycl::queue &q, float *a, float *b, float *ha, float *hb, size_t n, int reps) {
          for (int r = 0; r < reps; ++r) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1.0f; b[i] -= 1.0f; });
            q.memcpy(ha, a, n * sizeof(float)).wait();
            q.memcpy(hb, b, n * sizeof(float)).wait();
            if (ha[0] != hb[0]) return;
          }
        }
        """.replace("void check", "sycl::queue q{sycl::property::queue::in_order()};\nvoid check")
    )
    assert found.line == 6 and "the wait at line 7 waits for this work too, so drop this one" in found.message
    assert "after the loop" not in found.message
