"""What a front-end saw of a file: its launches and kernels, the launches whose kernel it could not
find, and the lines it could not parse. Rules never read this; reports do, so that a clean report
over code kernlint did not see says so."""

from __future__ import annotations

from kernlint.facts.base import Span
from kernlint.records import record


@record(slots=True)
class UnseenKernel:
    """A launch whose kernel was not found, and why (the kernel is a parameter nobody passes, a
    class defined where kernlint cannot see, …)."""

    span: Span  # the launch
    reason: str


@record(slots=True)
class LostLines:
    """A region the parser could not read, and its likely cause when kernlint can tell (an unknown
    macro, `#if` arms that each hold half of a brace pair); None when it cannot."""

    span: Span
    cause: str | None = None


@record(slots=True)
class Coverage:
    """Counts of what was seen. `kernels` are distinct kernel bodies found in the file (launched
    here or not; OpenMP target regions count); `kernels_analysed` those whose device code the
    analyses read to the end."""

    launches: int = 0
    kernels: int = 0
    kernels_analysed: int = 0
    unseen: tuple[UnseenKernel, ...] = ()
    lost: tuple[LostLines, ...] = ()
