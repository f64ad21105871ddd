"""The solved dependence program of a file's OpenMP device parallel regions, as the passes after it
read it: the branch facts (`dependence.openmp_branches`) and the memory accesses (`memory`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from kernlint.analysis import dependence as dep
from kernlint.facts.base import Span
from kernlint.facts.model import LimitReached
from kernlint.facts.openmp import OmpConstruct


class Lowering(Protocol):
    """How a region's expressions are lowered (`dependence._Lowering`): text to the analysis' terms,
    names read as at statement `site` (-1: through all their definitions)."""

    site: int

    def expr(self, text: str, at: int) -> dep.Expr: ...


@dataclass
class SolvedRegion:
    """One device parallel region as the solved program holds it (its unit is keyed by its span): its
    statements (`RawAssign` / `RawBranch`), how its expressions are lowered, the work-item ids seeded."""

    construct: OmpConstruct
    statements: list[Any]
    lowering: Lowering
    seeds: dict[str, dep.Expr]


@dataclass
class SolvedRegions:
    """The dependence program of a file's device parallel regions, solved; the conditions to grade."""

    program: dep.Program
    regions: list[SolvedRegion]
    pending: list[tuple[Span, Any]]  # (the region's unit, a `RawBranch`)
    functions: dict[Span, str] = field(default_factory=dict)  # the followed functions' units, by name
    limits: tuple[LimitReached, ...] = ()  # expressions nested too deep to read (their value is unknown)
