"""Facts about OpenMP offload constructs. Owned by the OpenMP layer (issue 5)."""

from __future__ import annotations

from dataclasses import dataclass

from kernlint.facts.model import Span


@dataclass(frozen=True, slots=True)
class OmpConstruct:
    """One parsed OpenMP directive with where it is (the parser's result is in `directive`)."""

    span: Span
    directive: object  # kernlint.frontends.openmp.OmpDirective | OmpParseError
