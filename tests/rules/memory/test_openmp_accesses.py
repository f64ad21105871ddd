"""The memory rules on OpenMP offload regions: which iteration is the lane, Fortran's column-major
order, and arrays a team shares in local memory."""

from __future__ import annotations

from rule_helpers import run_engine


def test_the_innermost_collapsed_iteration_is_the_lane() -> None:
    found = run_engine(
        """
        void t(const float *a, float *b, int n) {
          #pragma omp target teams distribute parallel for collapse(2) map(to: a[0:n*n]) map(from: b[0:n*n])
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
              b[i * n + j] = a[j * n + i];
        }
        """,
        "k.c",
        "h100",
        "KL6",
    )
    assert [(d.code, d.message.split(":")[0]) for d in found] == [
        ("KL601", "uncoalesced load `a[j * n + i]` (the kernel's main data access)")
    ]


def test_fortran_strides_by_the_leading_dimension() -> None:
    found = run_engine(
        """
        subroutine s(a, b, n, m)
          integer :: n, m, i, k
          real :: a(n, m), b(m, n)
          !$omp target teams distribute parallel do
          do i = 1, n
            do k = 1, m
              a(i, k) = b(k, i)
            end do
          end do
        end subroutine
        """,
        "k.f90",
        "h100",
        "KL6",
    )
    assert len(found) == 1 and "`b(k, i)`" in found[0].message and "a row of `m` elements apart" in found[0].message


def test_a_team_tile_is_local_memory() -> None:
    found = run_engine(
        """
        void t(const float *a, float *b, int n) {
          #pragma omp target teams num_teams(n / 32) thread_limit(32) map(to: a[0:n*32]) map(from: b[0:n*32])
          {
            float tile[32][32];
            #pragma omp parallel
            {
              int t = omp_get_thread_num();
              int g = omp_get_team_num();
              for (int k = 0; k < 32; k++) tile[k][t] = a[(g * 32 + k) * 32 + t];
              #pragma omp barrier
              for (int k = 0; k < 32; k++) b[(g * 32 + k) * 32 + t] = tile[t][k];
            }
          }
        }
        """,
        "k.c",
        "h100",
        "KL6",
    )
    assert [d.code for d in found] == ["KL602"]
    assert "32-way" in found[0].message and "pad the tile to [32][33]" in found[0].message


def test_an_array_of_row_pointers_is_not_one_flat_array() -> None:
    """`double *planes[4]`: each row is its own allocation, so `planes[p][x]` has no element pitch."""
    found = run_engine(
        """
        void t(int nx) {
          double *planes[4];
          #pragma omp target teams distribute parallel for map(tofrom: planes)
          for (int p = 0; p < 4; ++p)
            for (int x = 0; x < nx; ++x)
              planes[p][x] = 0.0;
        }
        """,
        "k.cpp",
        "xe-hpc",
        "KL6",
    )
    assert found == []


def test_a_small_struct_read_whole_but_its_padding_is_one_vector_load() -> None:
    """`{int count; float *samples;}` is 16 bytes with 4 of padding: both members read is the whole
    struct, which one vector load per lane fetches."""
    found = run_engine(
        """
        struct Cell { int count; float *samples; };
        float t(Cell *cells, int n) {
          float total = 0.0f;
          #pragma omp target teams distribute parallel for reduction(+: total) map(to: cells[0:n])
          for (int c = 0; c < n; ++c)
            for (int k = 0; k < cells[c].count; ++k)
              total += cells[c].samples[k];
          return total;
        }
        """,
        "k.cpp",
        "xe-hpc",
        "KL603",
    )
    assert found == []
