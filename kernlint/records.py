"""`record`: kernlint's immutable dataclass, frozen where mypy checks the code rather than at run time.

`@dataclass(frozen=True)` makes two methods per class (`__setattr__` and `__delattr__`, which raise)
and an `__init__` that sets each field through `object.__setattr__`. Creating those costs every process
about a third of its dataclass creation (some 16 ms of a one-file run here, over 160 classes), and the
raising methods never run: nothing in kernlint assigns to a record, and mypy sees to it, since it
reads `record` as frozen (`dataclass_transform(frozen_default=True)`) and reports any assignment.
At run time a record is a plain dataclass that hashes as the frozen one does (`unsafe_hash`: the same
`__hash__` of its fields), with the same `__init__`, `__eq__`, `__repr__` and slots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

_T = TypeVar("_T")

if TYPE_CHECKING:
    from collections.abc import Callable
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
        """The class as a dataclass that is frozen for mypy (see the module's docstring)."""

        def make(cls):
            return dataclass(cls, unsafe_hash="__hash__" not in cls.__dict__, slots=slots)

        return make if cls is None else make(cls)
