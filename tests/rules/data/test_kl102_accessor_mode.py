"""KL102 accessor-mode: the read-only and write-only fixes applied to source, no fix where the type names
the mode, buffers without host memory, OpenMP `map` clauses in C and Fortran, and the needless copy it costs."""

from __future__ import annotations

import textwrap

import pytest
from mode_fixes import apply, check_text, fixed_line

from accessor_kernels import in_kernel, source
from conftest import CORPUS
from kernlint.diagnostics import Severity
from kernlint_rules.data.kl102_accessor_mode import AccessorMode
from kernlint_rules.data.kl103_missing_no_init import MissingNoInit
from rule_helpers import XE_HPC_LINK, cost_at, fix_of, run_engine


@pytest.mark.parametrize(
    "declaration, expected",
    [
        ("sycl::accessor a(b0, h, sycl::read_write);", "sycl::accessor a(b0, h, sycl::read_only);"),
        ("sycl::accessor a(b0, h, /* é */ read_write);", "sycl::accessor a(b0, h, /* é */ read_only);"),
        ("sycl::accessor a(b0, h);", "sycl::accessor a(b0, h, sycl::read_only);"),
        ("auto a = b0.get_access(h);", "auto a = b0.get_access(h, sycl::read_only);"),
        (
            "auto a = b0.get_access<sycl::access::mode::read_write>(h);",
            "auto a = b0.get_access<sycl::access::mode::read>(h);",
        ),
        (
            "sycl::accessor<float, 1, sycl::access_mode::read_write> a(b0, h);",
            "sycl::accessor<float, 1, sycl::access_mode::read> a(b0, h);",
        ),
    ],
)
def test_read_only_fix(declaration: str, expected: str) -> None:
    text = source(in_kernel("float s = a[i] * 2.0f; (void)s;", f"    {declaration}"))
    line, fix = fixed_line(AccessorMode, text)
    assert line == expected and fix.safe
    assert check_text(AccessorMode, apply(text, fix.edits)) == []  # the fixed accessor is read-only


@pytest.mark.parametrize(
    "declaration, expected",
    [
        ("sycl::accessor a(b0, h, sycl::read_write);", "sycl::accessor a(b0, h, sycl::write_only, sycl::no_init);"),
        ("sycl::accessor a(b0, h);", "sycl::accessor a(b0, h, sycl::write_only, sycl::no_init);"),
        (
            "auto a = b0.get_access<sycl::access_mode::read_write>(h);",
            "auto a = b0.get_access(h, sycl::write_only, sycl::no_init);",
        ),
    ],
)
def test_write_only_fix_is_unsafe_and_leaves_nothing_to_report(declaration: str, expected: str) -> None:
    text = source(in_kernel("a[i] = 1.0f;", f"    {declaration}"))
    line, fix = fixed_line(AccessorMode, text)
    assert line == expected and not fix.safe
    fixed = apply(text, fix.edits)
    assert check_text(AccessorMode, fixed) == [] and check_text(MissingNoInit, fixed) == []


def test_no_fix_when_the_type_spells_the_mode_elsewhere() -> None:
    reader = "float reader(sycl::accessor<float, 1, sycl::access_mode::read_write> x, size_t k) { return x[k]; }"
    text = source(
        in_kernel(
            "float s = reader(a, i[0]); (void)s;", "    sycl::accessor a(b0, h, sycl::read_write);", before=reader
        )
    )
    (diagnostic,) = check_text(AccessorMode, text)
    assert diagnostic.fix is None and diagnostic.related


def test_kl102_promises_no_copy_for_a_buffer_built_from_a_range() -> None:
    """A buffer with no host memory has nothing to copy in on first use and nothing to write back at
    destruction: the overwrite finding is info (as KL103's is), and neither message promises a copy
    that does not happen."""
    buffers = "  sycl::buffer<float, 1> b0{sycl::range<1>(N)};\n  sycl::buffer<float, 1> b1{sycl::range<1>(N)};\n"
    text = source(
        in_kernel(
            "a[i] = c[i];",
            "    sycl::accessor a(b0, h, sycl::read_write);\n    sycl::accessor c(b1, h, sycl::read_write);",
            buffers=buffers,
        )
    )
    found = {d.evidence["suggested"]: d for d in check_text(AccessorMode, text)}
    overwrite, read = found["write_only, no_init"], found["read_only"]
    assert overwrite.severity is Severity.INFO and "whenever the host has accessed the buffer" in overwrite.message
    assert read.severity is Severity.WARNING and "no copy back is saved" in read.message and "bytes" not in read.message
    host_backed = text.replace("b0{sycl::range<1>(N)}", "b0(v.data(), sycl::range<1>(N))")
    (again,) = [d for d in check_text(AccessorMode, host_backed) if d.evidence["suggested"] != "read_only"]
    assert again.severity is Severity.WARNING
    assert "the old contents are copied to the device for nothing" in again.message


