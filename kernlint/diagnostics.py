"""The diagnostic model shared by rules, the engine and every reporter.

Everything here is plain data with a JSON form that matches docs/contract.md §4, so a result can be cached,
sent across processes and rendered by any reporter without knowing which rule produced it.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, field
from typing import Any

from kernlint.cost import Cost
from kernlint.records import record


class Severity(str, enum.Enum):
    """How bad a finding is: `error` will fail or is undefined, `warning` costs time, `info` is worth knowing."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]


_SEVERITIES = {severity.value: severity for severity in Severity}  # `Severity(value)`, as a lookup


class FixAvailability(str, enum.Enum):
    """Whether a rule's findings come with a fix (as ruff's `FixAvailability`): `always`, `sometimes`
    (only where the edit can be placed and, for a safe fix, proven), or `never`."""

    ALWAYS = "always"
    SOMETIMES = "sometimes"
    NEVER = "never"

    def sentence(self) -> str:
        """ "Fix is sometimes available.", for `kernlint rule CODE`."""
        return "No fix is available." if self is FixAvailability.NEVER else f"Fix is {self.value} available."


@record
class Edit:
    """Replace the text between two 1-based (line, column) positions; columns count characters."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@record
class Fix:
    """A change a rule offers. `safe` fixes are applied by `--fix`; unsafe ones need `--unsafe-fixes`."""

    description: str
    edits: tuple[Edit, ...]
    safe: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "safe": self.safe, "edits": [asdict(e) for e in self.edits]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fix:
        return cls(data["description"], tuple(Edit(**e) for e in data["edits"]), data.get("safe", True))


@record
class Related:
    """A second location that explains a finding (e.g. the loop a buffer sits in)."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str


@record
class Diagnostic:
    """One finding at one source span, with the facts behind it in `evidence`."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    severity: Severity
    message: str
    device: str | None = None
    language: str | None = None
    kernel: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    fix: Fix | None = None
    related: tuple[Related, ...] = ()
    cost: Cost | None = None  # what the finding costs, from the device model

    @classmethod
    def parse_error(
        cls,
        path: str,
        message: str,
        severity: Severity = Severity.ERROR,
        line: int = 1,
        column: int = 1,
        internal: bool = False,
    ) -> Diagnostic:
        """A KL000 finding: the file could not be read or analysed (or an internal error hit it)."""
        return cls(
            path=path,
            line=line,
            column=column,
            end_line=line,
            end_column=column,
            code="KL000",
            name="parse-error",
            severity=severity,
            message=message,
            evidence={"internal": True} if internal else {},
        )

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.device or "")

    def to_json(self) -> dict[str, Any]:
        """The docs/contract.md §4 object."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "device": self.device,
            "language": self.language,
            "kernel": self.kernel,
            "evidence": self.evidence,
            "fix": self.fix.to_json() if self.fix else None,
            "related": [asdict(r) for r in self.related],
            "cost": self.cost.to_json() if self.cost else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Diagnostic:
        """The diagnostic `to_json` wrote (a warm run makes thousands: no enum call, no empty generator)."""
        fix, related, cost = data.get("fix"), data.get("related"), data.get("cost")
        return cls(
            path=data["path"],
            line=data["line"],
            column=data["column"],
            end_line=data["end_line"],
            end_column=data["end_column"],
            code=data["code"],
            name=data["name"],
            severity=_SEVERITIES[data["severity"]],
            message=data["message"],
            device=data.get("device"),
            language=data.get("language"),
            kernel=data.get("kernel"),
            evidence=data.get("evidence") or {},
            fix=Fix.from_json(fix) if fix else None,
            related=tuple(Related(**r) for r in related) if related else (),
            cost=Cost.from_json(cost) if cost else None,
        )


class FileStatus(str, enum.Enum):
    """`ok`: analysed; `partial`: parsed with syntax errors, analysed where the tree allowed;
    `error`: could not be read or analysed (a KL000 diagnostic says why)."""

    OK = "ok"
    PARTIAL = "partial"
    ERROR = "error"


@record
class UnresolvedLaunch:
    """A launch whose kernel kernlint did not see, where it is and why (1-based, columns in characters)."""

    line: int
    column: int
    reason: str


