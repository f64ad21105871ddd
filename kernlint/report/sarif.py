"""`--format sarif`: SARIF 2.1.0, the format code-scanning services (e.g. GitHub) ingest.

Locations are relative to `%SRCROOT%` so a log made in CI matches the repository, and every result
carries a fingerprint built from the flagged source text rather than the line number, so an alert
survives unrelated edits above it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from kernlint.diagnostics import Diagnostic, Edit, FileResult, FileStatus, RuleInfo, RunResult, Severity
from kernlint.report._paths import display_path, relative_to_root, root_dir
from kernlint.report._source import SourceLines
from kernlint.report.fingerprint import fingerprint
from kernlint.rule_docs import rule_url

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/kernlint/"
ROOT_BASE_ID = "%SRCROOT%"
FINGERPRINT_KEY = "kernlintFingerprint/v1"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def level(severity: Severity) -> str:
    """The SARIF level for a kernlint severity (SARIF has no `info`; `note` is its equivalent)."""
    return _LEVEL[severity]


class _Locator:
    """Turns reported paths into artifact locations, numbering each artifact once."""

    def __init__(self, root: str, files: tuple[FileResult, ...]) -> None:
        self.root = root
        self.index: dict[str, int] = {}
        self.artifacts: list[dict[str, Any]] = []
        # Files first, so artifact indices follow the run's file order.
        for file in files:
            self.artifact_location(file.path)
            self.artifacts[-1]["properties"] = {
                "language": file.language,
                "status": file.status.value,
                "coverage": file.coverage.to_json() if file.coverage is not None else None,
            }

    def artifact_location(self, path: str) -> dict[str, Any]:
        """A percent-encoded URI relative to `%SRCROOT%`, or an absolute file URI outside it."""
        rel = relative_to_root(path, self.root)
        if rel is not None:
            location: dict[str, Any] = {"uri": quote(rel, safe="/"), "uriBaseId": ROOT_BASE_ID}
        else:
            location = {"uri": Path(path).absolute().as_uri()}
        if path not in self.index:
            self.index[path] = len(self.artifacts)
            self.artifacts.append({"location": location})
        return {**location, "index": self.index[path]}


def _region(line: int, column: int, end_line: int, end_column: int) -> dict[str, int]:
    """A SARIF region; kernlint's end column is the position after the span, as in SARIF."""
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _rule_descriptor(rule: RuleInfo) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.doc, "markdown": rule.doc},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "helpUri": rule_url(rule),
        "defaultConfiguration": {"level": level(rule.severity)},
        # Whether the rule's findings come with a fix: `always`, `sometimes` or `never`.
        "properties": {"fixAvailability": rule.fix_availability.value},
    }


def _rules(result: RunResult) -> list[RuleInfo]:
    """The rules that ran, plus any code a diagnostic carries without a registered rule (e.g. KL000),
    so every result can point at a descriptor by index."""
    rules = list(result.rules)
    known = {r.code for r in rules}
    extra: dict[str, RuleInfo] = {}
    for d in result.diagnostics:
        if d.code not in known and d.code not in extra:
            extra[d.code] = RuleInfo(d.code, d.name, d.severity, d.name, d.name)
    return rules + [extra[code] for code in sorted(extra)]


def _related(diagnostic: Diagnostic, locator: _Locator) -> list[dict[str, Any]]:
    return [
        {
            "id": number,
            "physicalLocation": {
                "artifactLocation": locator.artifact_location(diagnostic.path),
                "region": _region(r.line, r.column, r.end_line, r.end_column),
            },
            "message": {"text": r.message},
        }
        for number, r in enumerate(diagnostic.related, start=1)
    ]


def _replacement(edit: Edit) -> dict[str, Any]:
    return {
        "deletedRegion": _region(edit.line, edit.column, edit.end_line, edit.end_column),
        "insertedContent": {"text": edit.text},
    }


def _result(diagnostic: Diagnostic, rule_index: int, locator: _Locator, fingerprint: str) -> dict[str, Any]:
    location = locator.artifact_location(diagnostic.path)
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": {"text": diagnostic.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": _region(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column),
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "properties": {
            "name": diagnostic.name,
            "device": diagnostic.device,
            "language": diagnostic.language,
            "kernel": diagnostic.kernel,
            "evidence": diagnostic.evidence,
            **({"cost": diagnostic.cost.to_json()} if diagnostic.cost else {}),
        },
    }
    if diagnostic.related:
        result["relatedLocations"] = _related(diagnostic, locator)
    if diagnostic.fix is not None:
        result["fixes"] = [
            {
                "description": {"text": diagnostic.fix.description},
                "artifactChanges": [
                    {
                        "artifactLocation": location,
                        "replacements": [_replacement(e) for e in diagnostic.fix.edits],
                    }
                ],
                "properties": {"safe": diagnostic.fix.safe},
            }
        ]
    return result


def to_sarif(
    result: RunResult, *, root: Path | None = None, sources: Mapping[str, bytes] | None = None
) -> dict[str, Any]:
    """The whole SARIF log for one run (`sources`: the bytes of sources read from stdin)."""
    base = root_dir(root)
    locator = _Locator(base, result.files)
    lines = SourceLines(sources)
    rules = _rules(result)
    rule_index = {rule.code: n for n, rule in enumerate(rules)}
    notifications = [
        {
            "level": "error",
            "message": {"text": f"{file.path}: {file.error or 'could not be analysed'}"},
            "locations": [{"physicalLocation": {"artifactLocation": locator.artifact_location(file.path)}}],
        }
        for file in result.files
        if file.status is FileStatus.ERROR
    ]

    results = []
    seen: dict[str, int] = {}
    for d in result.diagnostics:
        digest = fingerprint(d, display_path(d.path, base), lines)
        # Identical flagged text twice in one file: number the occurrences so fingerprints stay unique.
        seen[digest] = seen.get(digest, 0) + 1
        results.append(_result(d, rule_index[d.code], locator, f"{digest}:{seen[digest]}"))

    root_uri = Path(base).as_uri()
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "kernlint",
                "version": result.tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [_rule_descriptor(rule) for rule in rules],
            }
        },
        "originalUriBaseIds": {ROOT_BASE_ID: {"uri": root_uri if root_uri.endswith("/") else root_uri + "/"}},
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
        "artifacts": locator.artifacts,
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {"devices": list(result.devices), "coverage": result.coverage()},
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(
    result: RunResult, stream: TextIO, *, root: Path | None = None, sources: Mapping[str, bytes] | None = None
) -> None:
    """Write the SARIF log as indented, ASCII-escaped JSON."""
    json.dump(to_sarif(result, root=root, sources=sources), stream, indent=2)
    stream.write("\n")
