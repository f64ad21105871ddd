"""What KL402–KL405 findings of the corpus cost, by hand: prefetches wasted or rejected."""

from __future__ import annotations

import pytest

from conftest import CORPUS
from rule_helpers import cost_at


def test_kl402_kl403_kl404_kl405_prefetch_waste() -> None:
    path = CORPUS / "openmp" / "kl402_405_prefetch.c"
    assert cost_at(path, 13, "KL402").value == 100.0
    assert cost_at(path, 16, "KL403").score == 1.0
    # simdlen(SIMD_W) with SIMD_W = 16: 16 prefetches per simd step where 1 suffices: 15/16.
    assert cost_at(path, 60, "KL404").value == pytest.approx(100 * 15 / 16)
    # 4-byte floats one apart in a 64-byte line: 64/4 = 16 prefetches per line, 15 of 16 wasted.
    kl405 = cost_at(path, 33, "KL405")
    assert kl405.value == pytest.approx(100 * 15 / 16) and kl405.figures["prefetches"] == 16
