"""OpenMP constructs of a C/C++ file: each `#pragma omp` parsed by the shared directive parser.

Issue 5 extends this module (associated loops, target data regions, mapped variable uses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernlint.facts import OmpConstruct, Pragma
from kernlint.frontends.openmp import parse_directive

if TYPE_CHECKING:
    from kernlint.frontends.cpp import CppFrontend


def openmp_constructs(frontend: "CppFrontend", pragmas: tuple[Pragma, ...]) -> tuple[OmpConstruct, ...]:
    constructs = []
    for pragma in pragmas:
        if pragma.text.split()[:1] not in (["omp"], ["ompx"]):
            continue
        directive = parse_directive(pragma.text, language="c", line=pragma.span.line)
        constructs.append(OmpConstruct(pragma.span, directive))
    return tuple(constructs)
