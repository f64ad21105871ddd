"""Pathological inputs (issue 11 item 8): deep nesting, huge lines and files, odd bytes and line ends,
wide characters before a finding, links that loop and files that vanish. Each returns findings or a
KL000, never an exception, with every span inside its file and columns right in every format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import run_kernlint
from kernlint.config import Config
from kernlint.diagnostics import FileResult
from kernlint.discovery import SourceEntry, discover
from kernlint.engine import analyse_file, analyse_source
from kernlint.session import make_setup
from span_checks import spans_inside

LOOP = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""


def analyse(name: str, data: bytes, timeout_s: float | None = None) -> FileResult:
    setup = make_setup(Config(root=os.getcwd()), use_cache=False, timeout_s=timeout_s)
    family = ("fortran", name.endswith(".f")) if name.endswith((".f", ".f90")) else ("cpp", False)
    result = analyse_source(SourceEntry(name, *family), data, setup)
    assert not [d.message for d in result.diagnostics if d.evidence.get("internal")]
    spans_inside(result, data)
    return result


def kernel(body: str) -> bytes:
    return (
        "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q, int *out) {\n"
        "  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {\n" + body + "  });\n}\n"
    ).encode()


@pytest.mark.parametrize(
    "body",
    [
        "  out[i] = " + "(" * 10_000 + "i" + ")" * 10_000 + ";\n",
        "{\n" * 10_000 + "out[i] = 1;\n" + "}\n" * 10_000,
        "if (i) {\n" * 10_000 + "out[i] = 1;\n" + "}\n" * 10_000,
    ],
    ids=["parentheses", "blocks", "ifs"],
)
def test_ten_thousand_levels_of_nesting_end_in_a_result(body: str) -> None:
    # No time limit: the result must come from the analysis itself (how long it takes is measured in
    # benchmarks/bench_pathological.py, never asserted here, where a slow machine would make it flaky).
    result = analyse("k.cpp", kernel(body))
    # analysed, or given up on as too deep with a KL000 (never a crash, never a recursion error)
    assert result.status.value in ("ok", "partial")


def omp_region(body: str) -> bytes:
    """An OpenMP C++ offload loop whose body is `body` (the index is `i`, the output `out`)."""
    return (
        "void f(int *out, int n) {\n#pragma omp target teams distribute parallel for map(tofrom: out[0:n])\n"
        "  for (int i = 0; i < n; ++i) {\n" + body + "  }\n}\n"
    ).encode()


def fortran_region(body: str) -> bytes:
    """An OpenMP Fortran offload loop whose body is `body` (the index is `i`, the output `out`)."""
    return (
        "subroutine f(out, n)\n  integer :: n, i\n  integer :: out(n)\n"
        "  !$omp target teams distribute parallel do map(tofrom: out)\n  do i = 1, n\n"
        + body
        + "  end do\nend subroutine\n"
    ).encode()


def codes(result: FileResult) -> list[str]:
    return [d.code for d in result.diagnostics]


@pytest.mark.parametrize("depth", [350, 3_000])
def test_every_level_of_a_deep_nest_of_divergent_ifs_is_reported(depth: int) -> None:
    # The reaching-definitions walk is iterative: no depth makes it give up (350 used to lose them all).
    result = analyse("k.cpp", kernel("if (i[0] % 2) {\n" * depth + "out[i] = 1;\n" + "}\n" * depth))
    assert result.status.value == "ok"
    assert codes(result).count("KL501") == depth and "KL000" not in codes(result)


def test_three_hundred_nested_conditions_are_still_analysed() -> None:
    # The divergent branch at the bottom of a nest of uniform ones is found.
    body = "".join(f"if (i[0] > {k}) {{\n" for k in range(300)) + "if (i[0] % 2 == 0) out[i] = 1;\n" + "}\n" * 300
    result = analyse("k.cpp", kernel(body))
    assert [d.code for d in result.diagnostics if d.code == "KL501"] == ["KL501"]


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("k.cpp", kernel("if (" + "(" * 500 + "i[0] % 2" + ")" * 500 + ") out[i] = 1;\n")),
        ("k.cpp", omp_region("if (" + "(" * 500 + "i % 2" + ")" * 500 + ") out[i] = 1;\n")),
        ("k.f90", fortran_region("if (" + "(" * 500 + "mod(i, 2) == 0" + ")" * 500 + ") out(i) = 1\n")),
    ],
    ids=["sycl", "openmp-c++", "fortran"],
)
def test_parentheses_however_many_hide_no_finding(name: str, source: bytes) -> None:
    result = analyse(name, source)
    assert codes(result) == ["KL501"]


def test_an_expression_deeper_than_the_analysis_reads_is_reported_where_it_is() -> None:
    # `((((i[0] + 1) + 1) …) % 2`: the id lies 300 levels down, past the 120 the lowering reads. The
    # branch cannot be graded, and a KL000 info says so at the part left unread (line 5).
    depth = 300
    result = analyse("k.cpp", kernel("if (\n" + "(" * depth + "i[0]" + " + 1)" * depth + " % 2) out[i] = 1;\n"))
    assert result.status.value == "ok"
    [note] = result.diagnostics
    assert (note.code, note.severity.value, note.line) == ("KL000", "info", 5)
    assert "nested more than 120 levels deep" in note.message and "KL501" in note.message


def test_an_openmp_expression_too_deep_to_read_is_reported() -> None:
    depth = 1_000  # `(i + (1 + (1 + …)))`: no doubled parentheses to fold, deeper than the reader's stack
    condition = "(i + " * depth + "1" + ")" * depth
    result = analyse("k.cpp", omp_region(f"if (({condition}) % 2) out[i] = 1;\n"))
    [note] = [d for d in result.diagnostics if d.code == "KL000"]
    assert note.severity.value == "info" and note.line == 4 and "nested too deeply" in note.message


def test_calls_deeper_than_the_call_graph_is_followed_are_reported() -> None:
    # kernel → f0 → f1 → … → f8: eight levels of calls (f0 to f7) are device code of the kernel; the
    # call to f8 is where kernlint stops, and it says so there (the branch in f8 is not reported).
    functions = "".join(f"void f{k}(int *out, int i) {{ f{k + 1}(out, i); }}\n" for k in range(7, -1, -1))
    source = (
        "#include <sycl/sycl.hpp>\nvoid f8(int *out, int i) { if (i % 2) out[i] = 1; }\n"
        + functions
        + "void run(sycl::queue &q, int *out) {\n"
        "  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { f0(out, i[0]); });\n}\n"
    )
    result = analyse("k.cpp", source.encode())
    [note] = result.diagnostics
    assert (note.code, note.severity.value, note.line) == ("KL000", "info", 3)  # the call `f8(out, i)` in f7
    assert "`f8` is not analysed" in note.message and "8 levels of calls" in note.message


def test_a_nest_of_loops_is_walked_a_number_of_times_that_grows_with_its_depth_not_exponentially(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each loop is walked until its head is stable, and again on every round of the loops around it;
    # starting where it stopped last time, a nest of 16 costs about 150 rounds (each forks the state
    # once after its test), not 2**16.
    from kernlint.analysis.reaching import Flow

    rounds = 0
    fork = Flow.fork

    def counted(self: Flow) -> object:
        nonlocal rounds
        rounds += 1
        return fork(self)

    monkeypatch.setattr(Flow, "fork", counted)
    depth = 16
    loops = "".join(f"for (int k{j} = 0; k{j} < i[0]; ++k{j}) {{\n" for j in range(depth))
    result = analyse("k.cpp", kernel(loops + "out[i] = 1;\n" + "}\n" * depth))
    assert codes(result).count("KL501") == depth
    assert rounds <= depth * depth


@pytest.mark.parametrize(
    "prefix",
    [
        b"// " + b"x" * 1_000_000 + b"\n",
        b"int big = " + b"1 + " * 250_000 + b"1;\n",
    ],
    ids=["comment", "code"],
)
def test_a_one_megabyte_line(prefix: bytes) -> None:
    result = analyse("k.cpp", prefix + LOOP)
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("KL101", 5, 5)]


def test_two_hundred_thousand_lines() -> None:
    result = analyse("k.cpp", b"  // a line\n" * 200_000 + LOOP)
    assert [(d.code, d.line) for d in result.diagnostics] == [("KL101", 200_004)]


def test_nul_bytes() -> None:
    early = analyse("k.cpp", LOOP.replace(b"{\n", b"{\0\n", 1))
    assert early.status.value == "error" and "NUL byte" in (early.error or "")
    late = analyse("k.cpp", b"  // padding\n" * 1_000 + LOOP + b"int x = 0;\0\n")  # past the binary check
    assert [d.code for d in late.diagnostics if d.code != "KL000"] == ["KL101"]


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + LOOP,
        LOOP.replace(b"\n", b"\r\n"),
        LOOP.replace(b"\n", b"\r"),
        b"".join(line + end for line, end in zip(LOOP.split(b"\n"), (b"\r\n", b"\r", b"\n", b"\r", b"\r\n", b"\n"))),
    ],
    ids=["bom", "crlf", "lone-cr", "mixed"],
)
def test_byte_order_mark_and_line_ends(data: bytes) -> None:
    assert [(d.code, d.line, d.column) for d in analyse("k.cpp", data).diagnostics] == [("KL101", 4, 5)]


def test_latin1_in_code_and_comments() -> None:
    result = analyse("k.cpp", b"// \xa9 Jos\xe9\n" + LOOP.replace(b"float *p", b"float *p\xe9"))
    (kl000,) = [d for d in result.diagnostics if d.code == "KL000"]
    assert kl000.severity.value == "warning" and (kl000.line, kl000.column) == (1, 4)


WIDE = LOOP.replace(b"    sycl::buffer<float> b(", "\t/* 漢字😀 */\tsycl::buffer<float> b(".encode())


def test_tabs_and_wide_characters_before_a_finding_in_every_format(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(WIDE)
    line = WIDE.decode().split("\n")[3]
    column = line.index("sycl::buffer") + 1  # characters, as docs/contract.md §4 says
    end_column = line.index(";") + 2  # the position after the span, which ends with the `;`
    report = json.loads(run_kernlint("k.cpp", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    (finding,) = report["diagnostics"]
    assert (finding["line"], finding["column"], finding["end_column"]) == (4, column, end_column)
    sarif = json.loads(run_kernlint("k.cpp", "--format", "sarif", "--no-cache", cwd=tmp_path).stdout)
    run = sarif["runs"][0]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert run["columnKind"] == "unicodeCodePoints" and (region["startColumn"], region["endColumn"]) == (
        column,
        end_column,
    )
    github = run_kernlint("k.cpp", "--format", "github", "--no-cache", cwd=tmp_path).stdout.decode()
    assert f"line=4,col={column},endLine=4,endColumn={end_column}," in github
    for fmt in ("text", "concise"):
        out = run_kernlint("k.cpp", "--format", fmt, "--no-cache", cwd=tmp_path).stdout.decode()
        assert out.startswith(f"k.cpp:4:{column}: KL101")
    text = run_kernlint("k.cpp", "--no-cache", cwd=tmp_path).stdout.decode().splitlines()
    shown = next(t for t in text if t.startswith(" 4 | "))
    carets = text[text.index(shown) + 1]
    # tab stops every 4 cells; 漢, 字 and 😀 take two cells each: the carets start under `sycl`
    assert shown == " 4 |     /* 漢字😀 */    sycl::buffer<float> b(p, sycl::range<1>(16));"
    cells = len(" 4 |     /* ") + 6 + len(" */    ")
    assert carets.index("^") == cells and carets.count("^") == end_column - column


def test_a_symlink_loop_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    os.symlink("b.cpp", tmp_path / "a.cpp")
    os.symlink("a.cpp", tmp_path / "b.cpp")
    (tmp_path / "k.cpp").write_bytes(LOOP)
    proc = run_kernlint(".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr.decode()
    report = json.loads(proc.stdout)
    assert {f["path"]: f["status"] for f in report["files"]} == {"a.cpp": "error", "b.cpp": "error", "k.cpp": "ok"}
    assert all(
        "symbolic links" in d["message"] or "loop" in d["message"].lower()
        for d in report["diagnostics"]
        if d["code"] == "KL000"
    )


def test_a_file_that_vanishes_or_turns_into_a_directory(tmp_path: Path) -> None:
    for name in ("gone.cpp", "dir.cpp", "k.cpp"):
        (tmp_path / name).write_bytes(LOOP)
    setup = make_setup(Config(root=str(tmp_path)), use_cache=False)
    entries, _ = discover([str(tmp_path)], setup.config)
    (tmp_path / "gone.cpp").unlink()
    (tmp_path / "dir.cpp").unlink()
    (tmp_path / "dir.cpp").mkdir()
    results = {Path(e.path).name: analyse_file(e, setup) for e in entries}
    assert results["gone.cpp"].status.value == "error" and "cannot read" in (results["gone.cpp"].error or "")
    assert results["dir.cpp"].status.value == "error" and "directory" in (results["dir.cpp"].error or "")
    assert [d.code for d in results["k.cpp"].diagnostics] == ["KL101"]


def test_undecodable_bytes_inside_an_identifier_the_queries_look_at() -> None:
    """Found by the fuzz test: invalid UTF-8 inside a name a query predicate tests (`syc\\xff\\xfel::`)
    made tree-sitter raise UnicodeDecodeError, so the whole file was lost to an internal error."""
    data = LOOP.replace(b"sycl::range<1>(16)", b"syc\xff\xfel::range<1>(16)")
    result = analyse("k.cpp", data)
    found = sorted((d.code, d.severity.value) for d in result.diagnostics)
    assert found == [("KL000", "warning"), ("KL101", "warning")]
