"""KL404 prefetch-in-simd: inside a simd region only."""

from __future__ import annotations

from rule_helpers import run_engine


def test_kl404_inside_simd_only() -> None:
    code = """
        void k(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i += 16) {
        #pragma omp simd simdlen(16)
            for (int v = 0; v < 16; ++v) {
        #pragma ompx prefetch data(4: a[i + v]) if (i + v < n)
              a[i + v] += 1;
            }
        #pragma ompx prefetch data(4: a[i + 16]) if (i + 16 < n)
          }
        }
    """
    (finding,) = run_engine(code, select="KL40")
    assert (finding.line, finding.code) == (7, "KL404") and "16 lanes" in finding.message
