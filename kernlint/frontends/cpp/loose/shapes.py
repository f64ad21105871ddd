"""What the loose query texts' refinements share: reading a node's fields as a pattern reads them,
and tree-sitter's order of matches."""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common.treesitter import Match

Node = tree_sitter.Node
#: A match as the query file gives it, with the node whose entry completes it (its pattern's last
#: step) and its root: tree-sitter's order of matches.
Placed = tuple[Node, Node, int, dict[str, list[Node]]]


def in_order(placed: list[Placed]) -> list[Match]:
    """The matches in tree-sitter's order: by the node that completes each (entered in a walk of the
    tree: by start, the enclosing node first), then by root (the enclosing root first), then pattern."""
    placed.sort(key=lambda p: (p[0].start_byte, -p[0].end_byte, p[1].start_byte, -p[1].end_byte, p[2]))
    return [(index, match) for _last, _root, index, match in placed]


def field_children(node: Node, field: str) -> list[Node]:
    return node.children_by_field_name(field)


def named_field(node: Node, field: str) -> Node | None:
    """The child in `field` when it is a named node (a pattern's `field: (_)`)."""
    child = node.child_by_field_name(field)
    return child if child is not None and child.is_named else None


def declared_by(declarator: Node, declaration_type: str, typed: bool = True) -> Node | None:
    """The declaration of type `declaration_type` that holds `declarator` among its declarators (and
    when `typed` has a named type: the query file's `(declaration type: (_) declarator: …)`)."""
    declaration = declarator.parent
    if declaration is None or declaration.type != declaration_type:
        return None
    if typed and named_field(declaration, "type") is None:
        return None
    return declaration if declarator in field_children(declaration, "declarator") else None
