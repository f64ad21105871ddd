"""What a rule is and what it is given.

A rule is a class with metadata and a `check(facts, ctx)` generator. Its module docstring is its
documentation: `kernlint rule KL101` prints it and SARIF embeds it. Rules never see a parse tree.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kernlint.diagnostics import Diagnostic, Edit, Fix, FixAvailability, Related, RuleInfo, Severity

if TYPE_CHECKING:  # `kernlint rule` lists rules without loading the fact model or the device profiles
    from kernlint.cost import Cost
    from kernlint.facts import FileFacts, Span
    from kernlint.facts.kinds import Language
    from kernlint.occupancy import DeviceProfile
    from kernlint.source import SourceFile
    from kernlint.suppression import Suppressions

ALL_LANGUAGES: frozenset[Language] = frozenset({"sycl", "openmp-c", "cpp", "openmp-fortran"})


class Rule:
    """Base class of every rule, built-in or from a plugin.

    Subclasses set `code`, `name`, `severity`, optionally `languages`, `needs_device` (run once per
    target device with `ctx.device` set), `options` (defaults for `[tool.kernlint.rules.<CODE>]`) and
    `fix_availability` (whether its findings come with a fix, shown by `kernlint rule` and in SARIF; a
    rule that fixes says when its fix is safe in a "Fix safety" section of its documentation).
    """

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.WARNING
    languages: ClassVar[frozenset[Language]] = ALL_LANGUAGES
    needs_device: ClassVar[bool] = False
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NEVER
    enabled_by_default: ClassVar[bool] = True
    options: ClassVar[dict[str, Any]] = {}
    # Rules about the suppression comments themselves run after suppression, with `ctx.suppressions`.
    after_suppression: ClassVar[bool] = False

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterable[Diagnostic]:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def documentation(cls) -> str:
        """The rule's module docstring (its user documentation), falling back to the class docstring."""
        module = sys.modules.get(cls.__module__)
        doc = inspect.getdoc(module) if module is not None else None
        return doc or inspect.getdoc(cls) or ""

    @classmethod
    def summary(cls) -> str:
        documentation = cls.documentation().strip()  # (read once: every run describes every rule)
        return documentation.splitlines()[0] if documentation else cls.name

    @classmethod
    def info(cls) -> RuleInfo:
        return RuleInfo(
            cls.code, cls.name, cls.severity, cls.summary(), cls.documentation(), cls.needs_device, cls.fix_availability
        )


def catalog_entry(rule: type[Rule]) -> dict[str, Any]:
    """A rule's metadata as plain data (JSON): what `kernlint rule --output-format json` prints of it,
    less its URL, and what a plugin's `kernlint_rule_catalog` hook returns so that `kernlint rule`
    need not import the rule."""
    info = rule.info()
    return {
        "code": info.code,
        "name": info.name,
        "severity": info.severity.value,
        "per_device": info.needs_device,
        "fix": info.fix_availability.value,
        "languages": sorted(rule.languages),
        "enabled_by_default": rule.enabled_by_default,
        "options": dict(sorted(rule.options.items())),
        "summary": info.summary,
        "explanation": info.doc,
    }


def info_of_entry(entry: dict[str, Any]) -> RuleInfo:
    """The `RuleInfo` a catalog entry (`catalog_entry`) describes."""
    return RuleInfo(
        entry["code"],
        entry["name"],
        Severity(entry["severity"]),
        entry["summary"],
        entry["explanation"],
        entry["per_device"],
        FixAvailability(entry["fix"]),
    )


