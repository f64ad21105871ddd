"""Writes the analysis cannot see never become "only read" or "fully overwritten" (issue 11, data loss).

One test per shape of unseen write, in each language that has it: a store to a member of an element,
code pulled in with `#include`, a pointer alias into the array, an address or pointer passed on, a
call that may write the data. Each shape must leave the OpenMP map `tofrom` (or the SYCL accessor
`read_write`) with no finding and no fix, and the facts must say why (a read-modify-write or an
escape with its reason). Controls next to them show the proven cases are still reported.
"""

from __future__ import annotations

import textwrap
from functools import cache

import pytest

from kernlint.config import Config
from kernlint.diagnostics import Diagnostic
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_source
from kernlint.facts import FileFacts
from kernlint.frontends.cpp.frontend import extract as extract_cpp
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.session import make_setup
from kernlint.source import SourceFile


@cache
def _setup():
    return make_setup(Config(devices=("xe-hpc",)), use_cache=False)


def kl102(code: str, path: str) -> list[Diagnostic]:
    family = "fortran" if path.endswith(".f90") else ("c" if path.endswith(".c") else "cpp")
    result = analyse_source(SourceEntry(path, family, False), textwrap.dedent(code).encode(), _setup())
    return [d for d in result.diagnostics if d.code == "KL102"]


def facts_of(code: str, path: str) -> FileFacts:
    data = textwrap.dedent(code).encode()
    if path.endswith(".f90"):
        return extract_fortran(SourceFile(path, data), fixed_form=False, config=Config())
    return extract_cpp(path, data)


def map_use(code: str, path: str, name: str):
    uses = [v for c in facts_of(code, path).omp for v in c.variables if v.name == name]
    assert len(uses) == 1, uses
    return uses[0]


# -- OpenMP, C and C++ ---------------------------------------------------------------------------

OMP_C_SHAPES = {
    "member compound store": (
        """
        typedef struct { float x, y; } pt;
        void f(pt *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) a[i].x += a[i].y;
        }
        """,
        "a",
        "rmw",
    ),
    "member array store": (
        """
        typedef struct { float v[3]; float m; } pt;
        void f(pt *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) a[i].v[0] = a[i].m;
        }
        """,
        "a",
        "rmw",
    ),
    "nested member store": (
        """
        typedef struct { struct { float k; } e; float m; } pt;
        void f(pt *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) (a[i]).e.k = a[i].m;
        }
        """,
        "a",
        "rmw",
    ),
    "include in target data": (
        """
        void f(float *a, int n) {
        #pragma omp target data map(tofrom: a[0:n])
          {
            float first = a[0];
        #include "sweep.inc"
          }
        }
        """,
        "a",
        "escape",
    ),
    "alias made before the region": (
        """
        void f(float *a, int n) {
          float *p = a + 1;
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n - 1; i++) p[i] = a[i];
        }
        """,
        "a",
        "escape",
    ),
    "address of an element kept": (
        """
        void f(float *a, int n) {
          float *last = &a[n - 1];
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < 1; i++) *last = a[0];
        }
        """,
        "a",
        "escape",
    ),
    "address passed on": (
        """
        void bump(float *slot);
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) bump(&a[i]);
        }
        """,
        "a",
        "escape",
    ),
    "element passed to a storing macro": (
        """
        #define SWAP(x, y) { float t = x; x = y; y = t; }
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n / 2; i++) SWAP(a[i], a[n - 1 - i]);
        }
        """,
        "a",
        "escape",
    ),
    "element passed to a macro from a header": (
        """
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) CLAMP_IN_PLACE(a[i]);
        }
        """,
        "a",
        "escape",
    ),
    "macro body names the array": (
        """
        #define RELAX a[i] = 0.5f * a[i]
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) { float t = a[i]; RELAX; }
        }
        """,
        "a",
        "escape",
    ),
    "global written by a called function": (
        """
        float g[64];
        void reset(void) { for (int i = 0; i < 64; i++) g[i] = 0; }
        void twice(void) { reset(); }
        float f(void) {
          float s = 0;
        #pragma omp target data map(tofrom: g[0:64])
          {
            s = g[0];
            twice();
          }
          return s;
        }
        """,
        "g",
        "escape",
    ),
}


@pytest.mark.parametrize("shape", sorted(OMP_C_SHAPES))
def test_openmp_c_unseen_write_keeps_the_map(shape: str) -> None:
    code, name, kind = OMP_C_SHAPES[shape]
    assert kl102(code, "k.c") == []
    use = map_use(code, "k.c", name)
    assert use.writes == 0
    if kind == "rmw":
        assert use.read_modify_writes > 0
    else:
        assert use.escapes and use.unknown, use


def test_element_passed_to_a_macro_that_does_not_store_is_a_read() -> None:
    code = """
        #define MAX2(x, y) ((x) >= (y) ? (x) : (y))
        void f(float *a, float *b, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(from: b[0:n])
          for (int i = 0; i < n; i++) b[i] = MAX2(a[i], 0.0f);
        }
        """
    assert [d.evidence["suggested"] for d in kl102(code, "k.c")] == ["to"]


