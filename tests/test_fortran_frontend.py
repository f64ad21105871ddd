"""The Fortran front-end: source form, fixed-form normalisation, constants, loops and directive
association, and line numbers that stay right after continuation lines."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.config import Config
from kernlint.facts import FileFacts
from kernlint.frontends.common import treesitter
from kernlint.frontends.fortran.constants import FortranConstants
from kernlint.frontends.fortran.frontend import extract
from kernlint.frontends.fortran.source import LineMap, looks_fixed_form, normalise_fixed
from kernlint.source import SourceFile


def facts_of(code: str, *, fixed: bool = False, defines: tuple[tuple[str, str], ...] = ()) -> FileFacts:
    text = textwrap.dedent(code) if not fixed else code
    path = "t.f" if fixed else "t.f90"
    return extract(SourceFile(path, text.encode()), fixed_form=fixed, config=Config(defines=defines))


def construct(facts: FileFacts, kind: str):
    found = [c for c in facts.omp if c.kind == kind]
    assert len(found) == 1, [c.kind for c in facts.omp]
    return found[0]


FIXED = (
    "      SUBROUTINE S(A, N)\n"  # 1
    "C     a comment in column 1\n"  # 2
    "      INTEGER N, I\n"  # 3
    "      REAL A(N)\n"  # 4
    "C$OMP TARGET TEAMS DISTRIBUTE\n"  # 5
    "C$OMP& PARALLEL DO\n"  # 6
    "      DO 10 I = 1,\n"  # 7
    "     &          N\n"  # 8
    "         A(I) = A(I) +   ! note\n"  # 9
    "     1          2.0\n"  # 10
    "* star comment\n"  # 11
    "   10 CONTINUE\n"  # 12
    "      END\n"  # 13
)


# -- source form --------------------------------------------------------------------------------


def test_normalised_fixed_form_keeps_every_line_and_column() -> None:
    free = normalise_fixed(FIXED)
    before, after = FIXED.split("\n"), free.split("\n")
    assert len(before) == len(after)
    assert after[1].startswith("!") and after[10].startswith("!") and after[4].startswith("!$OMP")
    assert after[7][5] == "&" and after[9][5] == "&"  # column-6 marks become leading `&`
    assert after[6].rstrip().endswith("&")  # the continued line gets a trailing `&`
    assert after[8].index("!") > after[8].index("+&")  # inserted before the trailing comment
    for old, new in zip(before, after):
        code_end = old.find("!") if "!" in old[6:] else len(old)
        assert old[6:code_end].rstrip() == new[6 : 6 + len(old[6:code_end].rstrip())]


def test_normalised_fixed_form_parses_without_errors() -> None:
    tree = treesitter.parser("fortran").parse(normalise_fixed(FIXED).encode())
    assert not tree.root_node.has_error
    assert treesitter.parser("fortran").parse(FIXED.encode()).root_node.has_error


@pytest.mark.parametrize(
    "text, fixed",
    [
        (FIXED, True),
        ("      program p\n      x = 1\n      end\n", True),
        ("\tX = 1\n\t1  + 2\n", True),  # tab format
        ("program p\n  x = 1\nend program\n", False),  # statement in columns 1-5
        ("      x = 1 +&\n      2\n", False),  # free-form `&` continuation
        ("call foo()\n", False),  # `c` in column 1 that is a statement
        ("c     comment\n      end\n", True),
    ],
)
def test_fixed_form_unless_the_file_proves_otherwise(text: str, fixed: bool) -> None:
    assert looks_fixed_form(text, True) is fixed
    assert looks_fixed_form(text, False) is False


def test_line_map_clamps_columns_past_an_added_ampersand() -> None:
    original = b"ab\ncdef\n"
    lines = LineMap(original)
    assert lines.offset(1, 2) == 5 and lines.offset(0, 9) == 2 and lines.point(5) == (1, 2)


# -- constants ----------------------------------------------------------------------------------


def test_parameters_macros_and_defines_are_case_insensitive_and_scoped() -> None:
    source = textwrap.dedent("""
        #define TILE 64
        module m
          integer, parameter :: NB = 2**5, KB = tile * 2
        contains
          subroutine a()
            integer :: k
            parameter (k = 3)
          end subroutine
          subroutine b()
            integer, parameter :: k = 7
          end subroutine
        end module
    """)
    root = treesitter.parser("fortran").parse(source.encode()).root_node
    constants = FortranConstants(root, {"EXTRA": "5"})
    inside_a, inside_b = (6, 4), (10, 4)
    assert constants.value("nb + KB", inside_a) == 32 + 128
    assert constants.known("K", inside_a) == 3 and constants.known("k", inside_b) == 7
    assert constants.value("extra * 2", inside_b) == 10
    assert constants.value("64_8 / 2", inside_a) == 32
    assert constants.known("unknown", inside_a) is None


# -- loops, directives, association ---------------------------------------------------------------


def test_fixed_form_directive_continuation_loop_and_line_numbers() -> None:
    facts = facts_of(FIXED, fixed=True)
    assert not facts.syntax_errors
    target = construct(facts, "target teams distribute parallel do")
    assert (target.span.line, target.span.end_line) == (5, 6)
    assert target.loop is not None and target.loop.span.line == 7 and target.loop.span.end_line == 12
    assert (target.loop.index, str(target.loop.low), str(target.loop.high)) == ("i", "1", "n")
    assert target.loop.role == "parallel" and target.loop.device
    assert [(loop.span.line, loop.kind, loop.side) for loop in facts.loops] == [(7, "for", "device")]
    assert facts.pragmas[0].text.startswith("omp TARGET TEAMS DISTRIBUTE PARALLEL DO")


def test_free_form_block_constructs_nested_loops_and_end_directives() -> None:
    facts = facts_of("""
        subroutine s(a, b, n)
          integer :: n, i, j
          real :: a(n), b(n)
          !$omp target data map(to: a) &
          !$omp& map(from: b)
          !$omp target teams distribute parallel do collapse(2)
          do i = 1, n
            do j = n, 1, -1
              b(i) = a(j)
            end do
          end do
          !$omp end target teams distribute parallel do
          do while (n > 0)
            n = n - 1
          end do
          !$omp end target data
        end subroutine
    """)
    data = construct(facts, "target data")
    loop_construct = construct(facts, "target teams distribute parallel do")
    assert data.region is not None and (data.region.line, data.region.end_line) == (7, 16)
    assert data.encloses(loop_construct.span)
    outer, inner = loop_construct.loops
    assert (outer.role, inner.role) == ("parallel", "parallel")  # collapse(2)
    assert (str(inner.low), str(inner.high), inner.step_value) == ("1", "n", -1)
    assert [loop.kind for loop in facts.loops] == ["for", "for", "while"]
    assert [loop.side for loop in facts.loops] == ["device", "device", "host"]
    assert construct(facts, "end target data").region is None


def test_conditions_around_a_directive_with_else_and_select() -> None:
    facts = facts_of("""
        subroutine s(b, n)
          integer :: n, i, nxt
          real :: b(0:n-1)
          !$omp target teams distribute parallel do
          do i = 0, n - 1
            nxt = i + 16
            if (mod(nxt, 16) .eq. 0) then
              continue
            else if (nxt < n) then
              select case (i)
              case (1)
                !$omp prefetch data(4: b(nxt:nxt))
              end select
            end if
          end do
        end subroutine
    """)
    prefetch = construct(facts, "prefetch")
    texts = [c.text for c in prefetch.conditions]
    assert texts[0].startswith(".not.(") and "mod(nxt, 16)" in texts[0]
    assert texts[1] == "(nxt < n)" and texts[2].startswith("select")
    assert prefetch.conditions[0].masks == ()  # negated: not a mask
    assert prefetch.conditions[1].bounds and {"nxt", "i"} <= set(prefetch.conditions[1].names)
    assert prefetch.conditions[2].opaque
    (target,) = prefetch.targets
    assert str(target.index) == "i + 16" and target.element_bytes == 4 and target.array_lower == 0
    assert str(target.array_upper) == "n - 1"


def test_element_sizes_and_declared_bounds() -> None:
    facts = facts_of("""
        subroutine s(n)
          integer, parameter :: dp = 8
          integer :: n, i
          real(dp) :: a(n)
          double precision, dimension(-2:n) :: b
          real*4 :: c(10)
          complex(kind=8) :: z(5)
          integer(kind=selected_int_kind(9)) :: q(4)
          !$omp target teams distribute parallel do
          do i = 1, n
            !$omp prefetch data(4: a(i:i), b(i:i), c(i:i), z(i:i), q(i:i))
          end do
        end subroutine
    """)
    targets = construct(facts, "prefetch").targets
    assert [t.element_bytes for t in targets] == [8, 8, 4, 16, None]
    assert [t.array_lower for t in targets] == [1, -2, 1, 1, 1]
    assert [str(t.array_upper) for t in targets] == ["n", "n", "10", "5", "4"]


def test_if_zero_blocks_are_dead_code_and_defines_reach_clauses() -> None:
    facts = facts_of(
        """
        subroutine s(a, n)
          integer :: n, i
          real :: a(n)
        #if 0
          !$omp target teams distribute parallel do thread_limit(9999)
        #endif
          !$omp target teams distribute parallel do thread_limit(TEAM)
          do i = 1, n
            a(i) = 0.0
          end do
        end subroutine
    """,
        defines=(("TEAM", "128"),),
    )
    (only,) = [c for c in facts.omp if c.kind]
    assert only.value("thread_limit") == 128 and only.span.line == 8


def test_malformed_directive_and_broken_code_do_not_crash() -> None:
    facts = facts_of("""
        subroutine s(
          !$omp target teams distribute parallel do map(tofrom: a[0:n)
          !$omp prefetch data(4:
          do i = 1,
        end
    """)
    assert facts.language == "openmp-fortran" and facts.syntax_errors
    assert all(c.kind is None or c.kind == "prefetch" for c in facts.omp)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="!$omp &()c*dDo=,:1i+-\n\t #ifdefnx", max_size=300), st.booleans())
def test_no_input_crashes_the_front_end(text: str, fixed: bool) -> None:
    facts = extract(SourceFile("h.f", text.encode()), fixed_form=fixed, config=Config())
    assert facts.language == "openmp-fortran"
