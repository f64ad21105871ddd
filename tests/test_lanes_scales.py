"""`lanes.scaling_of` (is `name = value` a halving or doubling of the name, and which?) says what its expression says,
for any name and value: the check that skips compiling an expression for a name the value never spells
(ASCII, compared in lower case) never changes an answer."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.openmp.lanes import Scaling, scaling_of


def by_expression(name: str, value: str) -> Scaling | None:
    match = re.fullmatch(rf"\(?\s*{re.escape(name)}\s*(>>|<<|\*|/)\s*\w+\s*\)?", value, re.IGNORECASE)
    if match is None:
        return None
    return "halves" if match.group(1) in (">>", "/") else "doubles"


NAMES = st.sampled_from(["s", "S", "stride", "Step", "i", "k", "ſ", "K"])
PIECES = st.sampled_from(
    ["s", "S", "stride", "STRIDE", "step", "ſ", "K", "(", ")", " ", "/", "*", ">>", "<<", "2", "n", "+"]
)


@settings(max_examples=400, deadline=None)
@given(NAMES, st.lists(PIECES, max_size=6))
def test_scaling_answers_as_its_expression(name: str, pieces: list[str]) -> None:
    value = "".join(pieces)
    assert scaling_of(name, value) == by_expression(name, value)


def test_scaling_examples() -> None:
    assert scaling_of("s", "s / 2") == scaling_of("S", "(s>>1)") == "halves"
    assert scaling_of("stride", "STRIDE * 2") == scaling_of("d", "d << 1") == "doubles"
    assert scaling_of("s", "t / 2") is None and scaling_of("s", "s + 1") is None and scaling_of("s", None) is None
