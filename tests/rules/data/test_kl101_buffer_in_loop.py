"""KL101 buffer-in-loop: one call level into the file's own helpers, and the copies it costs per
iteration and per loop, by hand from the corpus buffers."""

from __future__ import annotations

import pytest

from conftest import CORPUS, run_rule
from kernlint.frontends.cpp.frontend import extract
from kernlint.occupancy import load_device
from kernlint_rules.data.kl101_buffer_in_loop import BufferInLoop, buffer_in_loop_cost
from rule_helpers import XE_HPC_LINK, cost_at


def test_kl101_follows_one_call_level_into_the_file_s_own_helpers():
    code = """
        void upload(float *h, size_t n) {
          sycl::buffer<float> in(h, sycl::range<1>(n));
          sycl::buffer<float> out(h + n, sycl::range<1>(n));
        }
        void scratch(size_t n) { sycl::buffer<float> t{sycl::range<1>(n)}; }
        void looped(float *h, size_t n) { for (int i = 0; i < 4; ++i) { sycl::buffer<float> b(h, sycl::range<1>(n)); } }
        void run_rule(float *h, size_t n, int steps) {
          for (int s = 0; s < steps; ++s) { upload(h, n); scratch(n); looped(h, n); }
          for (int once = 0; once < 1; ++once) upload(h, n);
          upload(h, n);
        }
    """
    found = sorted(run_rule(BufferInLoop, code, None), key=lambda d: d.line)
    assert [(d.line, d.evidence.get("callee")) for d in found] == [(7, None), (9, "upload")]
    through = found[1]
    assert through.evidence["buffers"] == 2 and "`upload` is called inside the `for` loop at line 9" in through.message
    assert [r.line for r in through.related] == [9, 3, 4]


def test_kl101_cost_from_the_corpus_buffer() -> None:
    # corpus: `sycl::buffer<float, 1> rod(..., sycl::range<1>(kCells))` with kCells = 65536, in a loop.
    path = CORPUS / "sycl" / "kl101_time_stepping.cpp"
    facts = extract(str(path), path.read_bytes())
    rod = next(b for b in facts.buffers if b.name == "rod" and b.span.line == 9)
    cost = buffer_in_loop_cost(facts, [rod], [load_device("xe-hpc")])
    # 65,536 × 4 B = 262,144 B; × 2 transfers (copy in, write back) ÷ 63.008 GB/s = 8.32 µs per iteration
    assert cost.figures["bytes"] == 65536 * 4 and cost.figures["transfers"] == 2
    assert cost.value == pytest.approx(262144 * 2 / (XE_HPC_LINK * 1e9))
    assert "the loop's trip count (for the per-loop total)" in cost.missing
    per_loop = buffer_in_loop_cost(facts, [rod], [load_device("xe-hpc")], trip_count=100)
    assert per_loop.value == pytest.approx(100 * 262144 * 2 / (XE_HPC_LINK * 1e9))  # 832 µs per loop
    assert per_loop.score == pytest.approx(0.99)  # all but one iteration's copies are needless
    shapes = CORPUS / "sycl" / "kl101_loop_shapes.cpp"
    facts = extract(str(shapes), shapes.read_bytes())
    data = next(b for b in facts.buffers if b.name == "data")  # built over a vector of unknown size
    unknown = buffer_in_loop_cost(facts, [data], [load_device("xe-hpc")])
    assert unknown.value is None and "the extent of buffer `data`" in unknown.missing
    assert unknown.basis == "? bytes × 2 ÷ 63.008 GB/s (PCIe 5.0 x16, xe-hpc) per iteration"


def test_kl101_per_iteration_and_per_loop_through_the_engine() -> None:
    # kl101_cost_per_loop.cpp: buffer<float> of kPoints = 4096 over host memory, read_write, in a loop of
    # kSteps = 100: 4096 × 4 B = 16,384 B; × 2 copies = 32,768 B ÷ 63.008 GB/s = 520 ns per iteration;
    # × 100 = 52.0 µs per loop on xe-hpc. On xe-lp (integrated) no link cost is quoted.
    path = CORPUS / "sycl" / "kl101_cost_per_loop.cpp"
    cost = cost_at(path, 11, "KL101", "xe-hpc", "xe-lp")
    assert cost.value == pytest.approx(100 * 2 * 4096 * 4 / (XE_HPC_LINK * 1e9))
    assert cost.figures["repeats"] == 100 and cost.device == "xe-hpc"
    assert cost.figures["per_device"]["xe-lp"].startswith("integrated")
    assert cost.value is not None
    assert cost.seconds == pytest.approx(cost.value * 0.99)  # 99 of the 100 iterations' copies are needless
    lp_only = cost_at(path, 11, "KL101", "xe-lp")
    assert lp_only.value is None and "may not be copied at all" in lp_only.basis
