"""Nodes found once over a whole tree, then read per region by position.

A query of single-node patterns (`(for_statement) @loop`) finds, in a node, exactly the nodes of those
types that the node is or holds. Run once over a file, or over a region that holds others, and kept in
document order, the ones a node inside holds are a bisection away, instead of another walk of its
subtree (regions nest: a `target data` block holds the `target` regions inside it, and each is asked
about).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import tree_sitter


class NodesByPosition:
    """`nodes` (in document order) and, for a node, those of them it holds."""

    def __init__(self, nodes: list[tree_sitter.Node]) -> None:
        self.nodes = nodes
        self._starts = [node.start_byte for node in nodes]

    def inside(self, holder: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The nodes `holder` is or holds, in the order given. A node of some width within the
        holder's bytes is the holder or below it (siblings never overlap); one of no width (a
        missing token) may sit on the holder's edge from outside, so its ancestry is checked."""
        first = bisect_left(self._starts, holder.start_byte)
        last = bisect_right(self._starts, holder.end_byte)
        return [
            node
            for node in self.nodes[first:last]
            if node.end_byte <= holder.end_byte and (node.end_byte > node.start_byte or holds(holder, node))
        ]

    def holds_any(self, holder: tree_sitter.Node) -> bool:
        """Whether `holder` is or holds one of the nodes (`inside` is not empty), found without listing them."""
        nodes, starts, end = self.nodes, self._starts, holder.end_byte
        at = bisect_left(starts, holder.start_byte)
        while at < len(starts) and starts[at] <= end:
            node = nodes[at]
            if node.end_byte <= end and (node.end_byte > node.start_byte or holds(holder, node)):
                return True
            at += 1
        return False


def holds(holder: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """`node` is `holder` or below it."""
    if not holder.start_byte <= node.start_byte <= node.end_byte <= holder.end_byte:
        return False
    current: tree_sitter.Node | None = node
    while current is not None:
        if current == holder:
            return True
        current = current.parent
    return False
