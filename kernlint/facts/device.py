"""Facts about device code: divergent branches and sub-group block accesses.

Owned by the device-code analysis (`kernlint/frontends/cpp_device.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from kernlint.facts.model import Span


@dataclass(frozen=True, slots=True)
class Branch:
    """A conditional in device code whose condition depends on the work-item id."""

    span: Span  # the whole statement or expression
    condition: Span
    kind: str  # if | else-if | ternary | switch | loop
    dependence: str  # strong | boundary
    reason: str
    regions: tuple[Span, ...] = ()  # the code that runs under the condition


@dataclass(frozen=True, slots=True)
class SubGroupBlockAccess:
    """A sub-group block load/store (`sg.load`, `group_load` on a sub-group, intel builtins)."""

    span: Span
    form: str
