"""KL708 shallow-map: pointers to pointers and structs with pointer members mapped without what they
point to, against the deep-copy patterns that make them right."""

from __future__ import annotations

import pytest

from rule_helpers import run_engine

SHALLOW = """
    void k(int **A) {
    #pragma omp target teams distribute parallel for map(tofrom: ITEM)
      for (int i = 0; i < 10; i++) A[i][i] += i;
    }
"""


@pytest.mark.parametrize("item", ["A", "A[0:10]", "A[0:10][0:10]"])
def test_kl708_pointer_to_pointers_mapped_shallowly(item: str) -> None:
    (finding,) = run_engine(SHALLOW.replace("ITEM", item), select="KL7")
    assert finding.code == "KL708" and finding.severity.value == "error"
    assert "a pointer to pointers" in finding.message and "map(to: A[i][0:m])" in finding.message


def test_kl708_deep_copy_with_enter_data_per_row() -> None:
    code = """
        void k(int **A) {
        #pragma omp target enter data map(to: A[0:10])
          for (int i = 0; i < 10; i++) {
        #pragma omp target enter data map(to: A[i][0:10])
          }
        #pragma omp target teams distribute parallel for
          for (int i = 0; i < 10; i++) A[i][i] += i;
          for (int i = 0; i < 10; i++) {
        #pragma omp target exit data map(from: A[i][0:10])
          }
        #pragma omp target exit data map(from: A[0:10])
        }
    """
    assert run_engine(code, select="KL7") == []


def test_kl708_rows_mapped_in_another_function_do_not_count_for_a_parameter() -> None:
    code = """
        void rows(int **A, int n) {
          for (int i = 0; i < n; i++) {
        #pragma omp target enter data map(to: A[i][0:n])
          }
        }
    """ + SHALLOW.replace("ITEM", "A[0:10]")
    assert [d.code for d in run_engine(code, select="KL7")] == ["KL708"]


def test_kl708_struct_member_and_its_fixes() -> None:
    code = """
        struct Field { int n; double *v; };
        double k(struct Field f) {
          double s = 0.0;
        #pragma omp target teams distribute parallel for reduction(+: s) map(to: ITEM) map(tofrom: s)
          for (int i = 0; i < f.n; ++i) s += f.v[i];
          return s;
        }
    """
    (finding,) = run_engine(code.replace("ITEM", "f"), select="KL708")
    assert "pointer member `v`" in finding.message
    assert run_engine(code.replace("ITEM", "f, f.v[0:f.n]"), select="KL708") == []
    mapper = "#pragma omp declare mapper(struct Field f) map(f, f.v[0:f.n])\n" + code.replace("ITEM", "f")
    assert run_engine(mapper, select="KL708") == []


def test_kl708_silent_when_the_region_does_not_follow_the_pointers() -> None:
    code = """
        struct Field { int n; double *v; };
        void k(struct Field f, int **A, int *out) {
        #pragma omp target map(to: f, A[0:4]) map(from: out[0:1])
          out[0] = f.n + (A[0] != 0);
        }
    """
    assert run_engine(code, select="KL708") == []
