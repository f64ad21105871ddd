"""What a Fortran declaration says of the variables it declares, for the OpenMP facts: element size
(from the type and its kind, `real(kind=8)`, `real(c_double)`, `integer*4`, a kind `parameter`), the
bounds of each dimension as written (`(n)`, `(0:n-1)`, `(:)`, `(*)`), the `allocatable` and `pointer`
attributes, and a derived type's name."""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common.nodes import text_of as _text
from kernlint.frontends.fortran.constants import FortranConstants
from kernlint.frontends.openmp.maps import Declared

Point = tuple[int, int]

_REAL_KINDS = {
    "c_float": 4,
    "c_double": 8,
    "real32": 4,
    "real64": 8,
    "real128": 16,
    "c_int": 4,
    "c_long": 8,
    "int32": 4,
    "int64": 8,
    "int16": 2,
    "int8": 1,
    "c_int64_t": 8,
    "c_int32_t": 4,
}
_DEFAULT_BYTES = {
    "real": 4,
    "integer": 4,
    "logical": 4,
    "complex": 8,
    "doubleprecision": 8,
    "doublecomplex": 16,
    "character": 1,
}


def _element_bytes(type_node: tree_sitter.Node | None, constants: FortranConstants, at: Point) -> int | None:
    if type_node is None:
        return None
    text = "".join(_text(type_node).lower().split())
    base = text.split("(", 1)[0].split("*", 1)[0]
    if base not in _DEFAULT_BYTES:
        return None
    kind_text = None
    if "*" in text and "(" not in text:
        kind_text = text.split("*", 1)[1]
    elif "(" in text:
        kind_text = text[text.index("(") + 1 : text.rindex(")")] if ")" in text else None
        if kind_text is not None and kind_text.startswith("kind="):
            kind_text = kind_text[5:]
    if kind_text is None:
        return _DEFAULT_BYTES[base]
    if kind_text in _REAL_KINDS:
        return _REAL_KINDS[kind_text]
    value = constants.value(kind_text, at)
    if value is None or value not in (1, 2, 4, 8, 16):
        return None
    return value * 2 if base == "complex" else value


def _first_extent(size: tree_sitter.Node | None) -> tuple[str | None, str | None]:
    """Lower and upper bound of the first dimension of `(lo:hi, …)` / `(n, …)`."""
    if size is None:
        return None, None
    items = [c for c in size.named_children if c.type != "comment"]
    if not items:
        return None, None
    first = items[0]
    if first.type == "extent_specifier":
        parts = [c for c in first.named_children if c.type != "comment"]
        text = _text(first)
        if ":" not in text or len(parts) != 2:
            return None, None
        return _text(parts[0]), _text(parts[1])
    text = _text(first).strip()
    if text in ("*", ":"):
        return None, None
    return "1", text


def _extents(size: tree_sitter.Node | None) -> tuple[tuple[str | None, str | None], ...]:
    """(lower, upper) of every dimension of `(lo:hi, n, :, *)`: upper "*" for an assumed size, None
    for a deferred or assumed shape; a dimension written `n` runs from 1."""
    if size is None:
        return ()
    found: list[tuple[str | None, str | None]] = []
    for item in (c for c in size.named_children if c.type != "comment"):
        if item.type == "assumed_size":
            found.append(("1", "*"))
        elif item.type == "extent_specifier":
            parts = [c for c in item.named_children if c.type != "comment"]
            bounds = [("*" if part.type == "assumed_size" else _text(part)) for part in parts]
            text = _text(item).strip()
            if len(bounds) == 2:
                found.append((bounds[0], bounds[1]))
            elif len(bounds) == 1:
                found.append((None, bounds[0]) if text.startswith(":") else (bounds[0], None))
            else:
                found.append(("1", None))  # `:`, an assumed shape: its lower bound is 1
        else:
            found.append(("1", _text(item)))
    return tuple(found)


def declarations(declaration: tree_sitter.Node, constants: FortranConstants) -> list[tuple[str, Declared]]:
    """What one `variable_declaration` says of each name it declares: element size, the bounds of
    every dimension, `allocatable`/`pointer`, a derived type's name."""
    type_node = declaration.child_by_field_name("type")
    element = _element_bytes(type_node, constants, declaration.start_point)
    derived = None
    if type_node is not None and type_node.type == "derived_type":
        name = next((c for c in type_node.named_children if c.type == "type_name"), None)
        derived = _text(name).lower() if name is not None else None
    dimension = None
    movable = False
    for attribute in declaration.children_by_field_name("attribute"):
        word = _text(attribute).lower()
        if word.startswith("dimension"):
            dimension = next((c for c in attribute.named_children if c.type == "argument_list"), None)
        movable = movable or word.startswith(("allocatable", "pointer"))
    found = []
    for declarator in declaration.children_by_field_name("declarator"):
        size = None
        name_node: tree_sitter.Node | None = declarator
        if declarator.type == "sized_declarator":
            name_node = next((c for c in declarator.named_children if c.type == "identifier"), None)
            size = next((c for c in declarator.named_children if c.type == "size"), None)
        elif declarator.type == "init_declarator":
            name_node = declarator.child_by_field_name("left")
        if name_node is None or name_node.type != "identifier":
            continue
        shape = size if size is not None else dimension
        lower, upper = _first_extent(shape)
        extents = _extents(shape)
        if movable:  # bounds set by `allocate` or pointer association: unknown here
            extents = tuple((None, None) for _dim in extents)
        found.append(
            (
                _text(name_node).lower(),
                Declared(
                    element,
                    lower,
                    upper,
                    shape is not None,
                    extents=extents,
                    movable=movable,
                    type_name=derived,
                ),
            )
        )
    return found
