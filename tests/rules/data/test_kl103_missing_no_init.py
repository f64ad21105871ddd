"""KL103 missing-no-init: the no_init fix applied to source, no fix where properties follow the mode,
severity by host data, a second accessor over the buffer, and the needless copy it costs."""

from __future__ import annotations

import pytest
from mode_fixes import apply, check_text, fixed_line

from accessor_kernels import in_kernel, source, uses_of
from conftest import CORPUS
from kernlint.frontends.cpp.frontend import extract
from kernlint_rules.data.kl102_accessor_mode import AccessorMode
from kernlint_rules.data.kl103_missing_no_init import MissingNoInit
from rule_helpers import XE_HPC_LINK, cost_at


@pytest.mark.parametrize(
    "declaration, expected",
    [
        ("sycl::accessor a(b0, h, sycl::write_only);", "sycl::accessor a(b0, h, sycl::write_only, sycl::no_init);"),
        ("sycl::accessor a{b0, h, write_only};", "sycl::accessor a{b0, h, write_only, no_init};"),
        (
            "auto a = b0.get_access<sycl::access_mode::write>(h);",
            "auto a = b0.get_access(h, sycl::write_only, sycl::no_init);",
        ),
    ],
)
def test_no_init_fix(declaration: str, expected: str) -> None:
    text = source(in_kernel("a[i] = 1.0f;", f"    {declaration}"))
    line, fix = fixed_line(MissingNoInit, text)
    assert line == expected and not fix.safe
    assert check_text(MissingNoInit, apply(text, fix.edits)) == []


def test_no_init_not_fixed_when_properties_follow_the_mode() -> None:
    text = source(in_kernel("a[i] = 1.0f;", "    sycl::accessor a(b0, h, sycl::write_only, sycl::property_list{});"))
    (diagnostic,) = check_text(MissingNoInit, text)
    assert diagnostic.fix is None


def test_kl103_severity_depends_on_host_data() -> None:
    text = source(
        in_kernel(
            "a[i] = 1.0f;",
            "    sycl::accessor a(b0, h, sycl::write_only);",
            buffers="  sycl::buffer<float, 1> b0(sycl::range<1>(N));\n",
        )
    )
    (diagnostic,) = check_text(MissingNoInit, text)
    assert diagnostic.severity.value == "info"
    text = source(in_kernel("a[i] = 1.0f;", "    sycl::accessor a(b0, h, sycl::write_only);"))
    (diagnostic,) = check_text(MissingNoInit, text)
    assert diagnostic.severity.value == "warning" and "4,194,304 bytes" in diagnostic.message


def test_a_second_accessor_over_the_same_buffer_keeps_both_rules_quiet() -> None:
    accessors = (
        "    sycl::accessor in(b0, h, sycl::read_only);\n    sycl::accessor out(b0, h, sycl::write_only);\n"
        "    sycl::accessor rw(b1, h, sycl::read_write);\n    sycl::accessor w(b1, h, sycl::write_only);"
    )
    text = source(in_kernel("out[i] = 2.0f * in[i]; w[i] = rw[i];", accessors))
    uses = {a.name: uses_of(a) for a in extract("t.cpp", text.encode()).accessors}
    assert uses["out"].only_written and uses["out"].same_buffer_modes == ("read",)
    assert not uses["out"].overwrites_whole_buffer  # no_init would discard what `in` reads
    assert uses["rw"].only_read and uses["rw"].same_buffer_modes == ("write",)
    assert check_text(MissingNoInit, text) == [] and check_text(AccessorMode, text) == []


def test_kl103_needless_copy_per_submission() -> None:
    # kl103_missing_no_init.cpp:27: kN = 1 << 20 floats = 4,194,304 B ÷ 63.008 GB/s = 66.6 µs.
    cost = cost_at(CORPUS / "sycl" / "kl103_missing_no_init.cpp", 27, "KL103")
    assert cost.value == pytest.approx(4_194_304 / (XE_HPC_LINK * 1e9))
