"""KL704 shared-usm-device-only: shared USM that only kernels touch in the hot loop; the host's uses
around the loop are fine, a use inside it is not; page migration is not in the device model."""

from __future__ import annotations

from rule_helpers import run_engine


def kl704(code: str) -> list:
    return run_engine(code, "k.cpp", select="KL704")


TEMPLATE = """
    float run(sycl::queue &q, int steps) {{
      const size_t n = 1 << 16;
      float *x = sycl::malloc_shared<float>(n, q);
      for (size_t i = 0; i < n; ++i) x[i] = 1.0f;
      for (int s = 0; s < steps; ++s) {{
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ x[i] *= 0.5f; }});
        {inside}
      }}
      q.wait();
      return x[0];
    }}
    """


def test_device_only_use_in_the_loop_is_reported_with_the_bytes_that_migrate() -> None:
    (found,) = kl704(TEMPLATE.format(inside=""))
    assert found.line == 4 and found.severity.value == "info" and found.evidence["loop_line"] == 6
    assert found.evidence["bytes"] == 65536 * 4
    assert found.cost is not None and found.cost.value is None
    assert found.cost.missing == ("the page-migration time (not in the device model)",)
    assert "262 kB migrate to the device" in found.cost.basis


def test_a_host_use_inside_the_loop_keeps_it_away() -> None:
    for inside in ("q.wait(); total += x[0];", "q.wait(); report(x);", "x[0] = 0.0f;"):
        assert kl704(TEMPLATE.format(inside=inside).replace("float run", "float total = 0; float run")) == [], inside


def test_a_loop_that_prefetches_the_array_manages_its_pages_itself() -> None:
    assert kl704(TEMPLATE.format(inside="q.prefetch(x, n * sizeof(float));")) == []
    assert len(kl704(TEMPLATE.format(inside="q.prefetch(other, n * sizeof(float));"))) == 1
