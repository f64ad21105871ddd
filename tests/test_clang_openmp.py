"""The clang front-end's OpenMP directives: macros only a compiler expands, clause constants only it
evaluates, and cursor kinds the Python bindings do not name."""

from __future__ import annotations

import textwrap
from pathlib import Path

from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct
from kernlint.frontends.clang import frontend as clang_frontend
from kernlint.frontends.clang.flags import flags_for
from kernlint.frontends.clang.openmp import directive_key, directive_macros, kind_spelling, omp_kind
from kernlint.frontends.clang.unit import ClangUnit
from kernlint.frontends.cpp import frontend as cpp_frontend

_TARGET = "omp target teams distribute parallel for thread_limit(2048) map(tofrom: v[0:n])"
_LOOP = """
void scale(float *v, int n, float s) {
  OFFLOAD
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}
"""


def _write(path: Path, code: str) -> Path:
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return path


def _facts(path: Path, clang: bool = True, **kwargs: object) -> FileFacts:
    data = path.read_bytes()
    if clang:
        return clang_frontend.extract(str(path), data, **kwargs)  # type: ignore[arg-type]
    return cpp_frontend.extract(str(path), data)


def _shape(construct: OmpConstruct) -> tuple[object, ...]:
    """A construct without its place in the file."""
    loop = construct.loop
    return (
        construct.directive.clauses if construct.directive else None,
        construct.kind,
        construct.values,
        construct.device,
        [v.name for v in construct.variables],
        (loop.index, loop.low, loop.high, loop.role, loop.device) if loop else None,
    )


def test_a_header_macro_directive_has_the_facts_of_one_the_file_defines(tmp_path: Path) -> None:
    _write(tmp_path / "offload.h", f'#define OFFLOAD _Pragma("{_TARGET}")\n')
    header = _write(tmp_path / "header.cpp", '#include "offload.h"\n' + _LOOP)
    local = _write(tmp_path / "local.cpp", f'#define OFFLOAD _Pragma("{_TARGET}")\n' + _LOOP)
    assert _facts(header, clang=False).omp == ()  # tree-sitter cannot see the directive
    [found] = _facts(header).omp
    [written] = _facts(local, clang=False).omp
    assert found.span.line == 4 and found.region is not None and found.region.line == 5
    assert _shape(found) == _shape(written)
    assert found.value("thread_limit") == 2048


def test_a_directive_tree_sitter_finds_is_not_added_again(tmp_path: Path) -> None:
    local = _write(tmp_path / "local.cpp", f'#define OFFLOAD _Pragma("{_TARGET}")\n' + _LOOP)
    assert [c.span.line for c in _facts(local).omp] == [4]


def _arms(tmp_path: Path) -> Path:
    _write(tmp_path / "level.h", "#ifdef TARGET_PVC\n#define LEVEL 2\n#else\n#define LEVEL 0\n#endif\n")
    return _write(
        tmp_path / "arms.cpp",
        f"""\
        #include "level.h"
        #if LEVEL > 1
        #define OFFLOAD _Pragma("{_TARGET}")
        #else
        #define OFFLOAD _Pragma("omp parallel for")
        #endif
        """
        + _LOOP,
    )


def test_a_macro_defined_per_arm_is_read_when_the_build_is_known(tmp_path: Path) -> None:
    source = _arms(tmp_path)
    assert _facts(source, clang=False).omp == ()
    [target] = _facts(source, clang_args=("-DTARGET_PVC",)).omp
    assert target.kind == "target teams distribute parallel for" and target.value("thread_limit") == 2048
    [host] = _facts(source, clang_args=("-UTARGET_PVC",)).omp
    assert host.kind == "parallel for" and not host.device


def test_a_macro_defined_per_arm_is_not_guessed_with_default_flags(tmp_path: Path) -> None:
    """With no build flags, clang's arm may not be the build's: nothing is read."""
    assert _facts(_arms(tmp_path)).omp == ()


def test_clause_constants_of_a_macro_directive_are_probed(tmp_path: Path) -> None:
    _write(
        tmp_path / "traits.h",
        """\
        template <typename T> struct Traits {
          static constexpr int teams = 224;
          static constexpr int threads = 8192 / sizeof(T);
        };
        #define OFFLOAD _Pragma("omp target teams distribute parallel for num_teams(kTeams) thread_limit(kThreads)")
        """,
    )
    source = _write(
        tmp_path / "traits.cpp",
        '#include "traits.h"\nconstexpr int kTeams = Traits<float>::teams;\n'
        "constexpr int kThreads = Traits<double>::threads;\n" + _LOOP,
    )
    [construct] = _facts(source).omp
    assert construct.values == (("thread_limit", 1024), ("num_teams", 224))


