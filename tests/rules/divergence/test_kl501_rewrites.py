"""KL501's min/max and select rewrites compile and keep the meaning (issue 19, item 1): the same
declared types, no `min`/`max` macro in sight, C++ only (not a `.c` file, nor a header a `.c` file
includes), `<algorithm>` included, and a write on every path only to a private local."""

from __future__ import annotations

from pathlib import Path

from conftest import run_rule
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch
from kernlint_rules.divergence.rewrites import common_type

SYCL = """
    #include <sycl/sycl.hpp>
    {head}
    void f(sycl::queue &q, float *x, const int *idx, int n) {{
      q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {{
        const int i = it.get_global_id(0);
        float v = x[i];
        int a = idx[i];
        {body}
        x[i] = v;
      }});
    }}
"""

OPENMP = """
    {head}
    void f(float *x, const int *idx, int n) {{
      float shared_max = 0.0f;
      #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
      for (int i = 0; i < n; ++i) {{
        float v = x[i];
        float w = x[i + 1];
        {body}
        x[i] = v;
      }}
    }}
"""


def fix_of(body: str, head: str = "", path: str = "t.cpp", template: str = SYCL):
    (d,) = run_rule(DivergentBranch, template.format(body=body, head=head), device=None, path=path)
    return d.fix


def test_a_float_against_an_int_is_not_std_max_but_a_safe_select() -> None:
    """`std::max(v, a)` with `float v`, `int a` does not compile (HeCBench attentionMultiHead-sycl):
    the select converts `a` to float, as the assignment does."""
    fix = fix_of("if (v < a) v = a;")
    assert fix is not None and "std::" not in fix.edits[0].text
    assert fix.edits[0].text == "v = (v < a) ? a : v;" and fix.safe


def test_std_max_brings_algorithm_when_the_file_lacks_it() -> None:
    fix = fix_of("float w = x[i + 1]; if (v < w) v = w;")
    assert fix is not None and fix.safe and fix.edits[0].text == "v = std::max(v, w);"
    assert [e.text for e in fix.edits[1:]] == ["#include <algorithm>\n"]
    assert fix.edits[1].line == 2  # before the first #include
    fix = fix_of("float w = x[i + 1]; if (v < w) v = w;", head="#include <algorithm>")
    assert fix is not None and len(fix.edits) == 1


def test_a_max_macro_in_the_file_or_a_quoted_include_rules_out_std_max(tmp_path: Path) -> None:
    body = "float w = x[i + 1]; if (v < w) v = w;"
    fix = fix_of(body, head="#define max(a, b) ((a) > (b) ? (a) : (b))")
    assert fix is not None and fix.edits[0].text == "v = (v < w) ? w : v;" and len(fix.edits) == 1
    (tmp_path / "util.h").write_text("#define MIN(a, b) ((a) < (b) ? (a) : (b))\n#define min(a, b) MIN(a, b)\n")
    source = tmp_path / "k.cpp"
    text = SYCL.format(body=body, head='#include "util.h"')
    source.write_text(text)
    fix = fix_of(body, head='#include "util.h"', path=str(source))
    assert fix is not None and "std::" not in fix.edits[0].text


def test_a_c_file_or_a_header_a_c_file_includes_gets_a_select(tmp_path: Path) -> None:
    body = "if (v < w) v = w;"
    fix = fix_of(body, path="t.c", template=OPENMP)
    assert fix is not None and fix.edits[0].text == "v = (v < w) ? w : v;" and fix.safe
    header = tmp_path / "kernel.h"
    header.write_text(OPENMP.format(body=body, head=""))
    (tmp_path / "main.c").write_text('#include "kernel.h"\nint main(void) { return 0; }\n')
    fix = fix_of(body, path=str(header), template=OPENMP)
    assert fix is not None and "std::" not in fix.edits[0].text
    (tmp_path / "main.c").unlink()
    fix = fix_of(body, path=str(header), template=OPENMP)
    assert fix is not None and fix.edits[0].text == "v = std::max(v, w);"


def test_writing_a_shared_variable_on_every_path_is_unsafe() -> None:
    """`shared_max` is declared outside the OpenMP construct: the threads share it, and a rewrite
    that writes it on every path is a different program."""
    fix = fix_of("if (shared_max < v) shared_max = v;", template=OPENMP)
    assert fix is not None and not fix.safe and "not a private local" in fix.description


def test_unknown_declarations_make_the_rewrite_unsafe() -> None:
    fix = fix_of("if (v < LIMIT) v = LIMIT;", head="#define LIMIT 4")
    assert fix is not None and not fix.safe and "std::" not in fix.edits[0].text


def test_common_type_follows_the_usual_arithmetic_conversions() -> None:
    assert common_type("float", "int") == "float"
    assert common_type("int", "unsigned int") == "unsigned int"
    assert common_type("short", "char") == "int"
    assert common_type("long long", "unsigned int") == "long long"
    assert common_type("long", "unsigned int") is None  # depends on the size of long
    assert common_type("float", "double") == "double"
