"""The OpenMP rules (KL401-KL405, and the OpenMP halves of KL102 and KL201) through the engine:
findings, their lines after continuations, messages, evidence and fixes, the same in C and Fortran."""

from __future__ import annotations

import textwrap
from functools import cache

import pytest

from kernlint.config import Config
from kernlint.diagnostics import Diagnostic, Fix
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_source
from kernlint.session import make_setup


@cache
def _setup(device: str):
    return make_setup(Config(devices=(device,)), use_cache=False)


def run(code: str, path: str = "k.c", device: str = "xe-hpc", select: str = "KL") -> list[Diagnostic]:
    family = "fortran" if path.endswith((".f", ".f90")) else ("c" if path.endswith(".c") else "cpp")
    entry = SourceEntry(path, family, path.endswith(".f"))
    text = textwrap.dedent(code) if not path.endswith(".f") else code
    result = analyse_source(entry, text.encode(), _setup(device))
    return [d for d in result.diagnostics if d.code.startswith(select)]


def fix_of(diagnostic: Diagnostic) -> Fix:
    """The diagnostic's fix, which the test expects it to offer."""
    assert diagnostic.fix is not None, diagnostic.message
    return diagnostic.fix


def codes(diagnostics: list[Diagnostic]) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in diagnostics]


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
    (finding,) = run(code.replace("{guard}", ""), path, select="KL401")
    assert finding.line == line and finding.severity.value == "warning"
    assert "Intel Data Center GPU Max" in finding.message and "fault" in finding.message
    assert finding.evidence["loop"] == "j" and finding.evidence["reaches"] == "n + 63"
    (edit,) = fix_of(finding).edits
    assert not fix_of(finding).safe and edit.text.strip() in ("if (next < n)", "if (nxt < n)")
    assert run(code.replace("{guard}", guard), path, select="KL401") == []


def test_kl401_fix_inserts_a_valid_guard_at_the_end_of_the_directive() -> None:
    (finding,) = run(TILED_C.replace("{guard}", "// why"), select="KL401")
    (edit,) = fix_of(finding).edits
    source = textwrap.dedent(TILED_C.replace("{guard}", "// why")).split("\n")[edit.line - 1]
    fixed = source[: edit.column - 1] + edit.text + source[edit.column - 1 :]
    assert fixed.startswith("#pragma ompx prefetch data(4: b[next]) if (next < n)") and fixed.endswith("// why")


def test_kl401_reports_the_line_of_the_item_in_a_continued_directive() -> None:
    code = TILED_C.replace(
        "#pragma ompx prefetch data(4: b[next]) {guard}",
        "#pragma ompx prefetch \\\n        data(4: \\\n             b[next])",
    )
    (finding,) = run(code, select="KL401")
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
    (finding,) = run(FIXED_FORM, "k.f", select="KL401")
    assert (finding.line, finding.column, finding.end_column) == (10, 17, 27)  # `A(I+1:I+1)`
    assert finding.evidence["reaches"] == "n + 1" and finding.evidence["guard"] == "if (I+1 <= n)"


@pytest.mark.parametrize(
    "hint, expected",
    [
        ("", ["KL402"]),
        ("0:", ["KL402"]),
        ("ZERO:", ["KL402"]),
        ("3:", ["KL403"]),
        ("2 * 4:", ["KL403"]),
        ("2:", []),
        ("4:", []),
        ("UNKNOWN:", []),
    ],
)
def test_kl402_kl403_hints(hint: str, expected: list[str]) -> None:
    code = f"""
        #define ZERO 0
        void k(float *a, int n) {{
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; ++i) {{
        #pragma ompx prefetch data({hint} a[i])
            a[i] += 1;
          }}
        }}
    """
    assert [d.code for d in run(code, select="KL40")] == expected


def test_kl404_inside_simd_only() -> None:
    code = """
        void k(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i += 16) {
        #pragma omp simd simdlen(16)
            for (int v = 0; v < 16; ++v) {
        #pragma ompx prefetch data(4: a[i + v]) if (i + v < n)
              a[i + v] += 1;
            }
        #pragma ompx prefetch data(4: a[i + 16]) if (i + 16 < n)
          }
        }
    """
    (finding,) = run(code, select="KL40")
    assert (finding.line, finding.code) == (7, "KL404") and "16 lanes" in finding.message


