"""The names of the dependence program's variables: what a `Var` reads and a `Unit` assigns.

A front-end names variables apart where the language does: a plain name (a parameter, a capture, a
global, the variables of an OpenMP region) is a `str`; a local a C++ unit declares is a `Local`, so a
shadowing `for (int i …)` is not the kernel's `i`. With reaching definitions each definition of a
variable is a program variable of its own (`DefinitionKey`), and a read past the branches that hold a
definition reads a variant of it that also depends on their conditions (`VariantKey`).

They are named tuples: hashed and compared in C, as often as the solver looks a name up.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple


class Local(NamedTuple):
    """A variable a unit declares, told apart from others of its name by where it is declared."""

    name: str
    declared_at: int  # the declaration's byte offset


Variable = str | Local


class DefinitionKey(NamedTuple):
    """One definition of a variable (an initialiser, an assignment, an update, a reference argument)."""

    variable: Variable
    at: int  # where it is made: a byte offset (C++) or the statement's index in its region (OpenMP)
    how: str = ""  # C++: init | assign | update | element | reference


class VariantKey(NamedTuple):
    """A definition read outside the branches (or loops) that hold it: the read also depends on their
    conditions. `apart` tells variants of one definition apart: the keys of those conditions (C++), or
    the read's number (OpenMP, where each read has its own)."""

    definition: DefinitionKey
    apart: tuple[Hashable, ...]


Name = str | Local | DefinitionKey | VariantKey


def plain_name(variable: Variable) -> str:
    """The name as written."""
    return variable.name if isinstance(variable, Local) else variable


def definition_of(name: Name) -> DefinitionKey | None:
    """The definition a program variable stands for (itself, or the one a variant reads); None for a
    variable read as a whole."""
    if isinstance(name, VariantKey):
        return name.definition
    return name if isinstance(name, DefinitionKey) else None
