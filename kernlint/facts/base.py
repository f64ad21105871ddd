"""Span and Extent: the two value types every fact module uses (where something is, how big it is).

They have a module of their own so that the fact modules can all import them without importing each
other.
"""

from __future__ import annotations

from math import prod

from kernlint.records import record


@record(slots=True)
class Span:
    """A source range: byte offsets for containment tests, 1-based lines and 0-based byte columns."""

    start_byte: int
    end_byte: int
    line: int
    column_byte: int
    end_line: int
    end_column_byte: int

    def contains(self, other: Span) -> bool:
        return self.start_byte <= other.start_byte and other.end_byte <= self.end_byte

    def contains_byte(self, offset: int) -> bool:
        return self.start_byte <= offset < self.end_byte


@record(slots=True)
class Extent:
    """An evaluated 1-3 dimensional size such as a `range<3>`; a dimension is None when not constant."""

    dims: tuple[int | None, ...]
    text: str

    @property
    def known(self) -> bool:
        return bool(self.dims) and all(d is not None for d in self.dims)

    @property
    def total(self) -> int | None:
        return prod(self.dims) if self.known else None  # type: ignore[arg-type]
