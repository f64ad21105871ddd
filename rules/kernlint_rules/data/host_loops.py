"""How the data rules name the host loop a construction repeats in (KL101 buffers, KL207 queues)."""

from __future__ import annotations

from kernlint.facts.kinds import LoopKind

LOOP_WORDS: dict[LoopKind, str] = {
    "for": "`for` loop",
    "range-for": "range-based `for` loop",
    "while": "`while` loop",
    "do": "`do … while` loop",
}
