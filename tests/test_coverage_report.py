"""Coverage in every report (issue 20): what kernlint saw of the kernels, per file and for the run, and a
summary that never calls a run clean when it looked at no kernel of files that launch kernels."""

from __future__ import annotations

import io
import json
from pathlib import Path

from conftest import run_json, run_kernlint
from kernlint.diagnostics import FileCoverage, FileResult, FileStatus, RunResult, UnresolvedLaunch
from kernlint.report import render

UNSEEN = """\
#include <sycl/sycl.hpp>
struct Launcher {
  template <class K> void go(sycl::queue &q, K k) { q.parallel_for(sycl::range<1>(64), k_); }
  std::function<void(sycl::id<1>)> k_;
};
"""


def text(result: RunResult) -> str:
    out = io.StringIO()
    render("text", result, out, color=False)
    return out.getvalue()


def test_a_run_that_analysed_no_kernel_of_files_that_launch_kernels_is_not_clean(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(UNSEEN)
    proc = run_kernlint("a.cpp", "--no-cache", cwd=tmp_path)
    out = proc.stdout.decode()
    assert "All checks passed" not in out
    assert "Analysed 0 kernels in 0 files." in out
    assert "1 launch in 1 file runs a kernel kernlint did not see, so nothing in it was checked:" in out
    assert "a.cpp:3:53: `k_` is not declared where kernlint can see it" in out
    assert "No kernel was analysed in 1 file: no finding does not mean no problem." in out


def test_json_gives_each_files_coverage_and_the_runs_totals(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(UNSEEN)
    (tmp_path / "b.cpp").write_text(
        "#include <sycl/sycl.hpp>\n"
        "inline void k(float *p, const sycl::nd_item<1> &it) { p[it.get_global_id(0)] = 0; }\n"
        "void run(sycl::queue &q, float *p) { q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { p[i] = 1; }); }\n"
    )
    _code, data = run_json(".", cwd=tmp_path)
    coverage = {Path(f["path"]).name: f["coverage"] for f in data["files"]}
    assert coverage["a.cpp"]["launches"] == 1 and coverage["a.cpp"]["kernels_analysed"] == 0
    (unresolved,) = coverage["a.cpp"]["unresolved_launches"]
    assert (unresolved["line"], unresolved["column"]) == (3, 53) and "`k_`" in unresolved["reason"]
    assert coverage["b.cpp"] == {
        "launches": 1,
        "kernels": 2,  # the launched lambda and `k`, a kernel by what it is
        "kernels_analysed": 2,
        "unresolved_launches": [],
        "lost_lines": [],
    }
    assert data["summary"]["coverage"] == {
        "launches": 2,
        "kernels": 2,
        "kernels_analysed": 2,
        "unresolved_launches": 1,
        "files_with_kernels": 1,
        "files_with_unresolved_launches": 1,
        "partially_parsed_files": 0,
    }


def test_sarif_carries_the_coverage_as_properties(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(UNSEEN)
    proc = run_kernlint("a.cpp", "--no-cache", "--format", "sarif", cwd=tmp_path)
    run = json.loads(proc.stdout)["runs"][0]
    assert run["properties"]["coverage"]["unresolved_launches"] == 1
    (artifact,) = run["artifacts"]
    assert artifact["properties"]["coverage"]["unresolved_launches"][0]["line"] == 3


def test_the_summary_names_a_few_unresolved_launches_and_counts_the_rest() -> None:
    launches = tuple(UnresolvedLaunch(line, 1, f"reason {line}") for line in range(1, 6))
    files = (FileResult("k.cpp", "sycl", FileStatus.OK, None, (), coverage=FileCoverage(7, 2, 2, launches)),)
    lines = text(RunResult(files, (), ("xe-hpc",), (), 0.0, "0")).splitlines()
    assert lines == [
        "Analysed 2 kernels in 1 file.",
        "5 launches in 1 file run kernels kernlint did not see, so nothing in them was checked:",
        "  k.cpp:1:1: reason 1",
        "  k.cpp:2:1: reason 2",
        "  k.cpp:3:1: reason 3",
        "  and 2 more (`--format json` lists them under `coverage`)",
        "All checks passed (1 file).",
    ]


def test_a_run_with_no_kernel_at_all_says_so_in_its_clean_bill() -> None:
    files = (FileResult("h.cpp", "cpp", FileStatus.OK, None, (), coverage=FileCoverage()),)
    assert text(RunResult(files, (), ("xe-hpc",), (), 0.0, "0")) == (
        "All checks passed (1 file; no kernel was found in it).\n"
    )


def test_the_cache_keeps_a_files_coverage(tmp_path: Path) -> None:
    (tmp_path / "a.cpp").write_text(UNSEEN)
    first = run_kernlint("a.cpp", "--format", "json", cwd=tmp_path)
    again = run_kernlint("a.cpp", "--format", "json", cwd=tmp_path)
    cold, warm = json.loads(first.stdout), json.loads(again.stdout)
    assert warm["files"] == cold["files"] and warm["files"][0]["coverage"]["unresolved_launches"]
