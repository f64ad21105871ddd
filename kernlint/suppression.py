"""Inline suppression comments (SPEC.md §3), language-neutral.

    // kernlint: ignore[KL101]            this line
    // kernlint: ignore-next-line[KL501]  the next line
    // kernlint: ignore-file[KL2]         the whole file (prefixes allowed)
Fortran uses `!`; C block comments work too. A bare `ignore` (no list) suppresses every code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernlint.diagnostics import Diagnostic

_DIRECTIVE = re.compile(
    r"(?://|/\*|!)\s*kernlint:\s*(?P<kind>ignore-file|ignore-next-line|ignore)\b\s*(?:\[(?P<codes>[^\]]*)\])?")
ALL = ("",)  # the empty prefix matches every code


@dataclass
class Suppressions:
    """Which codes are suppressed on which lines, plus file-wide."""

    by_line: dict[int, list[tuple[str, ...]]] = field(default_factory=dict)
    file_wide: list[tuple[str, ...]] = field(default_factory=list)
    # (line, codes) of every directive, for an unused-suppression rule.
    directives: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)

    def suppresses(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.code == "KL000":
            return False  # parse/read errors are never hidden by the file they concern
        for codes in self.file_wide + self.by_line.get(diagnostic.line, []):
            if any(diagnostic.code.startswith(prefix) for prefix in codes):
                return True
        return False


def parse_suppressions(text: str) -> Suppressions:
    """Find every suppression directive; cheap when there are none (one substring test)."""
    result = Suppressions()
    if "kernlint:" not in text:
        return result
    for number, line in enumerate(text.splitlines(), start=1):
        if "kernlint:" not in line:
            continue
        for match in _DIRECTIVE.finditer(line):
            raw = match.group("codes")
            codes = tuple(c.strip() for c in raw.split(",") if c.strip()) if raw is not None else ALL
            codes = codes or ALL
            kind = match.group("kind")
            result.directives.append((number, kind, codes))
            if kind == "ignore-file":
                result.file_wide.append(codes)
            else:
                target = number + 1 if kind == "ignore-next-line" else number
                result.by_line.setdefault(target, []).append(codes)
    return result


def apply_suppressions(diagnostics: list[Diagnostic], suppressions: Suppressions) -> list[Diagnostic]:
    return [d for d in diagnostics if not suppressions.suppresses(d)]
