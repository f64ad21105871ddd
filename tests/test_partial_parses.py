"""Fewer partial parses (issue 20): attribute macros expanded in place (built-in, the file's and its
headers' own, the build's `-D`, the configuration's `macros`), block comments inside directives, and
`#if` groups that split a construct read one arm at a time; what is still lost is said once per file."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conftest import CORPUS, run_json
from kernlint.config import ConfigError, load_config
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.preprocess import conditional_arms, one_arm, split_groups
from kernlint.frontends.cpp.dialect import file_macros
from kernlint.frontends.cpp.frontend import extract


def errors_of(data: bytes) -> list[int]:
    """Lines of the ERROR nodes of a plain tree-sitter parse of `data`."""
    found = treesitter.captures("cpp", "cpp", treesitter.parser("cpp").parse(data).root_node).get("error", [])
    return sorted({node.start_point[0] + 1 for node in found})


def test_builtin_attribute_macros_parse_without_errors_and_keep_every_column() -> None:
    path = CORPUS / "sycl" / "cov_macros.cpp"
    data = path.read_bytes()
    assert errors_of(data)  # unexpanded, the parser loses lines (as kernlint did before)
    expanded = file_macros(str(path), data).apply(data)
    assert len(expanded) == len(data) and expanded.count(b"\n") == data.count(b"\n")
    assert not errors_of(expanded)
    assert b"struct" + b" " * 20 + b"Pair" in expanded  # `__dpct_align__(16)` blanked, column kept
    assert b"#define MYLIB_INLINE inline __attribute__((always_inline))" in expanded  # directives untouched
    assert not extract(str(path), data).syntax_errors


def test_the_files_and_its_headers_attribute_defines_are_expanded_values_are_not(tmp_path: Path) -> None:
    (tmp_path / "config.h").write_text('#define DEV_API __attribute__((visibility("default")))\n')
    (tmp_path / "util.h").write_text('#include "config.h"\n#define INLINE inline\n#define REAL double\n')
    data = textwrap.dedent("""\
        #include "util.h"
        #define LOCAL static
        INLINE REAL twice(REAL x) { return 2 * x; }
        DEV_API LOCAL void f(int REAL_COUNT) {}
    """).encode()
    expanded = file_macros(str(tmp_path / "k.cpp"), data).apply(data)
    assert b"inline REAL twice(REAL x)" in expanded  # fits: written in place; a type is left as written
    assert b"\n" + b" " * 14 + b"void f(int REAL_COUNT)" in expanded  # longer than the name: blanked
    assert len(expanded) == len(data)


def test_a_name_defined_differently_in_two_places_is_left_alone() -> None:
    data = b"#ifdef GPU\n#define QUAL __device__\n#else\n#define QUAL float\n#endif\nQUAL int x;\n"
    assert file_macros("k.cpp", data).apply(data) == data


def test_configured_macros_and_build_defines(tmp_path: Path) -> None:
    data = b"MYLIB_ATTRIBUTES MY_INLINE int f(int v) { return v; }\nALIGNED(16) struct S {};\nFLAG\n"
    macros = {"MYLIB_ATTRIBUTES": "", "MY_INLINE": "inline", "ALIGNED(n)": ""}
    expanded = file_macros("k.cpp", data, configured=macros).apply(data)
    assert expanded.startswith(b"                 inline    int f(int v)")
    assert b"            struct S {};" in expanded
    build = file_macros("k.cpp", data, defines={"MYLIB_ATTRIBUTES": "", "MY_INLINE": "inline", "FLAG": "1"})
    assert build.apply(data).startswith(b"                 inline    int f")  # `-DX=` and attribute values
    assert build.apply(data).endswith(b"FLAG\n")  # a value the build defines is the constants' business
    longer = file_macros("k.cpp", b"TYPE x;\n", configured={"TYPE": "unsigned long long"}).apply(b"TYPE x;\n")
    assert longer == b"TYPE x;\n"  # a value that does not fit and is not an attribute: never moves a column


def test_the_macros_key_is_validated_and_used(tmp_path: Path) -> None:
    config = tmp_path / "kernlint.toml"
    config.write_text('macros = {"MYLIB_ATTRIBUTES" = "", "ALIGN(n)" = "", "MY_INLINE" = "inline"}\n')
    assert dict(load_config(config).macros) == {"MYLIB_ATTRIBUTES": "", "ALIGN(n)": "", "MY_INLINE": "inline"}
    for bad, says in (
        ('macros = ["A"]', "must be a table"),
        ('macros = {"1A" = ""}', "is not a macro name"),
        ('macros = {"A" = 1}', "must be a one-line string"),
        ('macros = {"A(" = ""}', "is not a macro name"),
    ):
        config.write_text(bad + "\n")
        with pytest.raises(ConfigError, match=says):
            load_config(config)
    config.write_text('macros = {"MYLIB_API" = ""}\n')
    (tmp_path / "k.cpp").write_text(
        "#include <sycl/sycl.hpp>\nMYLIB_API MYLIB_API float f(float v) { return v; }\n"
        "void run(sycl::queue &q, float *p) {\n"
        "  q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { p[i] = f(1); });\n}\n"
    )
    _code, data = run_json("k.cpp", cwd=tmp_path)
    assert data["files"][0]["status"] == "ok" and not data["diagnostics"]
    config.unlink()
    _code, data = run_json("k.cpp", cwd=tmp_path)
    assert data["files"][0]["status"] == "partial"
    (note,) = data["diagnostics"]
    assert note["code"] == "KL000" and note["severity"] == "info" and note["line"] == 2
    assert "`MYLIB_API` reads as a macro kernlint does not know" in note["message"]
    assert data["files"][0]["coverage"]["lost_lines"] == [[2, 2]]


def test_compile_commands_defines_expand_attribute_macros(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text("#include <sycl/sycl.hpp>\nLIB_EXPORT float f(float v) { return v; }\n")
    (tmp_path / "compile_commands.json").write_text(
        json.dumps(
            [{"directory": str(tmp_path), "file": "k.cpp", "arguments": ["icpx", "-DLIB_EXPORT=", "-c", "k.cpp"]}]
        )
    )
    _code, data = run_json("k.cpp", cwd=tmp_path)
    assert data["files"][0]["status"] == "ok"


def test_block_comments_inside_a_directive_do_not_end_it() -> None:
    facts = extract(
        "k.c",
        b"void f(float *x, float *y, int n) {\n"
        b"#pragma omp target map(to: x[0:n]) /* inputs */ map(from: y[0:n])\n"
        b"  for (int i = 0; i < n; ++i) y[i] = x[i];\n}\n",
    )
    assert not facts.syntax_errors
    (construct,) = facts.omp
    assert construct.directive is not None
    assert [item.item.text for item in construct.directive.map_items] == ["x[0:n]", "y[0:n]"]


SPLIT = b"""\
void run(sycl::queue &q, float *out, size_t n) {
  q.submit([&](sycl::handler &cgh) {
#if USE_SIMPLE
    cgh.parallel_for<class Simple>(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      out[0] = 0;
#else
    cgh.parallel_for<class Full>(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      if (it.get_local_id(0) & 1) it.barrier();
#endif
    });
  });
}
"""


def test_an_if_group_that_splits_a_construct_is_read_one_arm_at_a_time() -> None:
    arms = conditional_arms(SPLIT)
    groups = split_groups(SPLIT, arms, [])
    assert len(groups) == 1  # each arm opens a call and a lambda the code after `#endif` closes
    first, second = one_arm(SPLIT, arms, groups, 0), one_arm(SPLIT, arms, groups, 1)
    assert len(first) == len(second) == len(SPLIT) and not errors_of(first) and not errors_of(second)
    assert errors_of(SPLIT)
    facts = extract("k.cpp", SPLIT)
    assert not facts.syntax_errors
    assert [launch.name for launch in facts.launches] == ["Simple", "Full"]  # both arms, in turn
    (barrier,) = facts.barriers
    assert barrier.span.line == 8 and facts.branches


def test_a_group_that_defines_macros_is_never_reduced_to_one_arm() -> None:
    """Choosing an arm would choose a value: `SG` stays unknown (no sub-group size is guessed)."""
    data = b"""\
