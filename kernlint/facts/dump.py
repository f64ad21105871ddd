"""Facts as plain data and as readable text, for `kernlint debug facts`: what a rule saw of a file.

Both views are generic over the fact dataclasses, so a new fact shows up without a change here. Keys
and fields come in the order the dataclasses declare them, sets sorted: the same file gives the same
output, byte for byte. A `Span` is written `line:column-line:column` in text (columns counted in
bytes from 1), as its fields in JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields, is_dataclass
from typing import Any

from kernlint.facts.base import Span
from kernlint.facts.model import FileFacts

_INDENT = "  "
_LINE = 120  # the longest line a fact is written on whole


def as_data(value: Any) -> Any:
    """`value` (a fact, or anything a fact holds) as JSON-ready lists, dicts and scalars."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_data(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (tuple, list)):
        return [as_data(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((as_data(item) for item in value), key=repr)
    if isinstance(value, dict):
        return {str(key): as_data(item) for key, item in value.items()}
    return value


def as_json(facts: FileFacts, header: dict[str, Any]) -> str:
    """The facts with `header` (what read them, and how) as one JSON object."""
    return json.dumps({**header, "facts": as_data(facts)}, indent=2, ensure_ascii=False) + "\n"


def as_text(facts: FileFacts, header: Iterable[str] = ()) -> str:
    """The facts as an indented outline: each collection with its count, each fact with its fields."""
    lines = [*header, f"{facts.path}: {facts.language}"]
    for field in fields(facts):
        if field.name in ("path", "language"):
            continue
        value = getattr(facts, field.name)
        if isinstance(value, tuple) and _holds_facts(value):
            lines.append(f"{field.name}: {len(value)}")
            for index, item in enumerate(value):
                _fact(lines, f"[{index}]", item, 1)
        else:
            lines.append(f"{field.name}: {_inline(value) if value != () else 'none'}")
    return "\n".join(lines) + "\n"


def _is_fact(value: Any) -> bool:
    return is_dataclass(value) and not isinstance(value, (type, Span))


def _fact(lines: list[str], label: str, fact: Any, depth: int) -> None:
    """`label TypeName at span`, then its fields: on the same line when they are few plain values
    (`Extent`, `Loop`), else one line each, nested facts indented below their field."""
    span = getattr(fact, "span", None)
    where = f" at {_span(span)}" if isinstance(span, Span) else ""
    head = f"{_INDENT * depth}{label} {type(fact).__name__}{where}"
    shown = [(f.name, getattr(fact, f.name)) for f in fields(fact) if not (f.name == "span" and where)]
    if not any(_holds_facts(value) for _name, value in shown):
        inline = f"{head}{' ' if where else ''}({', '.join(f'{name}={_inline(value)}' for name, value in shown)})"
        if len(inline) <= _LINE:
            lines.append(inline)
            return
    lines.append(head)
    for name, value in shown:
        if _is_fact(value):
            _fact(lines, f"{name}:", value, depth + 1)
        elif isinstance(value, tuple) and _holds_facts(value):
            lines.append(f"{_INDENT * (depth + 1)}{name}: {len(value)}")
            for index, item in enumerate(value):
                if _is_fact(item):
                    _fact(lines, f"[{index}]", item, depth + 2)
                else:
                    lines.append(f"{_INDENT * (depth + 2)}[{index}] {_inline(item)}")
        else:
            lines.append(f"{_INDENT * (depth + 1)}{name}: {_inline(value)}")


def _holds_facts(value: Any) -> bool:
    """A fact, or a tuple with one: written over several lines."""
    return _is_fact(value) or (isinstance(value, tuple) and any(_is_fact(item) for item in value))


def _inline(value: Any) -> str:
    """A value on one line: strings quoted, spans as positions, tuples and sets bracketed."""
    if isinstance(value, Span):
        return _span(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_inline(item) for item in value)) + "}"
    if _is_fact(value):  # a fact inside a tuple of plain values: its fields on one line
        inner = ", ".join(f"{f.name}={_inline(getattr(value, f.name))}" for f in fields(value))
        return f"{type(value).__name__}({inner})"
    return str(value)


def _span(span: Span) -> str:
    return f"{span.line}:{span.column_byte + 1}-{span.end_line}:{span.end_column_byte + 1}"
