"""`lanes.scaling_of` reads `name = name / k`-like values of an identifier with one expression for every
name instead of one compiled per name: it must answer what the per-name expression answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.openmp.lanes import _scaling, scaling_of

_NAME = st.sampled_from(["s", "S", "d", "step", "x1", "_n", "sx", "ß", "a b"])
_VALUE = st.text(alphabet="sSdxX1_n()*/<> \t2tepß", max_size=16)


def _by_expression(name: str, value: str) -> str | None:
    match = _scaling(name).fullmatch(value)
    if match is None:
        return None
    return "halves" if match.group(1) in (">>", "/") else "doubles"


@settings(max_examples=3000, deadline=None)
@given(_NAME, _VALUE)
def test_the_answer_of_the_per_name_expression(name: str, value: str) -> None:
    assert scaling_of(name, value) == _by_expression(name, value)


@settings(max_examples=1000, deadline=None)
@given(_NAME, _NAME, st.sampled_from([">>", "<<", "*", "/", "+"]), st.sampled_from(["1", "2", "k", "(2)"]))
def test_scaled_names(name: str, written: str, operator: str, by: str) -> None:
    for value in (f"{written} {operator} {by}", f"({written}{operator}{by})", f" ( {written} {operator}{by} ) "):
        assert scaling_of(name, value) == _by_expression(name, value)


def test_examples() -> None:
    assert scaling_of("s", "s >> 1") == "halves"
    assert scaling_of("s", "(S / 2)") == "halves"
    assert scaling_of("d", "d * 2") == "doubles"
    assert scaling_of("s", "sx >> 1") is None
    assert scaling_of("s", "s + 1") is None
