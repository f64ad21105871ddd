"""KL406 malformed-directive: directives that do not parse or are mistyped, and a cost the device model
cannot put a number on."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from rule_helpers import cost_at, run_engine


@pytest.mark.parametrize(
    "directive, expected",
    [
        ("omp target teams distribute paralel for", "did you mean 'parallel'"),
        ("omp parallel for shedule(static)", "did you mean 'schedule'"),
        ("omp target map(tofrom: a[0:n)", "does not parse"),
        ("omp paralel for", "unknown OpenMP directive 'paralel'"),
        ("omp target teams ompx_bare thread_limit(64)", None),
        ("omp target teams distribute parallel for nontemporal(a)", None),
    ],
)
def test_kl406_malformed_and_mistyped_directives(directive: str, expected: str | None) -> None:
    code = f"""
        void k(float *a, int n) {{
        #pragma {directive}
          for (int i = 0; i < n; ++i) a[i] = 0;
        }}
    """
    found = run_engine(code, select="KL406")
    if expected is None:
        assert found == []
    else:
        (finding,) = found
        assert finding.line == 3 and expected in finding.message


def test_kl406_names_what_the_model_lacks() -> None:
    cost = cost_at(CORPUS / "openmp" / "kl406_malformed.c", 3, "KL406")
    assert cost.value is None and cost.phrase().startswith("not in the device model")
