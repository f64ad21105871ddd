"""Constant evaluation: expression text, and identifiers resolved through a C/C++ file's symbols."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernlint.analysis.consteval import evaluate, parse_int_literal, type_size
from kernlint.frontends.common import treesitter
from kernlint.frontends.cpp.constants import CppConstants


@pytest.mark.parametrize(
    "text,value",
    [
        ("1024", 1024),
        ("0x40", 64),
        ("0b101", 5),
        ("017", 15),
        ("1'048'576", 1048576),
        ("16UL", 16),
        ("256u", 256),
        ("(4 + 4) * 8", 64),
        ("1 << 10", 1024),
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("7 > 3 ? 16 : 32", 16),
        ("sizeof(float) * 8", 32),
        ("sizeof(double)", 8),
        ("sizeof(std::size_t)", 8),
        ("static_cast<int>(12)", 12),
        ("(size_t)64", 64),
        ("size_t(64)", 64),
        ("int{3} + 1", 4),
        ("std::min(64, 128)", 64),
        ("std::max(64, 128)", 128),
        ("~0 & 0xff", 255),
        ("!0", 1),
        ("2 ** 5", 32),
    ],
)
def test_literal_expressions(text: str, value: int) -> None:
    assert evaluate(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "n",
        "foo(3)",
        "1.5",
        "a.size()",
        "x / 0",
        "sizeof(MyStruct)",
        "",
        "1 +",
        "v[3]",
        "1 << 999",
        '"str"',
    ],
)
def test_unknown_stays_unknown(text: str) -> None:
    assert evaluate(text) is None


@pytest.mark.parametrize(
    "spelling,size",
    [
        ("float", 4),
        ("const float", 4),
        ("volatile const double", 8),
        ("std::size_t", 8),
        ("::std::int64_t", 8),
        ("sycl::half", 2),
        ("cl::sycl::half", 2),
        ("std :: uint8_t", 1),
        ("unsigned  int", 4),
        ("std::byte", 1),
        ("const unsigned long long", 8),
        ("float4", None),
        ("const MyStruct", None),
        ("float *", None),
    ],
)
def test_type_size_normalises_the_spelling(spelling: str, size: int | None) -> None:
    """Every analysis sizes element types through one function, so `const float` is 4 bytes everywhere."""
    assert type_size(spelling) == size


@pytest.mark.parametrize(
    "text,value",
    [
        ("sizeof(const float)", 4),
        ("sizeof(std::byte)", 1),
        ("sizeof(sycl::half) * 2", 4),
        ("sizeof(unsigned int)", 4),
    ],
)
def test_sizeof_uses_type_size(text: str, value: int) -> None:
    assert evaluate(text) == value


def test_resolver_supplies_identifiers() -> None:
    env = {"N": 1024, "TILE": 16}
    assert evaluate("N / TILE", env.get) == 64
    assert evaluate("N / M", env.get) is None


def test_literal_parser_rejects_non_integers() -> None:
    assert parse_int_literal("12") == 12
    assert parse_int_literal("1e3") is None


@given(st.text(max_size=60))
def test_evaluate_never_raises(text: str) -> None:
    value = evaluate(text, lambda _n: 3)
    assert value is None or isinstance(value, int)


def _constants(code: str, path: Path | None = None, **kwargs) -> tuple[CppConstants, bytes]:
    data = code.encode()
    tree = treesitter.parser("cpp").parse(data)
    constants = CppConstants(tree.root_node, str(path) if path else None, **kwargs)
    return constants, data  # the root node holds a reference to its tree, which keeps the tree alive


def value_at(code: str, marker: str, expr: str, **kwargs) -> int | None:
    constants, data = _constants(code, **kwargs)
    return constants.value(expr, data.index(marker.encode()))


def test_macros_constexpr_and_const() -> None:
    code = """
    #define WG 256
    #define GLOBAL (WG * 64)
    constexpr int kTile = 16;
    const size_t kBytes = kTile * sizeof(float);
    void f() { /*HERE*/ }
    """
    assert value_at(code, "/*HERE*/", "GLOBAL") == 16384
    assert value_at(code, "/*HERE*/", "kBytes") == 64
    assert value_at(code, "/*HERE*/", "WG / kTile") == 16


def test_locals_assigned_once_vs_reassigned() -> None:
    code = """
    void f(int n) {
      int once = 128;
      int twice = 8;
      twice = 16;
      int counter = 0;
      for (int i = 0; i < 3; ++i) counter++;
      /*HERE*/
    }
    """
    assert value_at(code, "/*HERE*/", "once") == 128
    assert value_at(code, "/*HERE*/", "twice") is None
    assert value_at(code, "/*HERE*/", "counter") is None
    assert value_at(code, "/*HERE*/", "n") is None  # a parameter


def test_scoping_picks_the_visible_definition() -> None:
    code = """
    constexpr int size = 64;
    void a() { int size = 32; /*A*/ }
    void b() { /*B*/ }
    """
    assert value_at(code, "/*A*/", "size") == 32
    assert value_at(code, "/*B*/", "size") == 64


def test_ambiguous_macro_is_unknown_unless_defined_on_the_command_line() -> None:
    code = """
    #ifdef BIG
    #define WG 1024
    #else
    #define WG 256
    #endif
    /*HERE*/
    """
    assert value_at(code, "/*HERE*/", "WG") is None
    assert value_at(code, "/*HERE*/", "WG", defines={"WG": "512"}) == 512


def test_template_non_type_argument_instantiated_in_file() -> None:
    code = """
    template <int N> void vec_add(int *a) { /*IN*/ }
    void use(int *a) { vec_add<32>(a); vec_add<32>(a); }
    template <int M> void other(int *a) { /*OTHER*/ }
    void use2(int *a) { other<8>(a); other<16>(a); }
    """
    assert value_at(code, "/*IN*/", "N * 512") == 16384
    assert value_at(code, "/*OTHER*/", "M") is None  # two different instantiations


def test_quoted_include_resolved_relative_and_through_include_dirs(tmp_path: Path) -> None:
    (tmp_path / "sizes.h").write_text(
        "#pragma once\n#define BLOCK 128\nconstexpr int kWaves = 4;\nconstexpr int kHalf = kWaves / 2;\n"
    )
    extra = tmp_path / "inc"
    extra.mkdir()
    (extra / "more.h").write_text('#include "deeper.h"\n')
    (extra / "deeper.h").write_text("#define DEEP (BLOCK * 2)\n")
    source = tmp_path / "k.cpp"
    code = '#include "sizes.h"\n#include "more.h"\n#include "missing.h"\nvoid f() { /*HERE*/ }\n'
    constants, data = _constants(code, source, include_dirs=(str(extra),))
    at = data.index(b"/*HERE*/")
    assert constants.value("BLOCK * kWaves", at) == 512
    assert constants.value("DEEP", at) == 256
    assert constants.value("kHalf", at) == 2  # a header constant defined from another one
    assert str(tmp_path / "sizes.h") in constants.dependencies


def test_recursive_macros_do_not_hang() -> None:
    code = "#define A (B + 1)\n#define B (A + 1)\n/*HERE*/"
    assert value_at(code, "/*HERE*/", "A") is None


def test_writes_after_the_initialiser_make_a_variable_unknown() -> None:
    code = """
    void fill(sycl::range<3> &r);
    void look(const sycl::range<3> &r, int by_value);
    struct Tuner { void tune(sycl::range<3> &r); };
    void f(Tuner &t) {
      int element = 1; element_of(element); int by_ref = 4; int &alias = by_ref;
      int addressed = 8; int *p = &addressed;
      sycl::range<3> set(1, 1, 1); set[2] = 64;
      sycl::range<3> filled(1, 1, 1); fill(filled);
      sycl::range<3> read(1, 1, 8); look(read, element);
      sycl::range<3> tuned(1, 1, 1); t.tune(tuned);
      sycl::range<3> swapped(1, 1, 2); std::swap(swapped, tuned);
      /*HERE*/
    }
    """
    constants, data = _constants(code)
    at = data.index(b"/*HERE*/")
    assert constants.value("element", at) == 1  # a number passed to an unknown function: by value
    assert constants.value("by_ref", at) is None and constants.value("addressed", at) is None
    definitions = {name: constants.definition(name, at) for name in ("set", "filled", "read", "tuned", "swapped")}
    written = {name: d is not None and constants.written(d) for name, d in definitions.items()}
    assert written == {"set": True, "filled": True, "read": False, "tuned": True, "swapped": True}


def _unit_value(code: str, expr: str, **defines: str) -> int | None:
    from kernlint.frontends.cpp.unit import CppUnit

    data = textwrap.dedent(code).encode()
    unit = CppUnit("t.cpp", data, defines=defines)
    return unit.constants.value(expr, data.index(b"/*HERE*/"))


def test_if_arms_decide_values_only_when_their_condition_is_known() -> None:
    code = """
    #define TUNED
    #ifdef USE_GPU
    const int wg = 256;
    #else
    const int wg = 1;
    #endif
    #if defined(TUNED) && TILE > 8
    const int tile = TILE;
    #elif 1
    const int tile = 4;
    #endif
    int f() { /*HERE*/ return 0; }
    """
    assert _unit_value(code, "wg") is None  # two arms, two values, no telling which is compiled
    assert _unit_value(code, "wg", USE_GPU="1") == 256
    assert _unit_value(code, "tile") is None  # TILE unknown: `#if` or `#elif 1`, two values
    assert _unit_value(code, "tile", TILE="16") == 16 and _unit_value(code, "tile", TILE="2") == 4


def test_a_use_inside_an_arm_sees_that_arm_only() -> None:
    code = """
    void f() {
    #ifdef USE_GPU
      int wg = 256;
    #else
      int wg = 1;
      /*HERE*/
    #endif
    }
    """
    assert _unit_value(code, "wg") == 1
