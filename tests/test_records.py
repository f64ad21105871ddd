"""`record` (kernlint.records) makes what `dataclass(frozen=True)` makes, less the run-time freeze: the
same constructor, equality, hash, repr, fields and slots; and mypy still reports an assignment to one."""

from __future__ import annotations

import copy
import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kernlint.records import record

ROOT = Path(__file__).resolve().parent.parent


def _classes(slots: bool) -> list[tuple[type, type, list[tuple[tuple[Any, ...], dict[str, Any]]]]]:
    """Classes as records and as frozen dataclasses, each with the arguments of a few instances: a base
    and a subclass with more fields, fields left out of the comparison, the hash or the repr, a class
    of one field and one that compares none."""
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

        @decorate
        class One:
            value: float

        @decorate
        class Nothing:
            hidden: int = dataclasses.field(default=0, compare=False)

        made.append((Sub, One, Nothing))
    nan = float("nan")
    subs: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        (("a",), {}),
        (("b", (1, 2), "x", 2.5), {"host": "gpu", "lanes": 16}),
        (("b", (1, 2), "y", 2.5), {"host": "gpu", "lanes": 16}),  # differs in a field not compared
        (("b", (1, 2), "x", 3.5), {"host": "gpu", "lanes": 16}),  # differs in a field not hashed
    ]
    ones: list[tuple[tuple[Any, ...], dict[str, Any]]] = [((1.0,), {}), ((nan,), {}), ((nan,), {})]
    nothings: list[tuple[tuple[Any, ...], dict[str, Any]]] = [((), {}), ((5,), {})]
    return [(made[0][n], made[1][n], cases) for n, cases in enumerate((subs, ones, nothings))]


@pytest.mark.parametrize("slots", [False, True])
def test_a_record_behaves_as_the_frozen_dataclass(slots: bool) -> None:
    for mine, frozen, cases in _classes(slots):
        nan = float("nan")
        records = [mine(*args, **kwargs) for args, kwargs in cases]
        frozens = [frozen(*args, **kwargs) for args, kwargs in cases]
        if mine.__name__ == "One":  # the same NaN object in two records: equal, as tuples holding it are
            records[2], frozens[2] = mine(nan), frozen(nan)
            records[1], frozens[1] = mine(nan), frozen(nan)
        for made, expected in zip(records, frozens):
            assert hash(made) == hash(expected)
            assert repr(made).replace(mine.__qualname__, "") == repr(expected).replace(frozen.__qualname__, "")
            assert dataclasses.astuple(made) == dataclasses.astuple(expected)
            assert copy.deepcopy(made) == made  # through __reduce_ex__, as pickling is
            assert made != expected and made != "text"  # another class is never equal
        assert [[a == b for b in records] for a in records] == [[a == b for b in frozens] for a in frozens]
        assert [f.name for f in dataclasses.fields(mine)] == [f.name for f in dataclasses.fields(frozen)]
        assert getattr(mine, "__match_args__", None) == getattr(frozen, "__match_args__", None)
        assert getattr(mine, "__slots__", None) == getattr(frozen, "__slots__", None)
        assert {records[0]: 1}[mine(*cases[0][0], **cases[0][1])] == 1  # a dict key, as the frozen one


def test_a_record_that_contains_itself_reprs_as_the_dataclass_does() -> None:
    @record
    class Box:
        items: list[Any]

    box = Box([])
    box.items.append(box)
    assert repr(box) == "test_a_record_that_contains_itself_reprs_as_the_dataclass_does.<locals>.Box(items=[...])"


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


def test_kernlint_and_its_rules_make_records_not_frozen_dataclasses() -> None:
    """Each frozen dataclass compiles five methods more than a record when kernlint starts."""
    frozen = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("kernlint", "rules")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if line.lstrip().startswith("@dataclass(") and "frozen=True" in line
    ]
    assert frozen == []
