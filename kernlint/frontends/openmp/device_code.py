"""How a front-end describes the device code of an OpenMP region to the dependence analysis
(`openmp.dependence`), whatever its language: assignments and conditionals in source order, with the
conditionals that guard them (`RawAssign`, `RawBranch`), the calls of the file's functions
(`RawCall`) and those functions' code (`RawFunction`), all answered by a `DeviceSource`; and what the
analysis gives back (`RegionBranches`: the branches, and the limits it met)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from kernlint.facts import LimitReached, Span
from kernlint.facts.device import ArmCost, Branch
from kernlint.facts.kinds import BranchKind
from kernlint.frontends.openmp import expr as ex
from kernlint.frontends.openmp.lanes import Scaling
from kernlint.records import record


@record
class RawAssign:
    """`name = value` (`compound`: `name op= value`, `name++`; value None when it adds no new source).
    `scaling`: it halves or doubles the name (`s >>= 1`, `s /= 2`, `s = s / 2`, `d *= 2`), a tree's step."""

    name: str
    value: str | None
    span: Span
    guards: tuple[Span, ...] = ()
    compound: bool = False
    scaling: Scaling | None = None


@record
class BranchShape:
    """The language-specific half of a `Branch` (see facts.device.Branch for each field)."""

    arms: tuple[ArmCost, ...] = ()  # what each guarded path costs
    steers_loop: bool = False
    rewritable: bool = False
    comparison: tuple[str, str, str] | None = None
    combines: bool = False  # a reduction or scan step (`s[i] += s[i + d]`)


@record
class RawBranch:
    """A conditional: `span` the statement, `condition` its test (text as written), `regions` the
    code it guards, `guards` the conditionals around it (their spans), `varying` names that change
    from one iteration of the loops around it to the next (for a loop, its own included)."""

    span: Span
    condition: Span
    text: str
    kind: BranchKind
    regions: tuple[Span, ...] = ()
    guards: tuple[Span, ...] = ()
    varying: tuple[str, ...] = ()
    head: Span | None = None
    select_like: bool = False
    # what the construct's arms cost and how it may be rewritten: asked only of the divergent ones
    shape: Callable[[], BranchShape] = BranchShape


class DeviceSource(Protocol):
    fortran: bool

    def device_code(self, region: Span) -> list[RawAssign | RawBranch]:
        """The assignments and conditionals inside `region`, in source order."""

    def declared_in(self, region: Span) -> frozenset[str] | None:
        """Names declared inside `region` (each thread's own), None when the front-end cannot tell."""

    def is_array(self, name: str, at_byte: int) -> bool:
        """Whether `name` is declared as an array (Fortran `a(i)` is then a load, not a call)."""

    def scope(self, at_byte: int) -> ex.Scope:
        """Constants and substitutable local definitions at `at_byte`."""

    def calls(self, region: Span) -> list[RawCall]:
        """The calls inside `region` of functions the file defines (empty when not followed)."""

    def function(self, name: str) -> RawFunction | None:
        """The file's one definition of the function `name`, None when it has none or several."""


@record
class RawCall:
    """A call of a function the file defines, made in device code: `name(args)` (argument texts as
    written), with the conditionals around it inside the region."""

    name: str
    args: tuple[str, ...]
    span: Span
    guards: tuple[Span, ...] = ()


@record
class RawFunction:
    """A function of the file as device code: its name, its body (a region `device_code` reads) and
    its parameters' names, in order."""

    name: str
    body: Span
    params: tuple[str, ...]


class RegionBranches(NamedTuple):
    """What the dependence analysis of a file's device parallel regions found."""

    branches: tuple[Branch, ...] = ()
    limits: tuple[LimitReached, ...] = ()  # expressions nested too deep to read (their value is unknown)


TOO_DEEP = (
    "this expression is nested too deeply (hundreds of levels, parentheses aside) for kernlint's OpenMP "
    "expression reader: the work-item dependence analysis takes its value as unknown, so a divergent "
    "branch (KL501) that depends on it may be missing"
)


def too_deep(statements: list[RawAssign | RawBranch], fortran: bool) -> list[LimitReached]:
    """A `LimitReached` for each statement whose expression is nested past what the reader reads (its
    value is then unknown to the analysis, which must say so rather than drop what depends on it)."""
    found = []
    for statement in statements:
        text, where = (
            (statement.value, statement.span)
            if isinstance(statement, RawAssign)
            else (statement.text, statement.condition)
        )
        parsed = ex.parse(text, fortran=fortran) if text else None
        if isinstance(parsed, ex.Opaque) and parsed.too_deep:
            found.append(LimitReached(where, TOO_DEEP))
    return found
