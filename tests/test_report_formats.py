"""Reporters against their contracts: docs/contract.md §4 JSON (and its shipped schema), official SARIF 2.1.0,
GitHub workflow commands and the human text report."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest

from kernlint.diagnostics import (
    Diagnostic,
    Edit,
    FileCoverage,
    FileResult,
    FileStatus,
    Fix,
    FixAvailability,
    Related,
    RuleInfo,
    RunResult,
    Severity,
    UnresolvedLaunch,
)
from kernlint.report import FORMATS, render
from kernlint.rule_docs import RULES_URL

DATA = Path(__file__).parent / "data"
ANSI = re.compile(r"\x1b\[")
COLOUR = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-7]|9[0-7])[;m]")

A_PATH = "src dir/kérnel a.cpp"  # a space and a non-ASCII character
B_PATH = "src/b.cpp"
GONE_PATH = "src/gone.cpp"

A_SOURCE = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p, int n) {
  for (int i = 0; i < n; ++i) {
    sycl::buffer<float> b(p, n);
  }
}
"""
B_SOURCE = "int id = it.get_local_id(0);\nif (id < 3) {}\n"
MESSAGE = "buffer built 100% of iterations, costly: hoist it\nsecond line"

RULES = (
    RuleInfo(
        "KL101",
        "buffer-in-loop",
        Severity.WARNING,
        "A SYCL buffer constructed inside a host loop",
        "Constructing a **buffer** in a loop copies data every iteration.",
    ),
    RuleInfo(
        "KL202",
        "low-occupancy",
        Severity.WARNING,
        "A work-group that leaves its unit badly occupied",
        "Low occupancy hides less latency.",
    ),
    RuleInfo(
        "KL501",
        "divergent-branch",
        Severity.INFO,
        "A branch on the work-item id",
        "Lanes of a sub-group diverge.",
        fix_availability=FixAvailability.SOMETIMES,
    ),
)


def diagnostics(shift: int = 0) -> tuple[Diagnostic, ...]:
    """The run's findings, sorted as the engine sorts them; `shift` moves file A's lines down."""
    return (
        Diagnostic(
            path=A_PATH,
            line=2 + shift,
            column=6,
            end_line=2 + shift,
            end_column=7,
            code="KL202",
            name="low-occupancy",
            severity=Severity.WARNING,
            message="work-group of 512 leaves the xe-core idle",
            device="xe-lp",
            language="sycl",
            kernel="VectorAdd2",
            evidence={"occupancy_pct": 57.14285714, "limiter": "threads", "work_groups_per_unit": 2, "unit": "xe-core"},
        ),
        Diagnostic(
            path=A_PATH,
            line=4 + shift,
            column=5,
            end_line=4 + shift,
            end_column=33,
            code="KL101",
            name="buffer-in-loop",
            severity=Severity.WARNING,
            message=MESSAGE,
            language="sycl",
            evidence={"loop_line": 3 + shift},
            fix=Fix(
                "hoist the buffer out of the loop",
                (Edit(4 + shift, 5, 4 + shift, 33, ""), Edit(2 + shift, 42, 2 + shift, 42, "\n  sycl::buffer b;")),
                safe=False,
            ),
            related=(Related(3 + shift, 3, 3 + shift, 32, "enclosing loop"),),
        ),
        Diagnostic(
            path=B_PATH,
            line=2,
            column=1,
            end_line=2,
            end_column=15,
            code="KL501",
            name="divergent-branch",
            severity=Severity.INFO,
            message="branch on the work-item id",
            device="h100",
            language="sycl",
        ),
        Diagnostic(
            path=GONE_PATH,
            line=1,
            column=1,
            end_line=1,
            end_column=1,
            code="KL000",
            name="parse-error",
            severity=Severity.ERROR,
            message="cannot read file: No such file or directory",
            fix=Fix("nothing to do", (Edit(1, 1, 1, 1, "x"),)),
        ),
    )


A_COVERAGE = FileCoverage(launches=2, kernels=2, kernels_analysed=2)
B_COVERAGE = FileCoverage(
    launches=2,
    kernels=1,
    kernels_analysed=1,
    unresolved_launches=(
        UnresolvedLaunch(7, 3, "`k` is a parameter of `submit`, which no call in this file passes a kernel to"),
    ),
    lost_lines=((3, 4),),
)


