"""`record`: kernlint's immutable dataclass, frozen where mypy checks the code rather than at run time,
with its comparison, hash and repr shared rather than generated per class.

`dataclass` writes each method of each class as source text and compiles it, which is most of what
importing kernlint costs: about 50 ms of a one-file run here, over some 170 classes. A record has
the dataclass's generated `__init__`, fields and slots, and for the rest:
- no `__setattr__`/`__delattr__` that raise (what `frozen=True` adds): nothing in kernlint assigns to
  a record, and mypy sees to it, as it reads `record` as frozen (`dataclass_transform`);
- `__eq__`, `__hash__` and `__repr__` made from the class's fields without compiling anything, equal
  to the frozen dataclass's: the tuple of the compared fields for `==`, the hash of the tuple of the
  hashed fields, `Name(field=value!r, …)` (`tests/test_records.py` holds them to it).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

_T = TypeVar("_T")
Values = Callable[[Any], tuple[Any, ...]]

if TYPE_CHECKING:
    from dataclasses import Field, field

    from typing_extensions import dataclass_transform

    @overload
    def record(cls: type[_T], /) -> type[_T]: ...
    @overload
    def record(*, slots: bool = False) -> Callable[[type[_T]], type[_T]]: ...
    @dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
    def record(cls: type[_T] | None = None, /, *, slots: bool = False) -> Any: ...

else:

    def record(cls=None, /, *, slots=False):
        """The class as a record (see the module's docstring)."""
        if cls is None:
            return _slotted if slots else _record
        return _record(cls, slots)


def _record(cls: type[_T], slots: bool = False) -> type[_T]:
    own = dict(cls.__dict__)  # what the class defines itself (slots make a new class)
    made: Any = dataclasses.dataclass(cls, repr=False, eq=False, slots=slots)
    fields = dataclasses.fields(made)
    # As the frozen dataclass: a method the class defines is kept (a class that defines `__eq__` has
    # `__hash__` None in its body, and the dataclass still adds its own).
    if "__repr__" not in own:
        made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    if "__eq__" not in own:
        made.__eq__ = _eq(_values([f.name for f in fields if f.compare]))
    if own.get("__hash__") is None:
        made.__hash__ = _hash(_values([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
    return made


def _slotted(cls: type[_T]) -> type[_T]:
    return _record(cls, slots=True)


def _values(names: list[str]) -> Values:
    """A record's values of the fields `names`, as a tuple (what the dataclass's methods compare and hash)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _eq(values: Values) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Values) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__
