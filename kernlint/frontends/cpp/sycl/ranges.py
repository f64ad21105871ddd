"""Evaluating SYCL `range` / `nd_range` expressions to `Extent`s, from source text.

Text is the common denominator of the shapes real code uses: `range<2>(N, M)`, `range{N}`, a scalar
`N` in queue shortcuts, brace-initialised `nd_range{{G}, {L}}`, and variables declared as any of these
(including the "most vexing parse" spelling `sycl::range<1> r(N);`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kernlint.facts import Extent

_RANGE_CALL = re.compile(r"^(?:::)?(?:(?:cl::)?sycl::)?(?P<kind>nd_range|range)\s*(?:<[^<>]*>)?\s*(?P<open>[({])", re.S)

_BRACKETS = re.compile(r"[][(){}]")
ValueAt = Callable[[str], "int | None"]
InitOf = Callable[[str], "str | None"]


def split_top_level(text: str, separator: str = ",") -> list[str]:
    """Split on `separator` outside brackets, braces, parentheses and template angle brackets."""
    if not _BRACKETS.search(text):  # nothing nests: a plain split says the same
        plain = [part.strip() for part in text.split(separator)]
        return plain if len(plain) > 1 or plain[0] else []
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == separator and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    tail = "".join(current).strip()
    if tail or parts:
        parts.append(tail)
    return parts


def _inner(text: str, open_at: int) -> str | None:
    closer = ")" if text[open_at] == "(" else "}"
    if not text.endswith(closer):
        return None
    return text[open_at + 1 : -1]


def _as_range(text: str, value: ValueAt, init_of: InitOf, depth: int) -> Extent | None:
    text = text.strip()
    if depth > 8 or not text:
        return None
    match = _RANGE_CALL.match(text)
    if match and match.group("kind") == "range":
        inner = _inner(text, match.end("open") - 1)
        return _dims(text, inner, value) if inner is not None else None
    if text.startswith("{") and text.endswith("}"):
        return _dims(text, text[1:-1], value)
    if re.fullmatch(r"[A-Za-z_]\w*", text):
        init = init_of(text)
        if init is not None and ("range" in init or init.lstrip().startswith("{")):
            resolved = _as_range(init, value, init_of, depth + 1)
            if resolved is not None:
                return Extent(resolved.dims, text)
    scalar = value(text)
    return Extent((scalar,), text) if scalar is not None else (None if "range" in text else Extent((None,), text))


def _dims(text: str, inner: str, value: ValueAt) -> Extent | None:
    parts = split_top_level(inner)
    if not 1 <= len(parts) <= 3:
        return None
    return Extent(tuple(value(p) for p in parts), text)


def evaluate_range(text: str, value: ValueAt, init_of: InitOf) -> Extent | None:
    """A `range`-like expression's extent (dimensions may be unknown), or None if it is not one."""
    return _as_range(text, value, init_of, 0)


def evaluate_nd_range(
    text: str, value: ValueAt, init_of: InitOf, depth: int = 0
) -> tuple[Extent | None, Extent | None] | None:
    """`(global, local)` of an `nd_range` expression, or None if `text` is not an nd_range."""
    text = text.strip()
    if depth > 8:
        return None
    match = _RANGE_CALL.match(text)
    if match and match.group("kind") == "nd_range":
        inner = _inner(text, match.end("open") - 1)
    elif re.fullmatch(r"[A-Za-z_]\w*", text):
        init = init_of(text)
        return evaluate_nd_range(init, value, init_of, depth + 1) if init and "nd_range" in init else None
    else:
        return None
    if inner is None:
        return None
    parts = split_top_level(inner)
    if len(parts) < 2:
        return None
    return evaluate_range(parts[0], value, init_of), evaluate_range(parts[1], value, init_of)
