"""KL501 on values each lane loads from its own element through a member (issue 25): OpenMP C/C++
`verts[v].first` and Fortran `cells(i)%n` are loads, not shared names; a loop bounded by its own start
plus a uniform count runs the same iterations in every lane (SYCL and OpenMP); the test of an atomic
compare is not a branch."""

from __future__ import annotations

import textwrap

from conftest import run_rule
from kernlint.analysis.expressions import Binary, Const, Expr, Phi, Var
from kernlint.analysis.names import Name as VariableName
from kernlint.analysis.trips import offset_trip_count
from kernlint.config import Config
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.frontends.openmp.expr import Member, Name, Subscript, parse
from kernlint.rule import RuleContext
from kernlint.source import SourceFile
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch


def lines(found: list) -> list[int]:
    return sorted(d.line for d in found)


def test_a_member_of_an_element_keeps_the_element() -> None:
    assert parse("nodes[tid].start", fortran=False) == Member(Subscript(Name("nodes"), Name("tid")), "start", ".")
    assert parse("s.n", fortran=False) == Name("s.n")  # a member of a plain name is still one name
    assert parse("p->n", fortran=False) == Name("p->n")
    fortran = parse("cells(i)%n", fortran=True)
    assert isinstance(fortran, Member) and fortran.field == "n" and fortran.op == "%"


def test_openmp_branches_and_loops_on_members_of_the_lanes_element() -> None:
    found = run_rule(
        DivergentBranch,
        """
        struct V { int first; int count; float w; };
        void f(const V *verts, const int *edges, const int *done, float *out, int n) {
        #pragma omp target teams distribute parallel for
          for (int v = 0; v < n; v++) {
            for (int e = verts[v].first; e < verts[v].first + verts[v].count; e++) {
              if (!done[edges[e]]) out[v] += 1.0f;
            }
            if (verts[v].w > 0.5f) out[v] = 0.0f;
            if (verts[0].w > 0.5f) out[v] = 1.0f;
          }
        }
        """,
        path="t.cpp",
    )
    assert lines(found) == [6, 7, 9]  # `verts[0].w` is the same for every lane


def test_fortran_components_of_the_lanes_element() -> None:
    code = textwrap.dedent("""
        subroutine s(cells, out, n)
          type(cell_t) :: cells(n)
          real :: out(n)
          integer :: i, k, n
          !$omp target teams distribute parallel do
          do i = 1, n
            if (cells(i)%mass > 1.0) out(i) = 0.0
            if (cells(1)%mass > 1.0) out(i) = 1.0
            do k = 1, cells(i)%nbr
              out(i) = out(i) + 1.0
            end do
          end do
        end subroutine
    """).encode()
    facts = extract_fortran(SourceFile("t.f90", code), fixed_form=False, config=Config())
    ctx = RuleContext(DivergentBranch, SourceFile("t.f90", code), facts.language, None, DivergentBranch.options)
    assert lines(list(DivergentBranch().check(facts, ctx))) == [8, 10]


def test_a_loop_bounded_by_its_start_plus_a_uniform_count_is_uniform() -> None:
    for path, diverging, code in (
        (
            "t.cpp",
            8,
            """
            void f(const int *start, float *w, float *out, int n, int k) {
            #pragma omp target teams distribute parallel for
              for (int v = 0; v < n; v++) {
                const int s = start[v];
                for (int i = s; i < s + 4; i++) out[v] += w[i];
                for (int i = s; i <= k + s; i++) out[v] += w[i];
                for (int i = s; i < s + start[v + 1]; i++) out[v] += w[i];
              }
            }
            """,
        ),
        (
            "s.cpp",
            7,
            """
            void f(sycl::queue &q, const int *start, float *w, float *out, int n) {
              q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> v) {
                const int s = start[v];
                const int e = s + 8;
                for (int i = s; i < e; i++) out[v] += w[i];
                for (int i = s; i < start[v + 1]; i++) out[v] += w[i];
              });
            }
            """,
        ),
    ):
        assert lines(run_rule(DivergentBranch, code, path=path)) == [diverging], path  # only the loaded bound


def test_offset_trip_count_needs_the_start_itself_on_the_bound() -> None:
    start = Var("s")
    index = Phi((Var("i.start"), Var("i.next")))  # the index as read in the condition
    definitions: dict[VariableName, Expr] = {"i.start": start, "i.next": Binary("+", index, Const(1))}

    def resolve(name: VariableName) -> Expr | None:
        return definitions.get(name)

    def uniform(expr) -> bool:
        return isinstance(expr, Const) or expr == Var("k")

    def bounded(op: str, bound) -> bool:
        return offset_trip_count(Binary(op, index, bound), resolve, uniform)

    assert bounded("<", Binary("+", start, Const(4)))
    assert bounded("<=", Binary("+", Var("k"), start))
    assert not bounded("<", Binary("+", Var("t"), Const(4)))  # another start
    assert not bounded("<", Binary("+", start, Var("m")))  # a count that may vary


def test_the_compare_of_an_atomic_compare_and_swap_is_not_a_branch() -> None:
    found = run_rule(
        DivergentBranch,
        """
        void f(int *owner, const int *want, int n) {
        #pragma omp target teams distribute parallel for
          for (int t = 0; t < n; t++) {
            int slot = want[t];
            int prev;
        #pragma omp atomic compare capture
            {
              prev = owner[slot];
              if (owner[slot] == -1) { owner[slot] = t; }
            }
            if (prev == -1) owner[slot + n] = t;
          }
        }
        """,
    )
    assert lines(found) == [12]
