"""The arrays a target construct maps without a clause (`OmpConstruct.implicit_maps`): named in its
region, listed by none of its clauses, declared as arrays (in C with a size; a team's own array is
none), each with its storage and bytes as a map item's."""

from __future__ import annotations

import textwrap

from kernlint.config import Config
from kernlint.frontends.cpp.frontend import extract
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.source import SourceFile


def test_c_arrays_with_a_size_are_mapped_implicitly() -> None:
    code = """
        #define N 256
        float grid[N];
        void run(float *p, float *q, int n) {
        #pragma omp target teams distribute parallel for map(to: p[0:N])
          for (int i = 0; i < N; ++i) {
            float tile[4][4];
            tile[0][0] = p[i] + q[i];
            grid[i] = tile[0][0];
          }
        #pragma omp target teams distribute parallel for defaultmap(none) map(tofrom: grid)
          for (int i = 0; i < N; ++i) grid[i] += 1.0f;
        }
        """
    facts = extract("k.c", textwrap.dedent(code).encode())
    first, second = (c for c in facts.omp if "target" in c.leaves)
    # not the team's own `tile`, not the mapped `p`, not the pointer `q` (a pointer maps no data)
    assert [(m.name, m.storage, m.bytes) for m in first.implicit_maps] == [("grid", "array", 1024)]
    assert second.implicit_maps == ()  # defaultmap says what happens to them


def test_fortran_arrays_are_mapped_implicitly() -> None:
    source = """
        subroutine run(u, v, n)
          integer, intent(in) :: n
          real :: u(n), v(100)
          integer :: i
          !$omp target teams distribute parallel do map(to: u)
          do i = 1, n
            v(i) = u(i)
          end do
          !$omp end target teams distribute parallel do
        end subroutine run
        """
    facts = extract_fortran(SourceFile("k.f90", textwrap.dedent(source).encode()), fixed_form=False, config=Config())
    target = next(c for c in facts.omp if c.directive is not None and "target" in c.leaves and not c.directive.is_end)
    assert [(m.name, m.bytes) for m in target.implicit_maps] == [("v", 400)]
