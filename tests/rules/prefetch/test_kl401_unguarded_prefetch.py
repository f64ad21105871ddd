"""KL401 unguarded-prefetch: the next tile in C and Fortran, the guard inserted by its fix, lines after
continuations (also fixed form), and the overshoot it costs."""

from __future__ import annotations

import textwrap

import pytest

from conftest import CORPUS
from rule_helpers import cost_at, fix_of, run_engine

TILED_C = """
    #define TILE 64
    void k(float *b, float *c, int n) {
    #pragma omp target teams distribute parallel for map(to: b[0:n]) map(from: c[0:n])
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; j += TILE)
          for (int u = 0; u < TILE; ++u) {
            int next = j + TILE + u;
            if (next % 16 == 0) {
    #pragma ompx prefetch data(4: b[next]) {guard}
            }
          }
        c[i] = b[i];
      }
    }
"""


TILED_F = """
    subroutine k(b, c, n)
      integer :: n, i, j, u, nxt
      real :: b(0:n-1), c(0:n-1)
      !$omp target teams distribute parallel do map(to: b) map(from: c)
      do i = 0, n - 1
        do j = 0, n - 1, 64
          do u = 0, 63
            nxt = j + 64 + u
            if (mod(nxt, 16) == 0) then
              !$omp prefetch data(4: b(nxt:nxt)) {guard}
            end if
          end do
        end do
        c(i) = b(i)
      end do
    end subroutine
"""


@pytest.mark.parametrize(
    "code, path, guard, line", [(TILED_C, "k.c", "if (next < n)", 10), (TILED_F, "k.f90", "if (nxt <= n - 1)", 11)]
)
def test_kl401_next_tile_in_c_and_fortran(code: str, path: str, guard: str, line: int) -> None:
    (finding,) = run_engine(code.replace("{guard}", ""), path, select="KL401")
    assert finding.line == line and finding.severity.value == "warning"
    assert "Intel Data Center GPU Max" in finding.message and "fault" in finding.message
    assert finding.evidence["loop"] == "j" and finding.evidence["reaches"] == "n + 63"
    (edit,) = fix_of(finding).edits
    assert not fix_of(finding).safe and edit.text.strip() in ("if (next < n)", "if (nxt < n)")
    assert run_engine(code.replace("{guard}", guard), path, select="KL401") == []


def test_kl401_fix_inserts_a_valid_guard_at_the_end_of_the_directive() -> None:
    (finding,) = run_engine(TILED_C.replace("{guard}", "// why"), select="KL401")
    (edit,) = fix_of(finding).edits
    source = textwrap.dedent(TILED_C.replace("{guard}", "// why")).split("\n")[edit.line - 1]
    fixed = source[: edit.column - 1] + edit.text + source[edit.column - 1 :]
    assert fixed.startswith("#pragma ompx prefetch data(4: b[next]) if (next < n)") and fixed.endswith("// why")


def test_kl401_reports_the_line_of_the_item_in_a_continued_directive() -> None:
    code = TILED_C.replace(
        "#pragma ompx prefetch data(4: b[next]) {guard}",
        "#pragma ompx prefetch \\\n        data(4: \\\n             b[next])",
    )
    (finding,) = run_engine(code, select="KL401")
    assert finding.line == 12


FIXED_FORM = (
    "      SUBROUTINE S(A, N)\n"
    "      INTEGER N, I\n"
    "      REAL A(N)\n"
    "C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: A)\n"
    "      DO 10 I = 1,\n"
    "     &          N\n"
    "         A(I) = A(I) +\n"
    "     &          2.0\n"
    "C$OMP PREFETCH\n"
    "C$OMP&  DATA(4: A(I+1:I+1))\n"
    "   10 CONTINUE\n"
    "      END\n"
)


def test_fixed_form_findings_keep_their_lines_after_continuations() -> None:
    (finding,) = run_engine(FIXED_FORM, "k.f", select="KL401")
    assert (finding.line, finding.column, finding.end_column) == (10, 17, 27)  # `A(I+1:I+1)`
    assert finding.evidence["reaches"] == "n + 1" and finding.evidence["guard"] == "if (I+1 <= n)"


def test_kl401_overshoot() -> None:
    # `src[i + AHEAD]`, AHEAD = 8, i < n: the last index reached is n + 7, 8 elements past n - 1;
    # with step 1 that is 8 prefetches outside the array per pass.
    cost = cost_at(CORPUS / "openmp" / "kl401_prefetch_bounds.c", 11, "KL401")
    assert cost.value == 8 and cost.figures["step"] == 1 and cost.score == 1.0