def test_cpp_element_passed_by_reference_is_not_a_read() -> None:
    code = """
        void nudge(float &slot, float by);
        void f(float *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) nudge(a[i], 1.0f);
        }
        """
    assert kl102(code, "k.cpp") == []
    assert "by reference" in map_use(code, "k.cpp", "a").unknown[0]
    # In C the same call passes a copy: a read, and the map is narrowed.
    assert [d.evidence["suggested"] for d in kl102(code.replace("float &slot", "float slot"), "k.c")] == ["to"]


def test_cpp_element_passed_to_a_by_value_prototype_is_a_read() -> None:
    code = """
        double smooth(double value);
        void f(double *a, double *b, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(from: b[0:n])
          for (int i = 0; i < n; i++) b[i] = smooth(a[i]);
        }
        """
    found = kl102(code, "k.cpp")
    assert [d.evidence["suggested"] for d in found] == ["to"]
    assert found[0].fix is not None and found[0].evidence["escapes"] is False


def test_cpp_lambda_made_before_the_region_that_writes_the_array() -> None:
    code = """
        void f(float *a, int n) {
          auto zap = [&](int i) { a[i] = 0; };
        #pragma omp target data map(tofrom: a[0:n])
          {
            float s = a[0];
            zap(0);
          }
        }
        """
    assert kl102(code, "k.cpp") == []
    assert map_use(code, "k.cpp", "a").unknown == ("`zap` refers to it",)


def test_mapped_pointer_into_a_container_the_region_writes() -> None:
    code = """
        #include <vector>
        void f(std::vector<float> &v, int n) {
          float *p = v.data();
        #pragma omp target data map(tofrom: p[0:n])
          {
            float s = p[0];
            v[1] = s;
          }
        }
        """
    assert kl102(code, "k.cpp") == []
    assert map_use(code, "k.cpp", "p").unknown == ("it points into `v`, which the region also uses",)


def test_method_called_on_an_element_is_unknown() -> None:
    code = """
        struct Cell { float v; void relax(); };
        void f(Cell *a, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
          for (int i = 0; i < n; i++) { float t = a[i].v; a[i].relax(); }
        }
        """
    assert kl102(code, "k.cpp") == []
    assert map_use(code, "k.cpp", "a").escapes


# -- OpenMP, Fortran -----------------------------------------------------------------------------

OMP_F_SHAPES = {
    "component store": (
        """
        subroutine f(a, n)
          type(pt) :: a(n)
          integer :: n, i
          !$omp target teams distribute parallel do map(tofrom: a)
          do i = 1, n
            a(i)%x = a(i)%y + 1.0
          end do
        end subroutine
        """,
        "a",
        "rmw",
    ),
    "component array store": (
        """
        subroutine f(a, n)
          type(pt) :: a(n)
          integer :: n, i
          !$omp target teams distribute parallel do map(tofrom: a)
          do i = 1, n
            a(i)%v(1) = a(i)%m
          end do
        end subroutine
        """,
        "a",
        "rmw",
    ),
    "include line": (
        """
        subroutine f(u, n)
          integer :: n
          real :: u(n), edge
          !$omp target data map(tofrom: u)
          edge = u(1)
          include 'sweep.fi'
          !$omp end target data
        end subroutine
        """,
        "u",
        "escape",
    ),
    "preprocessor include": (
        """
        subroutine f(u, n)
          integer :: n
          real :: u(n), edge
          !$omp target data map(tofrom: u)
          edge = u(1)
        #include "sweep.fi"
          !$omp end target data
        end subroutine
        """,
        "u",
        "escape",
    ),
    "pointer associated before the region": (
        """
        subroutine f(u, n)
          integer :: n, i
          real, target :: u(n)
          real, pointer :: w(:)
          w => u
          !$omp target teams distribute parallel do map(tofrom: u)
          do i = 2, n
            w(i) = u(i - 1)
          end do
        end subroutine
        """,
        "u",
        "escape",
    ),
    "element passed to a function": (
        """
        subroutine f(u, t, n)
          integer :: n, i
          real :: u(n), t(n)
          real, external :: scaled
          !$omp target teams distribute parallel do map(tofrom: u) map(from: t)
          do i = 1, n
            t(i) = scaled(u(i))
          end do
        end subroutine
        """,
        "u",
        "escape",
    ),
    "local array updated by an internal procedure": (
        """
        subroutine f(n)
          integer :: n
          real :: u(100), s
          !$omp target data map(tofrom: u)
          s = u(1)
          call zap()
          !$omp end target data
        contains
          subroutine zap()
            u = 0.0
          end subroutine
        end subroutine
        """,
        "u",
        "escape",
    ),
    "module array updated by a called procedure": (
        """
        module m
          real :: heat(64)
        contains
          subroutine cool()
            heat = 0.5 * heat
          end subroutine
          real function warmest()
            !$omp target data map(tofrom: heat)
            warmest = heat(1)
            call cool()
            !$omp end target data
          end function
        end module
        """,
        "heat",
        "escape",
    ),
}