def test_kl102_maps_and_fixes() -> None:
    code = """
        void k(float *x, float *y, float *z, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: x[0:n]) map(y[0:n]) \\
            map(tofrom: z[0:n])
          for (int i = 0; i < n; ++i) {
            y[i] = x[i];
            z[i] = z[i] * 2;
          }
        }
    """
    to, frm = run_engine(code, select="KL102")
    assert (to.line, to.evidence["suggested"], frm.line, frm.evidence["suggested"]) == (3, "to", 3, "from")
    assert "(the default map type)" in frm.message
    line = textwrap.dedent(code).split("\n")[2]
    edit_to, edit_from = fix_of(to).edits[0], fix_of(frm).edits[0]
    assert line[edit_to.column - 1 : edit_to.end_column - 1] == "tofrom" and edit_to.text == "to"
    assert edit_from.column == edit_from.end_column and edit_from.text == "from: "
    assert line[: edit_from.column - 1].endswith("map(")


def test_kl102_same_answer_in_fortran() -> None:
    code = """
        subroutine k(x, y, z, n)
          integer :: n, i
          real :: x(n), y(n), z(n)
          !$omp target teams distribute parallel do map(tofrom: x) &
          !$omp& map(y) map(tofrom: z)
          do i = 1, n
            y(i) = x(i)
            z(i) = z(i) * 2
          end do
        end subroutine
    """
    to, frm = run_engine(code, "k.f90", select="KL102")
    assert (to.line, to.evidence["suggested"], frm.line, frm.evidence["suggested"]) == (5, "to", 6, "from")


def test_kl102_needless_copy_per_submission() -> None:
    # kl102_write_only_outputs.cpp:18: `out` over kN = 1 << 22 floats = 16,777,216 B, overwritten:
    # one needless host-to-device copy ÷ 63.008 GB/s = 266 µs per submission on xe-hpc.
    cost = cost_at(CORPUS / "sycl" / "kl102_write_only_outputs.cpp", 18, "KL102")
    assert cost.value == pytest.approx(16_777_216 / (XE_HPC_LINK * 1e9)) and cost.score == 1.0
    # OpenMP map(tofrom:) of a section whose size is not known: the formula with xe-hpc's link, no number.
    cost = cost_at(CORPUS / "openmp" / "kl102_maps.c", 7, "KL102")
    assert cost.value is None and cost.missing == ("the mapped section's size in bytes",)


def test_kl102_openmp_maps_are_priced_from_the_map_item_bytes() -> None:
    # kl102_maps.c:29: `map(tofrom: grid)` of `static float grid[N]`, N = 4096: 4 × 4096 = 16,384 B, whose
    # copy to the device is needless (the region overwrites all of it) ÷ 63.008 GB/s = 260 ns per region.
    cost = cost_at(CORPUS / "openmp" / "kl102_maps.c", 29, "KL102")
    assert cost.value == pytest.approx(16_384 / (XE_HPC_LINK * 1e9)) and cost.figures["bytes"] == 16_384
    # the same in Fortran: real(kind=8) :: v(0:63) read only, its copy back of 64 × 8 = 512 B is needless
    code = """
        subroutine s(v, w)
          real(kind=8) :: v(0:63), w(0:63)
          integer :: i
          !$omp target teams distribute parallel do map(tofrom: v) map(from: w)
          do i = 0, 63
            w(i) = 2.0d0 * v(i)
          end do
        end subroutine s
    """
    (finding,) = run_engine(code, "k.f90", select="KL102")
    assert finding.cost is not None and finding.cost.value == pytest.approx(512 / (XE_HPC_LINK * 1e9))