@record
class FileCoverage:
    """What kernlint saw of a file's kernels: launches (SYCL launch calls, OpenMP `target` constructs),
    distinct kernels found (launched here or not), those whose device code was analysed, the launches
    whose kernel was not seen, and the line ranges the parser could not read."""

    launches: int = 0
    kernels: int = 0
    kernels_analysed: int = 0
    unresolved_launches: tuple[UnresolvedLaunch, ...] = ()
    lost_lines: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "launches": self.launches,
            "kernels": self.kernels,
            "kernels_analysed": self.kernels_analysed,
            "unresolved_launches": [asdict(u) for u in self.unresolved_launches],
            "lost_lines": [list(lines) for lines in self.lost_lines],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> FileCoverage | None:
        if data is None:
            return None
        unresolved, lost = data["unresolved_launches"], data["lost_lines"]
        return cls(
            data["launches"],
            data["kernels"],
            data["kernels_analysed"],
            tuple(UnresolvedLaunch(**u) for u in unresolved) if unresolved else (),
            tuple((first, last) for first, last in lost) if lost else (),
        )


@record
class FileResult:
    """Everything the engine learned about one file."""

    path: str
    language: str | None
    status: FileStatus
    error: str | None
    diagnostics: tuple[Diagnostic, ...]
    # Files whose contents the result depends on (quoted includes), for cache validation.
    dependencies: tuple[str, ...] = ()
    # sha256 of the bytes analysed, so `--fix` never edits a file that changed since.
    content_digest: str | None = None
    # What was seen of its kernels; None for a file not analysed.
    coverage: FileCoverage | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "language": self.language,
            "status": self.status.value,
            "error": self.error,
            "coverage": self.coverage.to_json() if self.coverage is not None else None,
        }


@record
class RuleInfo:
    """What reporters need to describe a rule (SARIF `tool.driver.rules`, `kernlint rule`, the
    README's rules table)."""

    code: str
    name: str
    severity: Severity
    summary: str
    doc: str
    needs_device: bool = False  # runs once per target device
    fix_availability: FixAvailability = FixAvailability.NEVER


PARSE_ERROR_RULE = RuleInfo(
    "KL000",
    "parse-error",
    Severity.ERROR,
    "A file could not be read or analysed (reported, never fatal).",
    "A file could not be read or analysed (reported, never fatal).\n\nkernlint reports unreadable, binary, "
    "oversized and undecodable files, and internal errors, as KL000 for that file and goes on with the rest. "
    "Where an analysis stops at one of its bounds (an expression nested deeper than the work-item dependence "
    "analysis reads, calls deeper than it follows from a kernel), a KL000 info at that place names the bound and "
    "the findings that may be missing there: nothing is left out without a word.",
)


@record
class RunResult:
    """A whole run: the files, the (suppressed and filtered) diagnostics, and the rules that ran."""

    files: tuple[FileResult, ...]
    diagnostics: tuple[Diagnostic, ...]
    devices: tuple[str, ...]
    rules: tuple[RuleInfo, ...]
    elapsed_s: float
    tool_version: str

    def coverage(self) -> dict[str, int]:
        """The run's coverage totals: launches, kernels found and analysed, unresolved launches, and
        the files that hold kernels, that launch kernels not seen, and that parsed partially."""
        seen = [f.coverage for f in self.files if f.coverage is not None]
        return {
            "launches": sum(c.launches for c in seen),
            "kernels": sum(c.kernels for c in seen),
            "kernels_analysed": sum(c.kernels_analysed for c in seen),
            "unresolved_launches": sum(len(c.unresolved_launches) for c in seen),
            "files_with_kernels": sum(1 for c in seen if c.kernels_analysed),
            "files_with_unresolved_launches": sum(1 for c in seen if c.unresolved_launches),
            "partially_parsed_files": sum(1 for f in self.files if f.status is FileStatus.PARTIAL),
        }

    def by_code(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for d in self.diagnostics:
            counts[d.code] = counts.get(d.code, 0) + 1
        return dict(sorted(counts.items()))
