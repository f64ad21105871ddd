"""`kernlint debug facts FILE`: the facts of one file, as text or JSON, read as `check` reads it
(front-end, defines, include directories, config, stdin), and without loading any rule."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import CORPUS, REPO, run_kernlint
from kernlint.facts import Extent, Span
from kernlint.facts.dump import as_data, as_text
from kernlint.facts.model import FileFacts, Loop

BRANCHES = "corpus/sycl/kl501_branches.cpp"
CHOSEN = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
#ifdef WIDE
  q.parallel_for(sycl::range<1>(WIDE), [=](sycl::id<1> i) { p[i] = 0; });
#else
  q.single_task([=] { p[0] = 0; });
#endif
}
"""


def test_a_branch_of_a_corpus_file_shows_in_text_and_json() -> None:
    text = run_kernlint("debug", "facts", BRANCHES)
    assert text.returncode == 0, text.stderr.decode()
    lines = text.stdout.decode().splitlines()
    assert lines[1] == f"{BRANCHES}: sycl"
    first = lines.index("branches: 18")
    assert lines[first + 1 : first + 8] == [
        "  [0] Branch at 12:5-15:34",
        "    condition: 12:9-12:19",
        '    kind: "if"',
        '    dependence: "strong"',
        '    reason: "parity"',
        "    regions: [13:7-13:35, 14:5-15:34]",
        '    lanes: LaneEstimate(kind="split", taken=0.5)',
    ]
    as_json = run_kernlint("debug", "facts", "--format", "json", BRANCHES)
    assert as_json.returncode == 0
    report = json.loads(as_json.stdout)
    assert list(report) == ["kernlint", "path", "frontend", "notes", "facts"]
    assert (report["path"], report["frontend"], report["notes"]) == (BRANCHES, "tree-sitter", [])
    facts = report["facts"]
    assert list(facts)[:3] == ["path", "language", "launches"]  # the order the facts declare
    branch = facts["branches"][0]
    assert (branch["kind"], branch["reason"], branch["origin"], branch["lanes"]) == (
        "if",
        "parity",
        "idx[0]",
        {"kind": "split", "taken": 0.5},
    )
    assert branch["span"]["line"] == 12 and branch["condition"]["column_byte"] == 8
    assert run_kernlint("debug", "facts", "--format", "json", BRANCHES).stdout == as_json.stdout  # deterministic


def test_a_missing_file_is_one_line_and_exit_2() -> None:
    proc = run_kernlint("debug", "facts", "no/such/file.cpp")
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == "kernlint: error: no/such/file.cpp: cannot read file: No such file or directory\n"
    other = run_kernlint("debug", "facts", "README.md")
    assert other.returncode == 2 and other.stderr.decode().count("\n") == 1
    assert "not a file kernlint reads" in other.stderr.decode()


def test_defines_from_the_command_line_and_the_config_choose_the_arm(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(CHOSEN)
    plain = run_kernlint("debug", "facts", "--format", "json", "k.cpp", cwd=tmp_path)
    launches = json.loads(plain.stdout)["facts"]["launches"]  # WIDE unknown: both arms are read
    assert [(launch["api"], launch["global_range"]) for launch in launches] == [
        ("parallel_for", None),  # and the range is unknown
        ("single_task", None),
    ]
    defined = run_kernlint("debug", "facts", "--format", "json", "-D", "WIDE=256", "k.cpp", cwd=tmp_path)
    (launch,) = json.loads(defined.stdout)["facts"]["launches"]
    assert (launch["api"], launch["global_range"]["dims"]) == ("parallel_for", [256])
    (tmp_path / "kernlint.toml").write_text('defines = ["WIDE=64"]\n')
    configured = run_kernlint("debug", "facts", "--format", "json", "k.cpp", cwd=tmp_path)
    (launch,) = json.loads(configured.stdout)["facts"]["launches"]
    assert launch["global_range"]["dims"] == [64]
    stdin = run_kernlint("debug", "facts", "-", "--stdin-filename", "named.cpp", cwd=tmp_path, stdin=CHOSEN)
    assert stdin.stdout.decode().splitlines()[1] == "named.cpp: sycl"
    assert 'global_range: Extent(dims=[64], text="sycl::range<1>(WIDE)")' in stdin.stdout.decode()  # config: WIDE=64


def test_no_rule_is_loaded() -> None:
    """The facts are what the front-end gives, before any rule: the rules are never imported."""
    script = (
        "import sys\n"
        "from kernlint.cli import main\n"
        f"code = main(['debug', 'facts', {str(CORPUS / 'openmp' / 'kl102_maps.f90')!r}])\n"
        "assert code == 0\n"
        "assert not [m for m in sys.modules if m.startswith('kernlint_rules')]\n"
    )
    import subprocess

    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"openmp-fortran" in proc.stdout


def test_the_text_view_writes_spans_as_positions_and_small_facts_on_one_line() -> None:
    span = Span(10, 30, 2, 4, 3, 1)
    facts = FileFacts("k.cpp", "cpp", loops=(Loop(span, "for", "host", 4),))
    assert as_text(facts).splitlines() == [
        "k.cpp: cpp",
        "launches: none",
        "buffers: none",
        "accessors: none",
        "local_allocations: none",
        "barriers: none",
        "loops: 1",
        '  [0] Loop at 2:5-3:2 (kind="for", side="host", trip_count=4)',
        "queues: none",
        "pragmas: none",
        "branches: none",
        "block_accesses: none",
        "memory_accesses: none",
        "omp: none",
        "syntax_errors: none",
        "dependencies: none",
        "calls: none",
        "coverage: Coverage(launches=0, kernels=0, kernels_analysed=0, unseen=[], lost=[])",
        "limits: none",
        "preprocessor: Preprocessor(macros={}, includes=[], include_line=1)",
        "compiled_as_c: False",
        "host_flows: none",
        "usm: none",
    ]
    assert as_data(Extent((4, None), "range(4, n)")) == {"dims": [4, None], "text": "range(4, n)"}
    assert as_data(frozenset({"b", "a"})) == ["a", "b"]
