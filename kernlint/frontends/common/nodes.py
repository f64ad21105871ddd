"""Small questions about tree-sitter nodes that every front-end asks, answered once.

They hold no grammar knowledge (node type names are passed in), so the C/C++ and Fortran front-ends
share them. Text is decoded with `errors="replace"`: source files are not guaranteed to be UTF-8, and a
stray byte must not stop the analysis.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable

import tree_sitter

from kernlint.facts import Span

Node = tree_sitter.Node


def text_of(node: Node | None) -> str:
    """The source text of `node` ("" for no node)."""
    if node is None:
        return ""
    text = node.text  # a property that copies the bytes: read once
    return text.decode("utf-8", errors="replace") if text is not None else ""


def span_of(node: Node) -> Span:
    """The `Span` a fact records for `node` (`span_between(node, node)`, asked for every fact)."""
    start, end = node.start_point, node.end_point  # properties that make a new point each time: read once
    return Span(node.start_byte, node.end_byte, start[0] + 1, start[1], end[0] + 1, end[1])


def span_between(first: Node, last: Node, after_first: bool = False) -> Span:
    """The `Span` from the start of `first` (its end when `after_first`) to the end of `last`."""
    start, point = (first.end_byte, first.end_point) if after_first else (first.start_byte, first.start_point)
    end = last.end_point
    return Span(start, last.end_byte, point[0] + 1, point[1], end[0] + 1, end[1])


def arguments_of(node: Node | None) -> list[Node]:
    """The items of a list node (argument, parameter, initializer or template-argument list): its named
    children without comments (none for no node)."""
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def contains(outer: Node, inner: Node) -> bool:
    """Whether `inner` lies within `outer`'s byte range (a node contains itself)."""
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def node_at(root: Node, span: Span, types: Iterable[str] = ()) -> Node | None:
    """The innermost node under `root` with exactly `span`'s byte range (and one of `types`, when
    given): facts keep spans, this finds their nodes again."""
    node = root.descendant_for_byte_range(span.start_byte, span.end_byte)
    wanted = frozenset(types)
    while node is not None and (
        node.start_byte != span.start_byte or node.end_byte != span.end_byte or (wanted and node.type not in wanted)
    ):
        if node.start_byte < span.start_byte or node.end_byte > span.end_byte:
            return None
        node = node.parent
    return node


def inside_any(regions: list[Span]) -> Callable[[Node], bool]:
    """A test of whether a node lies inside one of `regions` (spans of nodes, so nested or disjoint),
    by bisection over the outermost ones."""
    starts: list[int] = []
    ends: list[int] = []
    for region in sorted(regions, key=lambda r: (r.start_byte, -r.end_byte)):
        if not ends or region.end_byte > ends[-1]:  # not nested in the previous outermost region
            starts.append(region.start_byte)
            ends.append(region.end_byte)

    def inside(node: Node) -> bool:
        at = bisect_right(starts, node.start_byte) - 1
        return at >= 0 and node.end_byte <= ends[at]

    return inside
