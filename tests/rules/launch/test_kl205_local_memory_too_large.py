"""KL205 local-memory-too-large: Intel's and NVIDIA's limits, and the cost of a launch that fails."""

from __future__ import annotations

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.launch.kl205_local_memory_too_large import LocalMemoryTooLarge
from rule_helpers import cost_at


def local_kernel(count: int, element: str = "float") -> str:
    return f"""
        void k(sycl::queue &q, float *x, size_t n) {{
          q.submit([&](sycl::handler &h) {{
            sycl::local_accessor<{element}, 1> t(sycl::range<1>({count}), h);
            h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {{ t[0] = x[0]; }});
          }});
        }}
    """


def test_kl205_intel_limit_is_exclusive_and_counts_bytes():
    assert run_rule(LocalMemoryTooLarge, local_kernel(16384), "xe-lp") == []  # exactly 64 KB
    (diagnostic,) = run_rule(LocalMemoryTooLarge, local_kernel(16385), "xe-lp")
    assert diagnostic.severity is Severity.ERROR and diagnostic.line == 4
    assert diagnostic.evidence["local_memory_bytes"] == 65540 and diagnostic.evidence["limit_bytes"] == 65536
    assert run_rule(LocalMemoryTooLarge, local_kernel(16385), "xe-hpc") == []
    assert run_rule(LocalMemoryTooLarge, local_kernel(100000, "Opaque"), "xe-lp") == []  # size unknown


def test_kl205_nvidia_default_limit_is_a_warning_and_opt_in_limit_an_error():
    assert run_rule(LocalMemoryTooLarge, local_kernel(12288), "h100") == []  # 48 KB
    (warning,) = run_rule(LocalMemoryTooLarge, local_kernel(12289), "h100")
    assert warning.severity is Severity.WARNING and "SYCL_PI_CUDA_MAX_LOCAL_MEM_SIZE" in warning.message
    (error,) = run_rule(LocalMemoryTooLarge, local_kernel(60 * 1024), "h100")  # 240 KB > 227 KB
    assert error.severity is Severity.ERROR and error.evidence["limit_bytes"] == 232448


def test_kl205_is_a_failure() -> None:
    # 80 KB of local memory on xe-lp, whose work-groups get at most 64 KB: the launch fails.
    cost = cost_at(CORPUS / "sycl" / "kl205_local_memory_too_large.cpp", 13, "KL205", "xe-lp")
    assert (cost.value, cost.score) == (100.0, 1.0) and "81920 > 65536" in cost.basis
