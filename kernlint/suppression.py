"""Inline suppression comments (docs/contract.md §3), language-neutral.

    // kernlint: ignore[KL101]            this line
    // kernlint: ignore-next-line[KL501]  the next line
    // kernlint: ignore-file[KL2]         the whole file (prefixes allowed)
Fortran uses `!`; C block comments work too. A bare `ignore` (no list) suppresses every code.
Each directive remembers whether it suppressed anything, for the unused-suppression rule (KL001).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernlint.diagnostics import Diagnostic

_DIRECTIVE = re.compile(
    r"(?://|/\*|!)\s*kernlint:\s*(?P<kind>ignore-file|ignore-next-line|ignore)\b\s*(?:\[(?P<codes>[^\]]*)\])?"
)
ALL = ("",)  # the empty prefix matches every code


@dataclass(frozen=True)
class Directive:
    """One suppression comment: where it is written, what it covers, and which codes it names."""

    line: int
    column: int  # 1-based character column of the comment
    end_column: int
    kind: str  # ignore | ignore-next-line | ignore-file
    codes: tuple[str, ...]  # prefixes; ALL for a bare directive

    @property
    def target_line(self) -> int | None:
        return None if self.kind == "ignore-file" else self.line + (self.kind == "ignore-next-line")

    def covers(self, diagnostic: Diagnostic) -> bool:
        if self.target_line not in (None, diagnostic.line):
            return False
        return any(diagnostic.code.startswith(prefix) for prefix in self.codes)


@dataclass
class Suppressions:
    """All directives of a file, and which of them suppressed something."""

    directives: list[Directive] = field(default_factory=list)
    used: set[int] = field(default_factory=set)

    def suppresses(self, diagnostic: Diagnostic, record: bool = True) -> bool:
        """Whether a directive hides `diagnostic`. With `record=False` (findings about the directives
        themselves) only directives that name the code count: a bare `ignore` that hides nothing must
        not hide the report that it is unused."""
        hit = False
        for index, directive in enumerate(self.directives):
            if not record and directive.codes == ALL:
                continue
            if directive.covers(diagnostic):
                hit = True
                if record:
                    self.used.add(index)
        return hit

    def unused(self) -> list[Directive]:
        return [d for i, d in enumerate(self.directives) if i not in self.used]


def parse_suppressions(text: str) -> Suppressions:
    """Find every suppression directive; cheap when there are none (one substring test)."""
    result = Suppressions()
    if "kernlint:" not in text:
        return result
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines(): a form feed ends no line
        if "kernlint:" not in line:
            continue
        for match in _DIRECTIVE.finditer(line):
            raw = match.group("codes")
            codes = tuple(c.strip() for c in raw.split(",") if c.strip()) if raw is not None else ALL
            result.directives.append(
                Directive(number, match.start() + 1, match.end() + 1, match.group("kind"), codes or ALL)
            )
    return result


def apply_suppressions(
    diagnostics: list[Diagnostic], suppressions: Suppressions, record: bool = True
) -> list[Diagnostic]:
    return [d for d in diagnostics if not suppressions.suppresses(d, record)]