def test_pragma_clause_constants_only_clang_evaluates(tmp_path: Path) -> None:
    source = _write(
        tmp_path / "pragma.cpp",
        """\
        template <int L> struct Shape { static constexpr int lanes = L; static constexpr int items = 32 * L; };
        constexpr int kTeams = Shape<8>::items / 2;
        void f(float *v, int n) {
        #pragma omp target teams distribute parallel for num_teams(kTeams) thread_limit(Shape<16>::items)
          for (int i = 0; i < n; i += 16) {
        #pragma omp simd simdlen(Shape<16>::lanes)
            for (int l = 0; l < 16; ++l) v[i + l] = 0;
          }
        }
        """,
    )
    fast = _facts(source, clang=False).omp
    assert [c.values for c in fast] == [(("thread_limit", None), ("num_teams", None)), (("simdlen", None),)]
    precise = _facts(source).omp
    assert [c.values for c in precise] == [(("thread_limit", 512), ("num_teams", 128)), (("simdlen", 16),)]


def test_a_directive_inside_an_offload_region_is_read_though_it_has_no_cursor(tmp_path: Path) -> None:
    """libclang shows no cursors inside a directive's captured region; the macro's use is read there."""
    _write(tmp_path / "simd.h", '#define LANES _Pragma("omp simd simdlen(16)")\n')
    source = _write(
        tmp_path / "nested.cpp",
        """\
        #include "simd.h"
        void f(float *v, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: v[0:n])
          for (int i = 0; i < n; i += 16) {
            LANES
            for (int l = 0; l < 16; ++l) v[i + l] += 1;
          }
        }
        """,
    )
    assert [(c.span.line, c.kind, c.value("simdlen")) for c in _facts(source).omp] == [
        (3, "target teams distribute parallel for", None),
        (5, "simd", 16),
    ]


def test_only_macros_for_one_openmp_directive_are_read(tmp_path: Path) -> None:
    _write(
        tmp_path / "other.h",
        """\
        #define IVDEP _Pragma("GCC ivdep")
        #define TWICE _Pragma("omp parallel") _Pragma("omp for")
        #define WRAP(x) _Pragma(#x)
        """,
    )
    source = _write(
        tmp_path / "other.cpp",
        """\
        #include "other.h"
        void f(float *v, int n) {
          IVDEP
          for (int i = 0; i < n; ++i) v[i] = 0;
          TWICE
          for (int i = 0; i < n; ++i) v[i] = 0;
          WRAP(omp parallel for)
          for (int i = 0; i < n; ++i) v[i] = 0;
        }
        """,
    )
    data = source.read_bytes()
    args, empty = clang_frontend.parse_inputs(str(source), data, flags_for(str(source)), (), {}, ())
    unit = ClangUnit(str(source), data, args, [], empty)
    assert directive_macros(unit.tu, unit.top_level, data, (), build_known=True) == {}


def test_cursor_kinds_the_bindings_do_not_name_are_read_by_their_spelling(tmp_path: Path) -> None:
    source = _write(
        tmp_path / "scope.cpp",
        """\
        void f(float *v) {
        #pragma omp scope
          { v[0] = 1; }
        #pragma omp target teams loop
          for (int i = 0; i < 4; ++i) v[i] = 0;
        }
        """,
    )
    data = source.read_bytes()
    args, empty = clang_frontend.parse_inputs(str(source), data, flags_for(str(source)), (), {}, ())
    unit = ClangUnit(str(source), data, args, [], empty)
    kinds = []
    stack = [unit.tu.cursor]
    while stack:
        cursor = stack.pop()
        if (kind := omp_kind(cursor)) is not None:
            kinds.append(kind)
        stack.extend(cursor.get_children())
    assert sorted(kinds) == [directive_key("scope"), directive_key("target teams loop")]
    assert kind_spelling(306) == "OMPScopeDirective"  # a kind clang.cindex has no name for


def test_a_macro_clang_did_not_compile_as_a_directive_is_not_read(tmp_path: Path) -> None:
    """A loop directive with no loop after it is an error to clang: it makes no directive, nor do we."""
    _write(tmp_path / "offload.h", f'#define OFFLOAD _Pragma("{_TARGET}")\n')
    source = _write(tmp_path / "noloop.cpp", '#include "offload.h"\nvoid f(float *v) {\n  OFFLOAD\n  v[0] = 1;\n}\n')
    assert _facts(source, clang_args=("-DBUILD=1",)).omp == ()
