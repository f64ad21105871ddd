"""KL405 prefetch-every-element: the device's cache line and the element size."""

from __future__ import annotations

from kernlint.diagnostics import Diagnostic
from rule_helpers import run_engine


def codes(diagnostics: list[Diagnostic]) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in diagnostics]


def test_kl405_uses_the_device_cache_line_and_element_size() -> None:
    code = """
        void k(double *d, float *f, int n) {
        #pragma omp target teams distribute parallel for map(to: d[0:n], f[0:n])
          for (int i = 0; i < n; ++i)
            for (int u = 0; u < n; u += 4) {
        #pragma ompx prefetch data(4: d[u]) if (u < n)
        #pragma ompx prefetch data(4: f[u]) if (u < n)
            }
        }
    """
    found = run_engine(code, select="KL405")
    assert codes(found) == [(6, "KL405"), (7, "KL405")]
    assert found[0].evidence["stride_bytes"] == 32 and found[0].evidence["prefetches_per_line"] == 2
    assert found[1].evidence["prefetches_per_line"] == 4 and found[0].device == "xe-hpc"
    assert run_engine(code, device="h100", select="KL405") == []  # the extension is Intel's
