"""KL705 map-without-section: a pointer (or a Fortran assumed-size array) mapped with no section, and
the pointers that are fine to map bare."""

from __future__ import annotations

import pytest

from rule_helpers import run_engine

BARE = """
    void vadd(const int *a, const int *b, int *s, int size) {
    #pragma omp target map(to: a, b) map(from: s)
    #pragma omp parallel for
      for (int i = 0; i < size; i++) s[i] = a[i] + b[i];
    }
"""


def test_kl705_each_bare_pointer_is_an_error_naming_the_section_it_uses() -> None:
    found = run_engine(BARE, select="KL705")
    assert [(d.code, d.severity.value) for d in found] == [("KL705", "error")] * 3
    assert "`a[0:size]` (the range the region uses)" in found[0].message
    assert found[0].cost is not None and found[0].cost.value == 100.0 and found[0].cost.score == 1.0


def test_kl705_fixed_with_sections() -> None:
    fixed = BARE.replace("map(to: a, b) map(from: s)", "map(to: a[0:size], b[0:size]) map(from: s[0:size])")
    assert run_engine(fixed, select="KL705") == []


@pytest.mark.parametrize(
    "code",
    [
        # device memory: the pointer's value is a device address
        """
        void k(int n) {
          float *d = (float *) omp_target_alloc(n * sizeof(float), 0);
        #pragma omp target teams distribute parallel for map(to: d)
          for (int i = 0; i < n; ++i) d[i] = 0.0f;
        }
        """,
        """
        void k(float *p, int n) {
        #pragma omp target data map(to: p) use_device_ptr(p)
          { launch(p, n); }
        }
        """,
        """
        void k(int n) {
          double *d;
          cudaMalloc((void **)&d, n * sizeof(double));
        #pragma omp target teams distribute parallel for map(to: d)
          for (int i = 0; i < n; ++i) d[i] = 0.0;
        }
        """,
        # the function maps the data it points to: the pointer is attached to it
        """
        void k(float *x, int n) {
        #pragma omp target enter data map(to: x[0:n])
        #pragma omp target teams distribute parallel for map(to: x)
          for (int i = 0; i < n; ++i) x[i] += 1.0f;
        }
        """,
        # the region never dereferences it
        """
        void k(float *x, float *y, int n) {
        #pragma omp target teams distribute parallel for map(to: x) map(from: y[0:n])
          for (int i = 0; i < n; ++i) y[i] = x ? 1.0f : 0.0f;
        }
        """,
        # release and delete move nothing
        "void k(float *x) {\n#pragma omp target exit data map(delete: x)\n}\n",
    ],
)
def test_kl705_silent_for_device_pointers_attached_and_unused_pointers(code: str) -> None:
    assert run_engine(code, select="KL705") == []


def test_kl705_a_section_mapped_in_another_function_does_not_attach_a_local_pointer() -> None:
    code = """
        void other(float *x, int n) {
        #pragma omp target enter data map(to: x[0:n])
        }
        void k(float *x, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: x)
          for (int i = 0; i < n; ++i) x[i] += 1.0f;
        }
    """
    (finding,) = run_engine(code, select="KL705")
    assert finding.line == 6


def test_kl705_a_global_pointer_mapped_anywhere_in_the_file_is_attached() -> None:
    code = """
        float *field;
        void setup(int n) {
        #pragma omp target enter data map(to: field[0:n])
        }
        void step(int n) {
        #pragma omp target teams distribute parallel for map(to: field)
          for (int i = 0; i < n; ++i) field[i] *= 2.0f;
        }
    """
    assert run_engine(code, select="KL705") == []


def test_kl705_malloc_count_in_the_message() -> None:
    code = """
        void k(int m) {
          float *h = (float *) malloc(512 * sizeof(float));
        #pragma omp target enter data map(to: h)
        }
    """
    (finding,) = run_engine(code, select="KL705")
    assert "(512 elements)" in finding.message and "`h[0:512]`" in finding.message


def test_kl705_fortran_assumed_size() -> None:
    code = """
        subroutine s(a, b, n)
          integer :: n, i
          integer, dimension(*) :: a
          real :: b(n, *)
          !$omp target teams distribute parallel do map(tofrom: a, b(1:n, 1:2))
          do i = 1, n
            a(i) = a(i) + int(b(i, 1))
          end do
        end subroutine s
    """
    (finding,) = run_engine(code, "k.f90", select="KL705")
    assert "assumed-size array `a`" in finding.message and "`a(1:n)`" in finding.message
    fixed = code.replace("map(tofrom: a, b(1:n, 1:2))", "map(tofrom: a(1:n), b(1:n, 1:2))")
    assert run_engine(fixed, "k.f90", select="KL705") == []
