"""`constant_writes` finds a variable passed as a whole call argument with `bytes.find` instead of
compiling an expression per name: it must find what the expression finds, from any start to any end."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.cpp.constant_writes import _argument, _argument_pattern

_TEXT = st.text(alphabet="ab_1 (),\t\n\r\x0b\x0c\x1c;", max_size=40).map(str.encode)
_NAME = st.sampled_from(["a", "ab", "b_", "a1", "_", "aa"])


def _by_expression(text: bytes, name: str, start: int, end: int) -> tuple[int, int] | None:
    match = _argument_pattern(name).search(text, start, end)
    return None if match is None else (match.start(1), match.end(1))


@settings(max_examples=2000, deadline=None)
@given(_TEXT, _NAME, st.integers(0, 45), st.integers(0, 45))
def test_the_same_argument_as_the_expression(text: bytes, name: str, start: int, end: int) -> None:
    assert _argument(text, name, start, end) == _by_expression(text, name, start, end)


@settings(max_examples=500, deadline=None)
@given(_TEXT, _NAME)
def test_every_argument_in_turn(text: bytes, name: str) -> None:
    """Each search starting where the last one's name ended, as `WriteFinder` walks a scope."""
    found, expected, position = [], [], 0
    while (match := _argument(text, name, position, len(text))) is not None:
        found.append(match)
        position = match[1]
    position = 0
    while (match := _by_expression(text, name, position, len(text))) is not None:
        expected.append(match)
        position = match[1]
    assert found == expected


def test_examples() -> None:
    assert _argument(b"f(a, b)", "a", 0, 7) == (2, 3)
    assert _argument(b"f(ab, a )", "a", 0, 9) == (6, 7)
    assert _argument(b"f(x.a)", "a", 0, 6) is None
    assert _argument(b"f( a)", "a", 2, 5) is None  # the `(` lies before the start
    assert _argument(b"f(a::b, c)", "a::b", 0, 10) == (2, 6)  # (not an identifier: the expression)
