"""Which way a tree step's bound moves, read from the code in each language: `lid < s` with `s` halved
shrinks the active lanes step by step (a reduction's tree, or a scan's up-sweep); with `d` doubled it grows
them (a scan's down-sweep). The two cost the same lane-steps but call for different changes."""

from __future__ import annotations

import textwrap

import pytest

from kernlint.config import Config
from kernlint.facts import FileFacts
from kernlint.frontends.cpp.frontend import extract as extract_cpp
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.source import SourceFile

SYCL = """
    #include <sycl/sycl.hpp>
    void f(sycl::queue &q, float *x, size_t n) {{
      q.submit([&](sycl::handler &h) {{
        sycl::local_accessor<float, 1> t(256, h);
        h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {{
          const int lid = it.get_local_id(0);
          t[lid] = x[it.get_global_id(0)];
          for ({loop}) {{
            sycl::group_barrier(it.get_group());
            if (lid < d) t[lid] += t[lid + 1];
          }}
          x[it.get_global_id(0)] = t[lid];
        }});
      }});
    }}
"""
OPENMP_C = """
    #include <omp.h>
    void f(float *x, int teams) {{
    #pragma omp target teams num_teams(teams) thread_limit(256) map(tofrom: x[0:teams * 256])
      {{
        float t[256];
    #pragma omp parallel
        {{
          const int lid = omp_get_thread_num();
          t[lid] = x[omp_get_team_num() * 256 + lid];
          for ({loop}) {{
    #pragma omp barrier
            if (lid < d) t[lid] += t[lid + 1];
          }}
        }}
      }}
    }}
"""
FORTRAN = """
    subroutine f(x, teams)
      use omp_lib
      integer :: teams, lid, d
      real :: x(teams * 256), t(256)
      !$omp target teams num_teams(teams) thread_limit(256) map(tofrom: x)
      !$omp parallel private(lid, d)
      lid = omp_get_thread_num()
      t(lid + 1) = x(lid + 1)
      {start}
      do while (d > 0 .and. d < 512)
        !$omp barrier
        if (lid < d) t(lid + 1) = t(lid + 1) + t(lid + 2)
        {step}
      end do
      !$omp end parallel
      !$omp end target teams
    end subroutine f
"""


def _cpp(code: str, name: str) -> FileFacts:
    return extract_cpp(name, textwrap.dedent(code).encode())


def _fortran(code: str) -> FileFacts:
    return extract_fortran(SourceFile("t.f90", textwrap.dedent(code).encode()), fixed_form=False, config=Config())


def _lanes(facts: FileFacts) -> list[str | None]:
    return [b.lanes.kind if b.lanes else None for b in facts.branches if b.kind == "if"]


@pytest.mark.parametrize(
    ("loop", "kind"),
    [
        ("int d = 128; d > 0; d >>= 1", "shrinking"),
        ("int d = 128; d > 0; d /= 2", "shrinking"),
        ("int d = 128; d > 0; d = d >> 1", "shrinking"),
        ("int d = 1; d < 256; d *= 2", "growing"),
        ("int d = 1; d < 256; d <<= 1", "growing"),
        ("int d = 1; d < 256; d = d * 2", "growing"),
    ],
)
def test_sycl_and_openmp_c_read_the_direction_of_the_step(loop: str, kind: str) -> None:
    assert _lanes(_cpp(SYCL.format(loop=loop), "t.cpp")) == [kind]
    assert _lanes(_cpp(OPENMP_C.format(loop=loop), "t.c")) == [kind]


@pytest.mark.parametrize(
    ("start", "step", "kind"),
    [
        ("d = 128", "d = d / 2", "shrinking"),
        ("d = 1", "d = d * 2", "growing"),
        ("d = 1", "d = 2 * d + 1", "staggered"),  # not a scaling of `d`: a step, whatever its size
    ],
)
def test_fortran_reads_the_direction_of_the_step(start: str, step: str, kind: str) -> None:
    assert _lanes(_fortran(FORTRAN.format(start=start, step=step))) == [kind]
