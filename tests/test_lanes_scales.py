"""`lanes.scales` (is `name = value` a halving or doubling of the name?) says what its expression says,
for any name and value: the check that skips compiling an expression for a name the value never spells
(ASCII, compared in lower case) never changes an answer."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.openmp.lanes import scales


def by_expression(name: str, value: str) -> bool:
    return bool(re.fullmatch(rf"\(?\s*{re.escape(name)}\s*(?:>>|<<|\*|/)\s*\w+\s*\)?", value, re.IGNORECASE))


NAMES = st.sampled_from(["s", "S", "stride", "Step", "i", "k", "ſ", "K"])
PIECES = st.sampled_from(
    ["s", "S", "stride", "STRIDE", "step", "ſ", "K", "(", ")", " ", "/", "*", ">>", "<<", "2", "n", "+"]
)


@settings(max_examples=400, deadline=None)
@given(NAMES, st.lists(PIECES, max_size=6))
def test_scales_answers_as_its_expression(name: str, pieces: list[str]) -> None:
    value = "".join(pieces)
    assert scales(name, value) == by_expression(name, value)


def test_scales_examples() -> None:
    assert scales("s", "s / 2") and scales("S", "(s>>1)") and scales("stride", "STRIDE * 2")
    assert not scales("s", "t / 2") and not scales("s", "s + 1") and not scales("s", None)