def test_kl405_uses_the_device_cache_line_and_element_size() -> None:
    code = """
        void k(double *d, float *f, int n) {
        #pragma omp target teams distribute parallel for map(to: d[0:n], f[0:n])
          for (int i = 0; i < n; ++i)
            for (int u = 0; u < n; u += 4) {
        #pragma ompx prefetch data(4: d[u]) if (u < n)
        #pragma ompx prefetch data(4: f[u]) if (u < n)
            }
        }
    """
    found = run(code, select="KL405")
    assert codes(found) == [(6, "KL405"), (7, "KL405")]
    assert found[0].evidence["stride_bytes"] == 32 and found[0].evidence["prefetches_per_line"] == 2
    assert found[1].evidence["prefetches_per_line"] == 4 and found[0].device == "xe-hpc"
    assert run(code, device="h100", select="KL405") == []  # the extension is Intel's


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
    to, frm = run(code, select="KL102")
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
    to, frm = run(code, "k.f90", select="KL102")
    assert (to.line, to.evidence["suggested"], frm.line, frm.evidence["suggested"]) == (5, "to", 6, "from")


@pytest.mark.parametrize(
    "limit, step, simd, device, expected",
    [
        ("2048", "1", "", "xe-hpc", 1024),  # SPMD: clamped to the device maximum
        ("1024", "1", "", "xe-hpc", None),
        ("1024", "1", "", "xe-lp", 512),
        ("1024", "16", "simdlen(16)", "xe-hpc", 64),  # SIMD model: counts threads of 16 lanes
        ("64", "16", "simdlen(16)", "xe-hpc", None),
        ("1024", "1", "simdlen(16)", "xe-hpc", None),  # unit-stride parallel loop: not the SIMD model
    ],
)
def test_kl201_thread_limit(limit: str, step: str, simd: str, device: str, expected: int | None) -> None:
    code = f"""
        void k(float *a, int n) {{
        #pragma omp target teams distribute parallel for thread_limit({limit}) map(tofrom: a[0:n])
          for (int i = 0; i < n; i += {step}) {{
        #pragma omp simd {simd}
            for (int v = 0; v < 16; ++v) a[i] += v;
          }}
        }}
    """
    found = run(code, device=device, select="KL201")
    if expected is None:
        assert found == []
    else:
        (finding,) = found
        assert finding.severity.value == "warning" and finding.evidence["clamped_to"] == expected
        assert "clamps" in finding.message and finding.device == device


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
    found = run(code, select="KL406")
    if expected is None:
        assert found == []
    else:
        (finding,) = found
        assert finding.line == 3 and expected in finding.message


def test_kl501_reports_openmp_branches_in_both_languages() -> None:
    c_code = """
        void k(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; ++i)
            if (i % 2) a[i] = 0;
        }
    """
    f_code = """
        subroutine k(a, n)
          integer :: n, i
          real :: a(n)
          !$omp target teams distribute parallel do map(tofrom: a)
          do i = 1, n
            if (mod(i, 2) == 1) a(i) = 0
          end do
        end subroutine
    """
    (c_finding,) = run(c_code, select="KL501")
    (f_finding,) = run(f_code, "k.f90", select="KL501")
    assert (c_finding.line, f_finding.line) == (5, 7)
    assert c_finding.evidence["reason"] == f_finding.evidence["reason"] == "parity"


def test_divergence_advice_is_worded_for_each_language() -> None:
    """OpenMP findings never recommend SYCL APIs: C gets `?:`, Fortran gets `merge`."""
    import json
    import subprocess
    import sys

    from conftest import REPO

    proc = subprocess.run(
        [sys.executable, "-m", "kernlint", "corpus/openmp", "--select", "KL501", "--format", "json", "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(proc.stdout)["diagnostics"]
    assert findings and not any("sycl::" in d["message"] for d in findings)
    fortran = [d for d in findings if d["language"] == "openmp-fortran"]
    c_like = [d for d in findings if d["language"] == "openmp-c"]
    assert fortran and c_like
    assert not any("`?:`" in d["message"] for d in fortran)
    assert not any("`merge`" in d["message"] for d in c_like)
