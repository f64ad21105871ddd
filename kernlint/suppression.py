"""Inline suppression comments (docs/contract.md §3), language-neutral.

    // kernlint: ignore[KL101]            this line
    // kernlint: ignore-next-line[KL501]  the next line
    // kernlint: ignore-file[KL2]         the whole file (prefixes allowed)
Fortran uses `!`; C block comments work too. A bare `ignore` (no list) suppresses every code.
Each directive remembers which of its codes suppressed anything, for the unused-suppression rule
(KL001), and a comment that looks meant as a directive but is not one (`kernlint ignore[…]` without
the colon, `kernlint: ignroe`, `kernlint: ignore-nextline`) is kept as a `NearMiss`: it suppresses
nothing, and KL001 says what was probably meant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernlint.diagnostics import Diagnostic
from kernlint.records import record

_DIRECTIVE = re.compile(
    r"(?://|/\*|!)\s*kernlint:\s*(?P<kind>ignore-file|ignore-next-line|ignore)(?![\w-])\s*(?:\[(?P<codes>[^\]]*)\])?"
)
# Anything written like a directive: `kernlint`, an optional colon, a word, an optional code list.
_LOOKALIKE = re.compile(r"(?://|/\*|!)\s*kernlint\b(?P<colon>\s*:)?\s*(?P<word>[A-Za-z][\w-]*)?\s*(?:\[[^\]]*\])?")
KINDS = ("ignore", "ignore-next-line", "ignore-file")
ALL = ("",)  # the empty prefix matches every code


@record
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


@record
class NearMiss:
    """A comment written like a directive that is not one (it suppresses nothing): `meant` is the
    directive it was probably meant to be, as it should be written."""

    line: int
    column: int
    end_column: int
    written: str
    meant: str


@dataclass
class Suppressions:
    """All directives of a file, which of their codes suppressed something, and the near misses."""

    directives: list[Directive] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    used_codes: dict[int, set[str]] = field(default_factory=dict)  # per directive, the codes that hid a finding
    near_misses: list[NearMiss] = field(default_factory=list)

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
                    codes = self.used_codes.setdefault(index, set())
                    codes.update(p for p in directive.codes if diagnostic.code.startswith(p))
        return hit

    def unused(self) -> list[Directive]:
        return [d for i, d in enumerate(self.directives) if i not in self.used]


def parse_suppressions(text: str) -> Suppressions:
    """Find every suppression directive and near miss; cheap when there are none (one substring test)."""
    result = Suppressions()
    if "kernlint" not in text:
        return result
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines(): a form feed ends no line
        if "kernlint" not in line:
            continue
        taken: set[int] = set()
        for match in _DIRECTIVE.finditer(line):
            raw = match.group("codes")
            codes = tuple(c.strip() for c in raw.split(",") if c.strip()) if raw is not None else ALL
            result.directives.append(
                Directive(number, match.start() + 1, match.end() + 1, match.group("kind"), codes or ALL)
            )
            taken.add(match.start())
        for match in _LOOKALIKE.finditer(line):
            if match.start() not in taken:
                miss = _near_miss(number, match)
                if miss is not None:
                    result.near_misses.append(miss)
    return result


def _near_miss(line: int, match: re.Match[str]) -> NearMiss | None:
    """The directive a look-alike comment was probably meant to be, or None for prose that merely
    names kernlint (`// kernlint reports this`): the word must be a directive, or close to one."""
    word = match.group("word") or ""
    import difflib  # here: only a misspelt kind needs it

    meant = word if word in KINDS else next(iter(difflib.get_close_matches(word, KINDS, n=1, cutoff=0.75)), None)
    if meant is None:
        return None
    written = match.group(0).lstrip("/*! \t").rstrip()
    codes = written[written.index("[") :] if "[" in written else ""
    return NearMiss(line, match.start() + 1, match.end() + 1, written, f"kernlint: {meant}{codes}")


def apply_suppressions(
    diagnostics: list[Diagnostic], suppressions: Suppressions, record: bool = True
) -> list[Diagnostic]:
    return [d for d in diagnostics if not suppressions.suppresses(d, record)]