@pytest.mark.parametrize("shape", sorted(OMP_F_SHAPES))
def test_openmp_fortran_unseen_write_keeps_the_map(shape: str) -> None:
    code, name, kind = OMP_F_SHAPES[shape]
    assert kl102(code, "k.f90") == []
    use = map_use(code, "k.f90", name)
    assert use.writes == 0
    if kind == "rmw":
        assert use.read_modify_writes > 0
    else:
        assert use.escapes and use.unknown, use


def test_fortran_intrinsic_reads_are_still_narrowed() -> None:
    code = """
        subroutine f(u, t, n)
          integer :: n, i
          real :: u(n), t(n)
          !$omp target teams distribute parallel do map(tofrom: u) map(from: t)
          do i = 1, n
            t(i) = sqrt(abs(u(i)))
          end do
        end subroutine
        """
    assert [d.evidence["suggested"] for d in kl102(code, "k.f90")] == ["to"]


# -- SYCL accessors ------------------------------------------------------------------------------

SYCL_HEAD = """
    #include <sycl/sycl.hpp>
    #define STEP_A a[i] += 1.0f
    struct P { float m; float v[3]; struct { float k; } e; };
    void nudge(float &slot, float by);
    float weight(float m);
    void f(sycl::queue &q, P *hp, float *hf, int n) {
      sycl::buffer<P, 1> pb(hp, sycl::range<1>(n));
      sycl::buffer<float, 1> fb(hf, sycl::range<1>(n));
      q.submit([&](sycl::handler &h) {
"""
SYCL_SHAPES = {
    "member store": (
        "sycl::accessor a(pb, h, sycl::read_write);",
        "float t = a[i].m; a[i].m = 2 * t;",
        "read_modify_write",
    ),
    "member array store": (
        "sycl::accessor a(pb, h, sycl::read_write);",
        "float t = a[i].m; a[i].v[0] = t;",
        "read_modify_write",
    ),
    "nested member compound store": (
        "sycl::accessor a(pb, h, sycl::read_write);",
        "a[i].e.k += a[i].m;",
        "read_modify_write",
    ),
    "kernel body included": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        'float t = a[i];\n#include "body.inc"\n',
        "escape",
    ),
    # A local pointer to the data is followed in its block: the write through it is seen.
    "get_pointer": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; auto p = a.get_pointer(); p[i] = t;",
        "write",
    ),
    "get_multi_ptr": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; auto p = a.get_multi_ptr<sycl::access::decorated::no>(); p[i] = t;",
        "write",
    ),
    "get_pointer moved": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; auto p = a.get_pointer(); p += 1; p[i] = t;",
        "escape",
    ),
    "address of an element": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; float *p = &a[0]; p[i] = t;",
        "escape",
    ),
    "element by reference": ("sycl::accessor a(fb, h, sycl::read_write);", "float t = a[i]; nudge(a[i], t);", "escape"),
    "member by reference": (
        "sycl::accessor a(pb, h, sycl::read_write);",
        "float t = a[i].m; nudge(a[i].m, t);",
        "escape",
    ),
    "macro from a header": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; SCALE_IN_PLACE(a[i], t);",
        "escape",
    ),
    "macro body names the accessor": (
        "sycl::accessor a(fb, h, sycl::read_write);",
        "float t = a[i]; STEP_A;",
        "escape",
    ),
}


def sycl_kernel(creation: str, body: str) -> str:
    return (
        SYCL_HEAD
        + f"""
        {creation}
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{
          {body}
        }});
      }});
    }}
"""
    )


@pytest.mark.parametrize("shape", sorted(SYCL_SHAPES))
def test_sycl_unseen_write_keeps_read_write(shape: str) -> None:
    creation, body, kind = SYCL_SHAPES[shape]
    code = sycl_kernel(creation, body)
    assert [d for d in kl102(code, "k.cpp") + _kl103(code)] == []
    accessor = next(a for a in facts_of(code, "k.cpp").accessors if a.name == "a")
    assert accessor.uses is not None and not accessor.uses.only_read
    assert any(u.kind == kind for u in accessor.uses.uses), accessor.uses.uses


def _kl103(code: str) -> list[Diagnostic]:
    result = analyse_source(SourceEntry("k.cpp", "cpp", False), textwrap.dedent(code).encode(), _setup())
    return [d for d in result.diagnostics if d.code == "KL103"]


def test_sycl_member_reads_and_by_value_prototypes_stay_reads() -> None:
    code = sycl_kernel("sycl::accessor a(pb, h, sycl::read_write);", "float t = weight(a[i].m) + a[i].e.k; (void)t;")
    found = kl102(code, "k.cpp")
    assert [d.evidence["suggested"] for d in found] == ["read_only"] and found[0].fix is not None


def test_sycl_member_store_never_counts_as_overwriting_a_write_only_accessor() -> None:
    code = sycl_kernel("sycl::accessor a(pb, h, sycl::write_only);", "a[i].m = 1.0f;")
    assert _kl103(code) == []