#ifdef WAVE64
#define SG 64
#else
#define SG 32
#endif
void f(sycl::queue &q, float *p) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(SG)]] {
    p[0] = 0;
#ifdef EXTRA
  });
#else
  }); p[1] = 0;
#endif
}
"""
    facts = extract("k.cpp", data)
    assert [launch.attributes.reqd_sub_group_size for launch in facts.launches] == [None]
    arms = conditional_arms(data)
    assert not any(arm.group == 0 for arm in arms if arm.group in split_groups(data, arms, [(0, len(data))]))


def test_lost_lines_are_said_once_per_file_with_their_cause(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text(
        "#include <sycl/sycl.hpp>\nPROJ_API float f(float v) { return v; }\n\nPROJ_API float g(float v) { return v; }\n"
        "void run(sycl::queue &q, float *p) { q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { p[i] = 0; }); }\n"
    )
    (tmp_path / "plain.cpp").write_text("PROJ_API int h(int v) { return v; }\n")
    _code, data = run_json(".", cwd=tmp_path)
    notes = [d for d in data["diagnostics"] if d["code"] == "KL000"]
    assert len(notes) == 1 and notes[0]["path"].endswith("k.cpp")  # plain C++: nothing kernlint analyses was lost
    assert notes[0]["message"].startswith(
        "lines 2 and 4 could not be parsed and were not analysed: `PROJ_API` reads as a macro kernlint does not know"
    )
    assert notes[0]["message"].endswith("; name a project's macros in the `macros` configuration key")
    assert notes[0]["evidence"]["lost_lines"] == [[2, 2], [4, 4]]
    by_path = {Path(f["path"]).name: f for f in data["files"]}
    assert by_path["plain.cpp"]["status"] == "partial"
