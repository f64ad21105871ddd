"""KL703 round-trip: data back to the host and out again unchanged (copies, updates, consecutive target
regions) and partial results finished on the host, with the bytes of the needless copies."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from rule_helpers import XE_HPC_LINK, run_engine


def kl703(code: str, path: str = "k.cpp") -> list:
    return run_engine(code, path, select="KL703")


STEPPER = """
    void step(sycl::queue &q, float *h, int steps) {{
      const size_t n = 1 << 20;
      float *d_in = sycl::malloc_device<float>(n, q);
      float *d_out = sycl::malloc_device<float>(n, q);
      for (int s = 0; s < {steps}; ++s) {{
        q.memcpy(d_in, h, n * sizeof(float));
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ d_out[i] = d_in[i] + 1.0f; }});
        q.memcpy(h, d_out, n * sizeof(float)).wait();
        {host}
      }}
    }}
    """


def test_a_round_trip_round_a_loop_costs_both_copies_per_iteration() -> None:
    (found,) = kl703(STEPPER.format(steps=20, host=""))
    # 2^20 floats = 4,194,304 B; back and out again, and the host never reads h in the loop: 2 copies
    # per iteration = 8,388,608 B ÷ 63.008 GB/s = 133 µs; × 20 = 2.66 ms per loop on xe-hpc.
    assert found.line == 7 and found.evidence["copied_back_line"] == 9
    assert found.cost.figures["bytes"] == 4194304 and found.cost.figures["transfers"] == 2
    assert found.severity.value == "warning"
    assert found.cost.value == pytest.approx(20 * 2 * 4194304 / (XE_HPC_LINK * 1e9))
    assert (
        "round the `for` loop at line 6" in found.message
        and "copy device to device (`d_in` from `d_out`)" in found.message
    )


def test_a_host_read_between_leaves_the_copy_back_needed() -> None:
    (found,) = kl703(STEPPER.format(steps=20, host='printf("%f\\n", h[0]);'))
    assert found.cost.figures["transfers"] == 1 and found.evidence["host_reads_between"] is True


def test_a_host_change_between_is_no_round_trip() -> None:
    assert kl703(STEPPER.format(steps=20, host="h[0] = 0.0f;")) == []
    assert kl703(STEPPER.format(steps=20, host="refill(h);")) == []


def test_openmp_update_pair_and_consecutive_regions() -> None:
    found = run_engine((CORPUS / "openmp" / "kl703_round_trip.c").read_text(), "k.c", select="KL703")
    assert [(d.line, d.evidence["variable"]) for d in found] == [(11, "a"), (21, "work")]
    pair = found[1]
    assert "one `#pragma omp target data map(tofrom: work[0:n])` region" in pair.message
    assert pair.cost is not None and pair.cost.missing == ("the size of `work` in bytes",)


def test_partial_results_per_work_group_are_information() -> None:
    found = run_engine((CORPUS / "sycl" / "kl703_round_trip.cpp").read_text(), select="KL703")
    partial = next(d for d in found if d.evidence.get("partials"))
    # 4096 work-groups × 4 B = 16,384 B come back to be summed on the host: 260 ns on xe-hpc.
    assert partial.severity.value == "info" and partial.evidence["variable"] == "partial"
    assert partial.cost is not None and partial.cost.value == pytest.approx(16384 / (XE_HPC_LINK * 1e9))
    assert not any(d.evidence.get("variable") == "h_out" for d in found)  # a checksum of the whole result


def test_a_copy_back_into_the_buffer_it_came_from_is_dropped_not_copied_device_to_device() -> None:
    # The device buffer `d` is where `h` came from: the copy out writes what `d` already holds, so the
    # advice is to copy once before the loop, not a device-to-device copy of `d` onto itself.
    (found,) = kl703(
        """
        void bounds(sycl::queue &q, int *h, int steps) {
          int *d = sycl::malloc_device<int>(4, q);
          for (int s = 0; s < steps; ++s) {
            q.memcpy(d, h, 4 * sizeof(int));
            q.single_task([=] { d[0] += 1; });
            q.memcpy(h, d, 4 * sizeof(int)).wait();
          }
        }
        """
    )
    assert found.line == 5
    # 4 ints back and out again, 2 × 16 B per iteration: under a page, so information, not a warning.
    assert found.severity.value == "info" and found.cost.figures["bytes"] == 16
    assert "`d` still holds it from the previous iteration: copy `h` in once before the `for` loop" in found.message
    assert "device to device" not in found.message
