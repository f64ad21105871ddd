"""Facts by where they are: which spans contain a given span, or lie inside it, without a scan of all.

Rules and front-ends ask, for each of a file's findings, which loops, launches, branches or regions
surround it. Scanning every fact for every question costs the square of the file's size (a generated
file of 100,000 lines held 4,000 launches). A `SpanIndex` answers each question in time that grows
with the number of answers and the logarithm of the number of facts.

Spans are sorted by start; a segment tree over them keeps, for each run of the sorted order, the
largest and the smallest end. `containing(q)` looks only at spans starting at or before `q` and
descends only into runs whose largest end reaches past `q`; `inside(q)` looks only at spans
starting within `q` and descends only into runs whose smallest end stays within it. Any spans work,
nested or overlapping; answers keep the order the items were given in.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from kernlint.facts.base import Span

T = TypeVar("T")


class SpanIndex(Generic[T]):
    """Items, each with a span, indexed for containment questions (see the module docstring)."""

    def __init__(self, items: Iterable[tuple[Span, T]]) -> None:
        listed = list(items)
        order = sorted(range(len(listed)), key=lambda k: listed[k][0].start_byte)
        self._items = [listed[k][1] for k in order]
        self._given = order  # position in the input of each sorted item
        self._starts = [listed[k][0].start_byte for k in order]
        ends = [listed[k][0].end_byte for k in order]
        self._ends = ends
        size = 1
        while size < max(len(ends), 1):
            size *= 2
        self._size = size
        self._max = [-1] * (2 * size)
        self._min = [1 << 62] * (2 * size)
        self._max[size : size + len(ends)] = ends
        self._min[size : size + len(ends)] = ends
        for node in range(size - 1, 0, -1):
            self._max[node] = max(self._max[2 * node], self._max[2 * node + 1])
            self._min[node] = min(self._min[2 * node], self._min[2 * node + 1])

    def __len__(self) -> int:
        return len(self._items)

    def containing(self, span: Span) -> list[T]:
        """The items whose span contains `span` (equal spans included), in the order given."""
        last = bisect_right(self._starts, span.start_byte)
        found = self._collect(0, last, lambda node: self._max[node] >= span.end_byte)
        return self._in_given_order(found)

    def inside(self, span: Span) -> list[T]:
        """The items whose span lies within `span` (equal spans included), in the order given."""
        first = bisect_left(self._starts, span.start_byte)
        last = bisect_right(self._starts, span.end_byte)
        found = self._collect(first, last, lambda node: self._min[node] <= span.end_byte)
        return self._in_given_order(found)

    def _collect(self, first: int, last: int, reaches: Callable[[int], bool]) -> list[int]:
        """Sorted positions in [first, last) whose leaf passes `reaches`, visiting only the subtrees
        whose bound passes it."""
        found: list[int] = []
        if first >= last:
            return found
        stack = [(1, 0, self._size)]
        while stack:
            node, lo, hi = stack.pop()
            if hi <= first or last <= lo or not reaches(node):
                continue
            if hi - lo == 1:
                found.append(lo)
                continue
            middle = (lo + hi) // 2
            stack.append((2 * node + 1, middle, hi))
            stack.append((2 * node, lo, middle))
        return found

    def _in_given_order(self, positions: list[int]) -> list[T]:
        positions.sort(key=self._given.__getitem__)
        return [self._items[p] for p in positions]
