"""`record` (kernlint.records) makes what `dataclass(frozen=True)` makes, less the run-time freeze: the
same constructor, equality, hash, repr, fields and slots; and mypy still reports an assignment to one."""

from __future__ import annotations

import copy
import dataclasses
import textwrap
from pathlib import Path

import pytest

from kernlint.records import record

ROOT = Path(__file__).resolve().parent.parent


def _classes(slots: bool) -> tuple[type, type]:
    """The same two classes (a base, a subclass with more fields), as records and as frozen dataclasses."""
    made = []
    for decorate in (record(slots=slots), dataclasses.dataclass(frozen=True, slots=slots)):

        @decorate
        class Base:
            name: str
            sizes: tuple[int, ...] = ()
            note: str = dataclasses.field(default="", compare=False)
            weight: float = dataclasses.field(default=1.0, hash=False)
            extra: dict[str, int] = dataclasses.field(default_factory=dict, compare=False, repr=False)
            host: str = dataclasses.field(default="cpu", kw_only=True)

        @decorate
        class Sub(Base):
            lanes: int = 32

        made.append(Sub)
    return made[0], made[1]


@pytest.mark.parametrize("slots", [False, True])
def test_a_record_behaves_as_the_frozen_dataclass(slots: bool) -> None:
    mine, frozen = _classes(slots)
    for args, kwargs in [(("a",), {}), (("b", (1, 2), "x", 2.5), {"host": "gpu", "lanes": 16})]:
        made, expected = mine(*args, **kwargs), frozen(*args, **kwargs)
        assert hash(made) == hash(expected)
        assert repr(made).replace(mine.__qualname__, "") == repr(expected).replace(frozen.__qualname__, "")
        assert made == mine(*args, **kwargs) and made == dataclasses.replace(made)
        assert made == dataclasses.replace(made, note="other")  # compare=False, as in the frozen one
        assert made != dataclasses.replace(made, lanes=1)
        assert dataclasses.astuple(made) == dataclasses.astuple(expected)
        assert copy.deepcopy(made) == made  # through __reduce_ex__, as pickling is
    assert [(f.name, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(mine)] == [
        (f.name, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(frozen)
    ]
    assert getattr(mine, "__match_args__", None) == getattr(frozen, "__match_args__", None)
    assert getattr(mine, "__slots__", None) == getattr(frozen, "__slots__", None)
    # and, like the frozen one, usable as a default value (hashable) and as a dict key
    assert {mine("k"): 1}[mine("k")] == 1


def test_mypy_reports_an_assignment_to_a_record(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api")
    sample = tmp_path / "sample.py"
    sample.write_text(
        textwrap.dedent(
            """
            from kernlint.records import record

            @record(slots=True)
            class Point:
                x: int

            p = Point(1)
            p.x = 2
            """
        )
    )
    out, _err, status = mypy_api.run([str(sample), "--no-incremental", "--python-version", "3.10"])
    assert status == 1 and 'Property "x" defined in "Point" is read-only' in out, out
