"""KL104 legacy-access-mode: the SYCL 2020 spelling as a safe fix, at no run-time cost."""

from __future__ import annotations

import pytest
from mode_fixes import apply, check_text, fixed_line

from accessor_kernels import in_kernel, source
from conftest import CORPUS
from kernlint_rules.data.kl104_legacy_access_mode import LegacyAccessMode
from rule_helpers import cost_at


@pytest.mark.parametrize(
    "declaration, expected",
    [
        ("auto a = b0.get_access<sycl::access::mode::read>(h);", "auto a = b0.get_access<sycl::access_mode::read>(h);"),
        (
            "auto a = b0.get_access<sycl::access::mode::discard_write>(h);",
            "auto a = b0.get_access(h, sycl::write_only, sycl::no_init);",
        ),
        (
            "sycl::accessor<float, 1, cl::sycl::access :: mode::read> a(b0, h);",
            "sycl::accessor<float, 1, cl::sycl::access_mode::read> a(b0, h);",
        ),
    ],
)
def test_legacy_mode_fix(declaration: str, expected: str) -> None:
    text = source(
        in_kernel("float s = a[i]; (void)s;" if "read>" in declaration else "a[i] = 0.0f;", f"    {declaration}")
    )
    line, fix = fixed_line(LegacyAccessMode, text)
    assert line == expected and fix.safe
    assert check_text(LegacyAccessMode, apply(text, fix.edits)) == []


def test_kl104_costs_nothing_at_run_time() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl104_legacy_modes.cpp", 10, "KL104")
    assert (cost.value, cost.score) == (0.0, 0.0) and "no cost at run time" in cost.phrase()
