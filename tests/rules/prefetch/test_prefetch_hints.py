"""KL402 prefetch-no-op-hint and KL403 prefetch-invalid-hint on the same directives: which hint is which."""

from __future__ import annotations

import pytest

from rule_helpers import run_engine


@pytest.mark.parametrize(
    "hint, expected",
    [
        ("", ["KL402"]),
        ("0:", ["KL402"]),
        ("ZERO:", ["KL402"]),
        ("3:", ["KL403"]),
        ("2 * 4:", ["KL403"]),
        ("2:", []),
        ("4:", []),
        ("UNKNOWN:", []),
    ],
)
def test_kl402_kl403_hints(hint: str, expected: list[str]) -> None:
    code = f"""
        #define ZERO 0
        void k(float *a, int n) {{
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; ++i) {{
        #pragma ompx prefetch data({hint} a[i])
            a[i] += 1;
          }}
        }}
    """
    assert [d.code for d in run_engine(code, select="KL40")] == expected
