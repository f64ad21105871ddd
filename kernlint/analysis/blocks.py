"""Arithmetic on constant divisors, shifts and masks: how an id's lanes fall into blocks under `/`,
`>>`, `%` and `&` (the grading of `kernlint.analysis.grading` asks these of constant operands)."""

from __future__ import annotations

from kernlint.analysis.expressions import SUB_GROUP_MAX


def power_of_two(value: int | float | None) -> bool:
    """Whether `value` is a positive power of two (a mask of low bits, plus one)."""
    return isinstance(value, int) and value > 0 and value & (value - 1) == 0


def sub_group_multiple(value: int | float | None, op: str) -> bool:
    """Whether dividing by `value` (or shifting right by it) groups ids in blocks of a multiple of
    `SUB_GROUP_MAX`."""
    if not isinstance(value, int) or value <= 0:
        return False
    block = 1 << value if op == ">>" and value < 63 else value
    return block % SUB_GROUP_MAX == 0


def clears_lane_bits(mask: int | float | None) -> bool:
    """Whether `x & mask` is the same for the 32 ids of every aligned block (`~31`, `-32`, `0xFFE0`):
    the mask keeps none of the low bits that number the lanes of the widest sub-group."""
    return isinstance(mask, int) and mask != 0 and mask & (SUB_GROUP_MAX - 1) == 0


def block_of(value: int | float | None, op: str) -> int | None:
    """How many consecutive ids `x / value` or `x >> value` maps to one result, or None."""
    if op not in ("/", ">>") or not isinstance(value, int) or value <= 0:
        return None
    return (1 << value if value < 63 else None) if op == ">>" else value


def mask_block(value: int | float | None, op: str) -> int | None:
    """The period of `x % value` or `x & value` (a mask of low bits), or None."""
    if not isinstance(value, int) or value <= 0:
        return None
    if op == "%":
        return value
    return value + 1 if value & (value + 1) == 0 else None