def run_result(diags: tuple[Diagnostic, ...] | None = None) -> RunResult:
    diags = diagnostics() if diags is None else diags
    files = (
        FileResult(
            A_PATH, "sycl", FileStatus.OK, None, tuple(d for d in diags if d.path == A_PATH), coverage=A_COVERAGE
        ),
        FileResult(
            B_PATH, "sycl", FileStatus.PARTIAL, None, tuple(d for d in diags if d.path == B_PATH), coverage=B_COVERAGE
        ),
        FileResult(
            GONE_PATH,
            None,
            FileStatus.ERROR,
            "cannot read file: No such file or directory",
            tuple(d for d in diags if d.path == GONE_PATH),
        ),
    )
    return RunResult(files, diags, ("xe-lp", "h100"), RULES, 0.1234567, "0.1.0")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding files A and B (the error file does not exist)."""
    (tmp_path / "src dir").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / A_PATH).write_text(A_SOURCE, encoding="utf-8")
    (tmp_path / B_PATH).write_text(B_SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def rendered(fmt: str, result: RunResult, **options: Any) -> str:
    out = io.StringIO()
    render(fmt, result, out, **options)
    return out.getvalue()


# --------------------------------------------------------------------------------------------- json


def output_schema() -> dict[str, Any]:
    text = resources.files("kernlint.report").joinpath("schemas/kernlint-output-v1.schema.json").read_text()
    return json.loads(text)


def test_json_validates_against_shipped_schema(project: Path) -> None:
    schema = output_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads(rendered("json", run_result()))
    jsonschema.Draft202012Validator(schema).validate(data)
    empty = json.loads(rendered("json", RunResult((), (), (), (), 0.0, "0.1.0")))
    jsonschema.Draft202012Validator(schema).validate(empty)


def _drop(path: list[Any]):
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _set(path: list[Any], value: Any):
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _rename(path: list[Any], new: str):
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[new] = target.pop(path[-1])

    return mutate


@pytest.mark.parametrize(
    "mutate",
    [
        _drop(["summary"]),
        _drop(["diagnostics", 0, "kernel"]),
        _drop(["files", 2, "error"]),
        _rename(["diagnostics", 1, "end_column"], "end_col"),
        _rename(["tool", "version"], "versoin"),
        _set(["summary", "extra"], 1),
        _set(["diagnostics", 0, "extra"], 1),
        _set(["files", 0, "checksum"], "x"),
        _set(["diagnostics", 1, "fix", "edits", 0, "extra"], 1),
        _set(["diagnostics", 0, "line"], "2"),
        _set(["diagnostics", 0, "column"], 0),
        _set(["diagnostics", 0, "severity"], "fatal"),
        _set(["diagnostics", 0, "fix"], "hoist it"),
        _set(["diagnostics", 0, "evidence"], []),
        _set(["diagnostics", 0, "related"], {}),
        _set(["files", 0, "status"], "skipped"),
        _set(["version"], 2),
        _set(["tool", "name"], "other"),
        _set(["summary", "by_code"], {"KL101": "1"}),
    ],
    ids=lambda m: m.__qualname__.split(".")[0],
)
def test_json_schema_rejects_mutations(project: Path, mutate) -> None:
    data = json.loads(rendered("json", run_result()))
    broken = copy.deepcopy(data)
    mutate(broken)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(output_schema()).validate(broken)


def test_json_keys_and_values_match_spec(project: Path) -> None:
    result = run_result()
    text = rendered("json", result)
    assert text.endswith("}\n")
    data = json.loads(text)
    assert list(data) == ["version", "tool", "devices", "files", "diagnostics", "summary"]
    assert data["version"] == 1
    assert data["tool"] == {"name": "kernlint", "version": "0.1.0"}
    assert data["devices"] == ["xe-lp", "h100"]
    a_coverage = {"launches": 2, "kernels": 2, "kernels_analysed": 2, "unresolved_launches": [], "lost_lines": []}
    b_coverage = {
        "launches": 2,
        "kernels": 1,
        "kernels_analysed": 1,
        "unresolved_launches": [
            {
                "line": 7,
                "column": 3,
                "reason": "`k` is a parameter of `submit`, which no call in this file passes a kernel to",
            }
        ],
        "lost_lines": [[3, 4]],
    }
    assert data["files"] == [
        {"path": A_PATH, "language": "sycl", "status": "ok", "error": None, "coverage": a_coverage},
        {"path": B_PATH, "language": "sycl", "status": "partial", "error": None, "coverage": b_coverage},
        {
            "path": GONE_PATH,
            "language": None,
            "status": "error",
            "error": "cannot read file: No such file or directory",
            "coverage": None,
        },
    ]
    assert list(data["files"][0]) == ["path", "language", "status", "error", "coverage"]
    assert data["summary"]["coverage"] == {
        "launches": 4,
        "kernels": 3,
        "kernels_analysed": 3,
        "unresolved_launches": 1,
        "files_with_kernels": 2,
        "files_with_unresolved_launches": 1,
        "partially_parsed_files": 1,
    }
    assert list(data["diagnostics"][0])[:14] == [
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "name",
        "severity",
        "message",
        "device",
        "language",
        "kernel",
        "evidence",
        "fix",
    ]
    first = data["diagnostics"][0]
    assert (first["path"], first["line"], first["column"], first["end_line"], first["end_column"]) == (
        A_PATH,
        2,
        6,
        2,
        7,
    )
    assert (first["code"], first["name"], first["severity"], first["device"], first["kernel"]) == (
        "KL202",
        "low-occupancy",
        "warning",
        "xe-lp",
        "VectorAdd2",
    )
    assert first["fix"] is None
    second = data["diagnostics"][1]
    assert second["message"] == MESSAGE
    assert second["device"] is None
    assert second["fix"] == {
        "description": "hoist the buffer out of the loop",
        "safe": False,
        "edits": [
            {"line": 4, "column": 5, "end_line": 4, "end_column": 33, "text": ""},
            {"line": 2, "column": 42, "end_line": 2, "end_column": 42, "text": "\n  sycl::buffer b;"},
        ],
    }
    assert second["related"] == [{"line": 3, "column": 3, "end_line": 3, "end_column": 32, "message": "enclosing loop"}]
    assert [d["code"] for d in data["diagnostics"]] == ["KL202", "KL101", "KL501", "KL000"]  # engine order kept
    assert data["summary"] == {
        "files": 3,
        "diagnostics": 4,
        "by_code": {"KL000": 1, "KL101": 1, "KL202": 1, "KL501": 1},
        "coverage": result.coverage(),
        "elapsed_s": 0.123,
    }
    assert list(data["summary"]) == ["files", "diagnostics", "by_code", "coverage", "elapsed_s"]


# -------------------------------------------------------------------------------------------- sarif


def sarif(result: RunResult, root: Path | None = None) -> dict[str, Any]:
    return json.loads(rendered("sarif", result, root=root))


def test_sarif_validates_against_official_schema(project: Path) -> None:
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    log = sarif(run_result())
    validator.validate(log)
    validator.validate(sarif(RunResult((), (), (), (), 0.0, "0.1.0")))  # an empty run too
    broken = copy.deepcopy(log)
    del broken["runs"][0]["results"][0]["message"]
    assert not validator.is_valid(broken)  # the schema really checks results


def test_sarif_required_fields_rules_and_levels(project: Path) -> None:
    log = sarif(run_result())
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("kernlint", "0.1.0")
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    # Registered rules in order, then KL000, which a diagnostic carries without a registered rule.
    assert [r["id"] for r in rules] == ["KL101", "KL202", "KL501", "KL000"]
    kl101 = rules[0]
    assert kl101["name"] == "buffer-in-loop"
    assert kl101["shortDescription"] == {"text": "A SYCL buffer constructed inside a host loop"}
    doc = "Constructing a **buffer** in a loop copies data every iteration."
    assert kl101["fullDescription"] == {"text": doc, "markdown": doc}
    assert kl101["help"] == {"text": doc, "markdown": doc}
    assert [r["defaultConfiguration"]["level"] for r in rules] == ["warning", "warning", "note", "error"]
    assert [r["properties"]["fixAvailability"] for r in rules] == ["never", "never", "sometimes", "never"]

    results = run["results"]
    assert [r["ruleId"] for r in results] == ["KL202", "KL101", "KL501", "KL000"]
    for res in results:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert set(res) >= {"ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints"}
    assert [r["level"] for r in results] == ["warning", "warning", "note", "error"]
    assert results[1]["message"] == {"text": MESSAGE}
    assert results[0]["properties"] == {
        "name": "low-occupancy",
        "device": "xe-lp",
        "language": "sycl",
        "kernel": "VectorAdd2",
        "evidence": {"occupancy_pct": 57.14285714, "limiter": "threads", "work_groups_per_unit": 2, "unit": "xe-core"},
    }


def test_sarif_locations_are_relative_and_percent_encoded(project: Path) -> None:
    run = sarif(run_result(), root=project)["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.as_uri() + "/"}}
    physical = run["results"][1]["locations"][0]["physicalLocation"]
    location = physical["artifactLocation"]
    assert location["uri"] == "src%20dir/k%C3%A9rnel%20a.cpp"
    assert unquote(location["uri"]) == A_PATH
    assert location["uriBaseId"] == "%SRCROOT%"
    assert physical["region"] == {"startLine": 4, "startColumn": 5, "endLine": 4, "endColumn": 33}
    artifacts = run["artifacts"]
    assert [a["location"]["uri"] for a in artifacts] == ["src%20dir/k%C3%A9rnel%20a.cpp", "src/b.cpp", "src/gone.cpp"]
    assert artifacts[1]["properties"] == {"language": "sycl", "status": "partial", "coverage": B_COVERAGE.to_json()}
    assert artifacts[2]["properties"]["coverage"] is None
    assert run["properties"]["coverage"] == run_result().coverage()
    assert run["properties"]["coverage"]["unresolved_launches"] == 1
    for res in run["results"]:
        loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
        assert artifacts[loc["index"]]["location"]["uri"] == loc["uri"]
        assert not loc["uri"].startswith(("/", "file:"))


def test_sarif_uses_root_option_and_absolute_uri_outside_it(project: Path) -> None:
    run = sarif(run_result(), root=project / "src")["runs"][0]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert uris[2] == {"uri": "b.cpp", "uriBaseId": "%SRCROOT%", "index": 1}
    # File A lies outside src/: an absolute file URI, no base id.
    assert uris[0]["uri"] == (project / A_PATH).as_uri()
    assert "uriBaseId" not in uris[0]


def test_sarif_related_fixes_and_notifications(project: Path) -> None:
    run = sarif(run_result())["runs"][0]
    buffer = run["results"][1]
    assert buffer["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "src%20dir/k%C3%A9rnel%20a.cpp", "uriBaseId": "%SRCROOT%", "index": 0},
                "region": {"startLine": 3, "startColumn": 3, "endLine": 3, "endColumn": 32},
            },
            "message": {"text": "enclosing loop"},
        }
    ]
    (fix,) = buffer["fixes"]
    assert fix["description"] == {"text": "hoist the buffer out of the loop"}
    assert fix["properties"] == {"safe": False}
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src%20dir/k%C3%A9rnel%20a.cpp"
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 4, "startColumn": 5, "endLine": 4, "endColumn": 33},
            "insertedContent": {"text": ""},
        },
        {
            "deletedRegion": {"startLine": 2, "startColumn": 42, "endLine": 2, "endColumn": 42},
            "insertedContent": {"text": "\n  sycl::buffer b;"},
        },
    ]
    assert "fixes" not in run["results"][0] and "relatedLocations" not in run["results"][0]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is True
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert note["message"]["text"] == "src/gone.cpp: cannot read file: No such file or directory"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/gone.cpp"


def fingerprints(log: dict[str, Any]) -> list[str]:
    return [r["partialFingerprints"]["kernlintFingerprint/v1"] for r in log["runs"][0]["results"]]


def test_sarif_fingerprints_survive_line_shifts(project: Path) -> None:
    before = fingerprints(sarif(run_result()))
    assert len(set(before)) == len(before)
    (project / A_PATH).write_text("// one\n// two\n// three\n" + A_SOURCE, encoding="utf-8")
    after = fingerprints(sarif(run_result(diagnostics(shift=3))))
    assert after == before


def test_sarif_fingerprints_follow_the_flagged_text(project: Path) -> None:
    before = fingerprints(sarif(run_result()))
    (project / A_PATH).write_text(A_SOURCE.replace("b(p, n)", "buf(p, n)"), encoding="utf-8")
    after = fingerprints(sarif(run_result()))
    assert after[1] != before[1]  # the buffer line changed
    assert after[0] == before[0] and after[2:] == before[2:]


def test_sarif_fingerprint_of_unreadable_file_uses_message(project: Path) -> None:
    base = run_result()
    changed = list(base.diagnostics)
    changed[3] = dataclasses.replace(changed[3], message="cannot read file: permission denied")
    assert fingerprints(sarif(base))[3] != fingerprints(sarif(run_result(tuple(changed))))[3]


def test_sarif_identical_lines_get_distinct_fingerprints(project: Path) -> None:
    (project / B_PATH).write_text("if (id) {}\nif (id) {}\n", encoding="utf-8")
    twin = [
        Diagnostic(B_PATH, n, 1, n, 11, "KL501", "divergent-branch", Severity.INFO, "branch on the id") for n in (1, 2)
    ]
    prints = fingerprints(sarif(run_result(tuple(twin))))
    assert prints[0].split(":")[0] == prints[1].split(":")[0]
    assert prints[0] != prints[1]


# ------------------------------------------------------------------------------------------- github


def test_github_workflow_commands_exact(project: Path) -> None:
    lines = rendered("github", run_result()).splitlines()
    assert lines == [
        "::warning file=src dir/kérnel a.cpp,line=2,col=6,endLine=2,endColumn=7,title=KL202::"
        "work-group of 512 leaves the xe-core idle (xe-lp)",
        "::warning file=src dir/kérnel a.cpp,line=4,col=5,endLine=4,endColumn=33,title=KL101::"
        "buffer built 100%25 of iterations, costly: hoist it%0Asecond line",
        "::notice file=src/b.cpp,line=2,col=1,endLine=2,endColumn=15,title=KL501::branch on the work-item id (h100)",
        "::error file=src/gone.cpp,line=1,col=1,endLine=1,endColumn=1,title=KL000::"
        "cannot read file: No such file or directory",
    ]


def test_github_escapes_properties(project: Path) -> None:
    odd = Diagnostic("a,b:c%d.cpp", 1, 1, 1, 2, "KL501", "divergent-branch", Severity.INFO, "m\r\nx")
    (line,) = rendered("github", run_result((odd,))).splitlines()
    assert line == "::notice file=a%2Cb%3Ac%25d.cpp,line=1,col=1,endLine=1,endColumn=2,title=KL501::m%0D%0Ax"


# --------------------------------------------------------------------------------------------- text


def test_text_location_frame_notes_and_fix(project: Path) -> None:
    out = rendered("text", run_result(), color=False)
    lines = out.splitlines()
    assert lines[0] == f"{A_PATH}:2:6: KL202 [warning] work-group of 512 leaves the xe-core idle (xe-lp)"
    assert lines[1:5] == [
        " 1 | #include <sycl/sycl.hpp>",
        " 2 | void f(sycl::queue &q, float *p, int n) {",
        "   |      ^",
        " 3 |   for (int i = 0; i < n; ++i) {",
    ]
    assert lines[5] == "  occupancy: 57.1% (limit: threads, 2 work-groups per Xe-core)"
    start = lines.index(f"{A_PATH}:4:5: KL101 [warning] buffer built 100% of iterations, costly: hoist it")
    assert lines[start + 1 : start + 8] == [
        "  second line",  # the rest of a message sits under its headline
        " 3 |   for (int i = 0; i < n; ++i) {",
        " 4 |     sycl::buffer<float> b(p, n);",
        "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        " 5 |   }",
        f"  note: {A_PATH}:3:3: enclosing loop",
        "  fix: hoist the buffer out of the loop (unsafe)",
    ]
    # every finding ends with its rule's documentation, a section of the generated docs/rules.md
    assert lines[start + 8] == f"  docs: {RULES_URL}#kl101-buffer-in-loop"
    branch = lines.index("src/b.cpp:2:1: KL501 [info] branch on the work-item id (h100)")
    assert lines[branch + 1 : branch + 6] == [  # last line of the file: no phantom line after it
        " 1 | int id = it.get_local_id(0);",
        " 2 | if (id < 3) {}",
        "   | ^^^^^^^^^^^^^^",
        f"  docs: {RULES_URL}#kl501-divergent-branch",
        "src/gone.cpp:1:1: KL000 [error] cannot read file: No such file or directory",
    ]
    # The unreadable file still gets its location line, with no frame; its safe fix has no marker.
    gone = lines.index("src/gone.cpp:1:1: KL000 [error] cannot read file: No such file or directory")
    assert lines[gone + 1] == "  fix: nothing to do"
    assert out.count("occupancy:") == 1  # only evidence with occupancy figures is highlighted


def test_text_summary_error_and_partial_files(project: Path) -> None:
    lines = rendered("text", run_result(), color=False).splitlines()
    assert lines[-7:] == [
        "error: src/gone.cpp: cannot read file: No such file or directory",
        "1 file parsed with syntax errors; results there may be incomplete: src/b.cpp",
        "Analysed 3 kernels in 2 files.",
        "1 launch in 1 file runs a kernel kernlint did not see, so nothing in it was checked:",
        "  src/b.cpp:7:3: `k` is a parameter of `submit`, which no call in this file passes a kernel to",
        "Found 4 diagnostics (1 error, 2 warnings, 1 info) in 3 of 3 files.",
        "[*] 1 fixable with `--fix` (1 more with `--fix --unsafe-fixes`)",
    ]
    shown = rendered("text", run_result(), color=False, show_partial=True).splitlines()
    assert shown[-8:-5] == [
        "error: src/gone.cpp: cannot read file: No such file or directory",
        "partial: src/b.cpp: syntax errors",
        "1 file parsed with syntax errors; results there may be incomplete",
    ]


def test_text_summary_counts_files_with_findings_and_names_a_few_partial_ones(project: Path) -> None:
    """On a real tree most files have no findings and hundreds may parse with errors: the summary says
    how many files had findings out of how many were checked, and names the first partial files."""
    files = tuple(
        FileResult(
            f"src/f{n}.cpp",
            "sycl",
            FileStatus.PARTIAL if n % 2 else FileStatus.OK,
            "syntax errors near line(s) 3" if n % 2 else None,
            (),
        )
        for n in range(10)
    )
    diag = Diagnostic("src/f1.cpp", 1, 1, 1, 2, "KL501", "divergent-branch", Severity.INFO, "m")
    result = RunResult(files, (diag, dataclasses.replace(diag, line=2)), (), RULES, 0.0, "0.1.0")
    lines = rendered("text", result, color=False).splitlines()
    assert lines[-2:] == [
        "5 files parsed with syntax errors; results there may be incomplete: src/f1.cpp, src/f3.cpp, src/f5.cpp "
        "and 2 more (--show-partial-parses lists them)",
        "Found 2 diagnostics (0 errors, 0 warnings, 2 infos) in 1 of 10 files.",
    ]
    shown = rendered("text", result, color=False, show_partial=True).splitlines()
    assert [line for line in shown if line.startswith("partial: ")] == [
        f"partial: src/f{n}.cpp: syntax errors near line(s) 3" for n in (1, 3, 5, 7, 9)
    ]


def test_text_all_checks_passed(project: Path) -> None:
    result = RunResult((FileResult(B_PATH, "sycl", FileStatus.OK, None, ()),), (), ("xe-hpc",), RULES, 0.0, "0.1.0")
    assert rendered("text", result, color=False) == "All checks passed (1 file).\n"


def test_text_statistics_table(project: Path) -> None:
    diags = diagnostics()
    extra = Diagnostic(B_PATH, 1, 1, 1, 4, "KL501", "divergent-branch", Severity.INFO, "again", device="h100")
    out = rendered("text", run_result(diags[:3] + (extra,) + diags[3:]), color=False, statistics=True)
    rows = [line.split() for line in out.splitlines()]
    header = rows.index(["code", "name", "count"])
    assert header == 0 and len(rows) == 6  # only the table: no listing before it, no summary after it
    assert rows[header + 2 : header + 6] == [
        ["KL501", "divergent-branch", "2"],
        ["KL000", "parse-error", "1"],
        ["KL101", "buffer-in-loop", "1"],
        ["KL202", "low-occupancy", "1"],
    ]
    assert "code" not in rendered("text", run_result(), color=False)  # no table unless asked


def test_text_quiet_prints_only_location_lines(project: Path) -> None:
    out = rendered("text", run_result(), color=False, quiet=True)
    assert out.splitlines() == [
        f"{A_PATH}:2:6: KL202 [warning] work-group of 512 leaves the xe-core idle (xe-lp)",
        f"{A_PATH}:4:5: KL101 [warning] buffer built 100% of iterations, costly: hoist it",
        "  second line",
        "src/b.cpp:2:1: KL501 [info] branch on the work-item id (h100)",
        "src/gone.cpp:1:1: KL000 [error] cannot read file: No such file or directory",
    ]


def test_concise_is_one_line_per_finding_then_the_summary(project: Path) -> None:
    out = rendered("concise", run_result(), color=False)
    assert out.splitlines() == [
        f"{A_PATH}:2:6: KL202 [warning] work-group of 512 leaves the xe-core idle (xe-lp)",
        f"{A_PATH}:4:5: KL101 [warning] buffer built 100% of iterations, costly: hoist it",
        "src/b.cpp:2:1: KL501 [info] branch on the work-item id (h100)",
        "src/gone.cpp:1:1: KL000 [error] cannot read file: No such file or directory",
        "",
        "error: src/gone.cpp: cannot read file: No such file or directory",
        "1 file parsed with syntax errors; results there may be incomplete: src/b.cpp",
        "Analysed 3 kernels in 2 files.",
        "1 launch in 1 file runs a kernel kernlint did not see, so nothing in it was checked:",
        "  src/b.cpp:7:3: `k` is a parameter of `submit`, which no call in this file passes a kernel to",
        "Found 4 diagnostics (1 error, 2 warnings, 1 info) in 3 of 3 files.",
        "[*] 1 fixable with `--fix` (1 more with `--fix --unsafe-fixes`)",
    ]
    assert rendered("concise", run_result(), color=False, quiet=True).splitlines() == out.splitlines()[:4]


def test_text_colour_only_when_asked(project: Path) -> None:
    plain = rendered("text", run_result(), color=False, statistics=True)
    assert not ANSI.search(plain)
    coloured = rendered("text", run_result(), color=True, statistics=True)
    assert ANSI.search(coloured)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain  # colour changes nothing else
    # Default: a StringIO is no terminal, so no colour.
    assert not ANSI.search(rendered("text", run_result()))


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_text_default_colour_follows_terminal_and_no_color(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    tty = FakeTerminal()
    render("text", run_result(), tty)
    assert ANSI.search(tty.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    tty = FakeTerminal()
    render("text", run_result(), tty)
    assert not COLOUR.search(tty.getvalue())  # NO_COLOR leaves bold and dim, drops colours
    tty = FakeTerminal()
    render("text", run_result(), tty, color=True)  # an explicit request beats NO_COLOR
    assert ANSI.search(tty.getvalue())


def test_text_statistics_table_keeps_long_rows_whole(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    name = "-".join(["very-long-rule-name"] * 4)  # 79 characters: wraps at rich's default 80 columns
    diag = Diagnostic(B_PATH, 1, 1, 1, 2, "KL999", name, Severity.INFO, "m")
    out = rendered("text", run_result((diag,)), color=False, statistics=True, quiet=True)
    assert any(line.split() == ["KL999", name, "1"] for line in out.splitlines())


def test_text_long_lines_do_not_wrap(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    from kernlint.report.text import headline

    long = "word " * 59 + "end"
    diag = Diagnostic(B_PATH, 1, 1, 1, 2, "KL501", "divergent-branch", Severity.INFO, long)
    lines = rendered("text", run_result((diag,)), color=False).splitlines()
    head, rest = headline(long)
    assert lines[:2] == [f"src/b.cpp:1:1: KL501 [info] {head}", f"  {rest}"]  # neither line is wrapped
    unbroken = "x" * 300  # nowhere to cut: the whole message, on one line
    diag = dataclasses.replace(diag, message=unbroken)
    assert (
        rendered("text", run_result((diag,)), color=False).splitlines()[0] == f"src/b.cpp:1:1: KL501 [info] {unbroken}"
    )


def test_text_caret_under_tab_indented_code(project: Path) -> None:
    (project / B_PATH).write_text("\tif (id) {}\n", encoding="utf-8")
    diag = Diagnostic(B_PATH, 1, 2, 1, 4, "KL501", "divergent-branch", Severity.INFO, "branch")
    lines = rendered("text", run_result((diag,)), color=False, quiet=False).splitlines()
    assert lines[1:3] == [" 1 |     if (id) {}", "   |     ^^"]


# ------------------------------------------------------------------------------------------ dispatch


def test_formats_and_unknown_format(project: Path) -> None:
    assert FORMATS == ("text", "concise", "json", "json-lines", "junit", "sarif", "github")
    for fmt in FORMATS:
        assert rendered(fmt, run_result())
    with pytest.raises(ValueError, match="xml"):
        rendered("xml", run_result())


def test_occupancy_line_singular_and_invalid_launches() -> None:
    from kernlint.report.text import occupancy_line

    assert (
        occupancy_line(
            {
                "occupancy": {
                    "occupancy_pct": 57.14,
                    "limiter": "threads",
                    "work_groups_per_unit": 1,
                    "unit": "sm",
                    "valid": True,
                }
            }
        )
        == "occupancy: 57.1% (limit: threads, 1 work-group per SM)"
    )
    assert (
        occupancy_line(
            {
                "occupancy": {
                    "valid": False,
                    "error": "1024 work-items exceed 512",
                    "occupancy_pct": 0,
                    "limiter": "work-group-size",
                }
            }
        )
        == "occupancy: the launch cannot run (1024 work-items exceed 512)"
    )


# ------------------------------------------------------------------------------------- headlines


def test_a_long_first_line_is_cut_at_its_last_clause_break_within_120_characters() -> None:
    from kernlint.report.text import HEADLINE_MAX, headline

    message = "a work-group of 256 work-items must stay on one Xe-core: " + "x" * 30 + "; " + "detail " * 30
    head, rest = headline(message)
    assert len(head) <= HEADLINE_MAX and head.endswith("x" * 30)
    assert head + "; " + rest == message  # nothing is lost: the rest is the remainder, in order


def test_a_long_first_line_without_a_clause_break_is_cut_at_a_word() -> None:
    from kernlint.report.text import HEADLINE_MAX, headline

    message = " ".join(["word"] * 60) + "\nsecond line"
    head, rest = headline(message)
    assert len(head) <= HEADLINE_MAX and head.endswith(" …") and rest.startswith("… ")
    assert rest.endswith("\nsecond line")
    assert headline("short\nmore") == ("short", "more")


def test_concise_lines_keep_the_headline_only(project: Path) -> None:
    (kl101,) = [d for d in diagnostics() if d.code == "KL101"]
    long = run_result((dataclasses.replace(kl101, message="m" * 50 + ": " + "n" * 200),))
    first = rendered("concise", long, color=False).splitlines()[0]
    assert first.endswith("m" * 50) and "n" not in first.split("]", 1)[1]


def test_most_expensive_findings_leave_out_what_costs_nothing_at_run_time() -> None:
    """A spelling (KL104's cost of 0, score 0) is never among the costliest, however few findings rank."""
    from kernlint.cost import Cost, most_expensive

    free = Cost(0.0, "s", "at run time (a spelling)", "none", "no run-time cost", score=0.0, seconds=0.0)
    costly = Cost(40.0, "%", "of the GPU", "f", "b", score=0.4)
    base = diagnostics()[0]
    found = [dataclasses.replace(base, cost=free, code="KL104"), dataclasses.replace(base, cost=costly, code="KL206")]
    assert [d.code for d in most_expensive(found)] == ["KL206"]