def rules_markdown(infos: Iterable[RuleInfo], link: Callable[[RuleInfo], str] | None = None) -> str:
    """The rules as a Markdown table, one row each: the README's rules table is this, generated from
    the rules' own metadata so it cannot drift from them (tests/test_readme.py checks it). `link`
    gives the address each code links to (its documentation)."""
    rows = ["| code | name | severity | per device | fix | what it flags |", "|---|---|---|---|---|---|"]
    for info in infos:
        summary = info.summary.replace("|", "\\|")
        code = f"[{info.code}]({link(info)})" if link is not None else info.code
        device = "yes" if info.needs_device else ""
        fix = "" if info.fix_availability is FixAvailability.NEVER else info.fix_availability.value
        rows.append(f"| {code} | {info.name} | {info.severity.value} | {device} | {fix} | {summary} |")
    return "\n".join(rows) + "\n"


@dataclass
class RuleContext:
    """What a rule may use besides the facts: the device, its options and a diagnostic factory."""

    rule: type[Rule]
    source: SourceFile
    language: Language
    device: DeviceProfile | None = None  # the device this run of a `needs_device` rule is for
    options: dict[str, Any] = field(default_factory=dict)
    suppressions: Suppressions | None = None  # the file's directives, for after_suppression rules
    rules_run: frozenset[str] = frozenset()  # codes of the rules that ran on this file
    # Every target device of the run, so a device-independent rule can still say what its finding
    # costs on each (a copy's time depends on the device's host link).
    devices: tuple[DeviceProfile, ...] = ()
    # Every code the run knows (its plugins' rules and KL000), so a suppression naming another is
    # reported as naming no rule; empty when the caller does not say (then nothing is called unknown).
    known_codes: frozenset[str] = frozenset()

    @property
    def target_device(self) -> DeviceProfile:
        """The device a `needs_device` rule runs for: the engine runs such a rule once per target
        device, so it is never None there."""
        if self.device is None:
            raise ValueError(f"{self.rule.code} needs a device, and none was given")
        return self.device

    def diagnostic(
        self,
        span: Span,
        message: str,
        *,
        evidence: dict[str, Any] | None = None,
        fix: Fix | None = None,
        kernel: str | None = None,
        severity: Severity | None = None,
        related: Iterable[tuple[Span, str]] = (),
        cost: Cost | None = None,
    ) -> Diagnostic:
        """A diagnostic at `span` with this rule's code, name, severity and the current device; a `cost`
        adds its short phrase to the message, in brackets, so every reader sees it."""
        line, column = self.position(span.line, span.column_byte)
        end_line, end_column = self.position(span.end_line, span.end_column_byte)
        return Diagnostic(
            path=self.source.path,
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
            code=self.rule.code,
            name=self.rule.name,
            severity=severity or self.rule.severity,
            message=f"{message} [{cost.phrase()}]" if cost is not None else message,
            device=self.device.id if self.device is not None and self.rule.needs_device else None,
            language=self.language,
            kernel=kernel,
            evidence=evidence or {},
            fix=fix,
            related=tuple(self._related(s, m) for s, m in related),
            cost=cost,
        )

    def position(self, line: int, column_byte: int) -> tuple[int, int]:
        return line, self.source.char_column(line, column_byte)

    def edit_bytes(self, line: int, start_byte: int, end_byte: int, text: str) -> Edit:
        """An edit replacing byte columns [start, end) of one line: fixes are computed on the
        parser's bytes and must be written in the characters users (and docs/contract.md §4) count."""
        _, column = self.position(line, start_byte)
        _, end_column = self.position(line, end_byte)
        return Edit(line, column, line, end_column, text)

    def replace(self, span: Span, text: str) -> Edit:
        """An edit replacing the whole of `span` by `text`."""
        line, column = self.position(span.line, span.column_byte)
        end_line, end_column = self.position(span.end_line, span.end_column_byte)
        return Edit(line, column, end_line, end_column, text)

    def insert_after(self, span: Span, text: str) -> Edit:
        """An edit inserting `text` right after `span`."""
        return self.edit_bytes(span.end_line, span.end_column_byte, span.end_column_byte, text)

    def _related(self, span: Span, message: str) -> Related:
        line, column = self.position(span.line, span.column_byte)
        end_line, end_column = self.position(span.end_line, span.end_column_byte)
        return Related(line, column, end_line, end_column, message)
