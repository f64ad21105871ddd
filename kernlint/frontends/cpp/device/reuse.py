"""Device-code facts of one component of a file's device call graph, kept between analyses of an
edited document (the language server's worker turns this on; the command line never does).

A component is a kernel with the device functions it reaches (kernels sharing a helper are one). Its
facts are worked out from its own code and from what lies outside every device region (host code,
file-scope declarations, the headers), so an edit inside another component's code, a comment between
host statements, or a host statement that no component can read leaves them as they were, moved by
however much the edit moved the component's code. Its key (built in `device.code`) holds its regions'
texts and start columns, its launches without their positions, the whole host text (less comments
between statements, `without_trailing_comments`, and the lines of the statements no component can
read, `host_slice`) and which gaps of it the component's regions fill, of every other component the
names it spells that the other declares or assigns and the other's binding lines, the file's type
definitions, the local allocations, the headers read (path, size, time) and the analysis' scope
(document and configuration, set by the caller). Reusing moves every span of the facts by its
region's move; facts holding a span outside their regions, or a value of a type the mover does not
know, are never stored, and their component is analysed each time.

The host text is keyed whole, before and after the component: a statement after a launch may write
what the kernel reads (a call taking it by reference, an assignment to a variable its captured value
was made from), and a constant is unknown when anything writes it, wherever.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections import OrderedDict
from collections.abc import Hashable
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar

from kernlint import stopping
from kernlint.facts import Span
from kernlint.records import record

T = TypeVar("T")

# Lines of another component's code that may bind a name beyond their function: kept in every key.
_BINDING_LINE = re.compile(
    rb"^\s*#|\b(?:const|constexpr|static|struct|class|union|enum|typedef|using|template|namespace|extern)\b"
)
_ENTRIES = 256  # components kept (a few files' worth)


class _NoSpans:
    """Reads a value with every span taken out: what a launch says, wherever it is."""

    def __init__(self) -> None:
        self.moves = Moves(())

    def value(self, value: Any) -> Any:
        if isinstance(value, Span):
            return None
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        if isinstance(value, frozenset):
            return frozenset(self.value(v) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return (type(value).__name__, tuple(self.value(getattr(value, f.name)) for f in dataclasses.fields(value)))
        if value is None or isinstance(value, str | int | float | bool | Enum | Fraction):
            return value
        return ("unhashable", repr(value))


def without_spans(value: Any) -> Any:
    """`value` as a key with its spans taken out (dataclasses as (name, fields) tuples)."""
    return _NoSpans().value(value)


class NotMovable(Exception):
    """A fact holds a position outside its component's regions, or a value the mover does not know."""


@record
class Moves:
    """Old regions (start byte, end byte, first line) to their new start byte and first line."""

    regions: tuple[tuple[int, int, int, int, int], ...]  # (old start, old end, old line, new start, new line)

    def span(self, span: Span) -> Span:
        for start, end, line, new_start, new_line in self.regions:
            if start <= span.start_byte and span.end_byte <= end:
                if new_start == start and new_line == line:
                    return span
                shift, down = new_start - start, new_line - line
                return Span(
                    span.start_byte + shift,
                    span.end_byte + shift,
                    span.line + down,
                    span.column_byte,
                    span.end_line + down,
                    span.end_column_byte,
                )
        raise NotMovable(f"span {span} lies outside the component's regions")

    @property
    def still(self) -> bool:
        """Whether no region moved."""
        return all(start == new_start and line == new_line for start, _e, line, new_start, new_line in self.regions)

    def value(self, value: T) -> T:
        """`value` with every span in it moved (dataclasses and tuples rebuilt, plain values kept)."""
        return self._move(value)

    def _move(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN or value is None:
            return value
        if kind is Span:
            return self.span(value)
        if kind is tuple:
            changed = False
            moved = []
            for old in value:
                new = old if type(old) in _PLAIN or old is None else self._move(old)
                changed = changed or new is not old
                moved.append(new)
            return tuple(moved) if changed else value
        if kind is frozenset:
            return frozenset(self._move(v) for v in value)
        made = _maker(kind)
        if made is None:
            if isinstance(value, Enum | Fraction):
                return value
            raise NotMovable(f"a {kind.__name__} in a device fact")
        names, positional = made
        values = [getattr(value, name) for name in names]
        changed = False
        for at, old in enumerate(values):
            if type(old) in _PLAIN or old is None:
                continue
            new = self._move(old)
            if new is not old:
                values[at] = new
                changed = True
        if not changed:
            return value
        if positional:  # (what `dataclasses.replace` does, without its checks: every field is positional)
            return kind(*values)
        changes = {name: new for name, new in zip(names, values, strict=True) if new is not getattr(value, name)}
        return dataclasses.replace(value, **changes)


_PLAIN = frozenset({str, int, float, bool})
_MAKERS: dict[type, tuple[tuple[str, ...], bool] | None] = {}


def _maker(kind: type) -> tuple[tuple[str, ...], bool] | None:
    """The field names of a dataclass type and whether its `__init__` takes them all, in order, by
    position (None for any other type), remembered."""
    if kind not in _MAKERS:
        if dataclasses.is_dataclass(kind):
            found = dataclasses.fields(kind)
            positional = all(f.init and not f.kw_only for f in found)
            _MAKERS[kind] = (tuple(f.name for f in found), positional)
        else:
            _MAKERS[kind] = None
    return _MAKERS[kind]


@record
class Stored:
    """A component's facts as analysed, with its regions then (start byte, end byte, first line)."""

    regions: tuple[tuple[int, int, int], ...]
    facts: Any


class ComponentCache:
    """Component facts by key, the least recently used dropped beyond a bound; `hits` and `misses`
    count what the last analyses did (for tests and benchmarks)."""

    def __init__(self, entries: int = _ENTRIES) -> None:
        self._entries = entries
        self._stored: OrderedDict[Hashable, Stored] = OrderedDict()
        self.scope: Hashable = None  # the document and configuration being analysed, set by the caller
        self.hits = 0
        self.misses = 0

    def holds(self, key: Hashable, regions: tuple[tuple[int, int, int], ...]) -> bool:
        """Whether `get` would find facts under `key` now (counting nothing, moving nothing)."""
        stored = self._stored.get(key)
        return stored is not None and len(stored.regions) == len(regions)

    def get(self, key: Hashable, regions: tuple[tuple[int, int, int], ...]) -> Any | None:
        """The facts stored under `key`, moved onto `regions` (None when none are, or they cannot move).
        Before each component: a point where the analysis may stop (`kernlint.stopping`)."""
        stopping.checkpoint()
        stored = self._stored.get(key)
        if stored is None or len(stored.regions) != len(regions):
            self.misses += 1
            return None
        moves = Moves(tuple((s, e, line, ns, nl) for (s, e, line), (ns, _ne, nl) in zip(stored.regions, regions)))
        facts = stored.facts
        if not moves.still:  # stored: known to move; kept where they are now, which the next edit rarely moves
            facts = moves.value(stored.facts)
            self._stored[key] = Stored(regions, facts)
        self._stored.move_to_end(key)
        self.hits += 1
        return facts

    def put(self, key: Hashable, regions: tuple[tuple[int, int, int], ...], facts: Any, *, keep: bool = True) -> None:
        """Keep `facts` of the component at `regions`, unless one of them could not move with it (a
        span outside its regions, a value the mover does not know): those are worked out each time.
        Not with `keep` false (the caller's tree has a syntax error: a statement half typed, whose
        versions would each store every component they missed and push out the ones its finished
        statement hits). After each component analysed: a point where the analysis may stop
        (`kernlint.stopping`), with the component kept."""
        if not keep:
            stopping.checkpoint()
            return
        try:
            Moves(tuple((s, e, line, s + 1, line + 1) for s, e, line in regions)).value(facts)
        except NotMovable:
            self._stored.pop(key, None)
        else:
            self._stored[key] = Stored(regions, facts)
            self._stored.move_to_end(key)
            while len(self._stored) > self._entries:
                self._stored.popitem(last=False)
        stopping.checkpoint()


_active: ComponentCache | None = None


def active() -> ComponentCache | None:
    """The cache the device analysis consults, when one is turned on (the language server's worker)."""
    return _active


def turn_on(cache: ComponentCache | None) -> None:
    global _active
    _active = cache


def binding_lines(text: bytes) -> tuple[bytes, ...]:
    """The lines of `text` that may bind a name beyond their function (see the module docstring), each
    without a `//` comment that cannot hide or continue code (see `_uncommented`)."""
    found = _BINDING.get(text)
    if found is None:
        found = _BINDING[text] = tuple(line for _at, line in binding_lines_at(text))
        while len(_BINDING) > _ENTRIES:
            _BINDING.popitem(last=False)
    else:
        _BINDING.move_to_end(text)
    return found


_BINDING: OrderedDict[bytes, tuple[bytes, ...]] = OrderedDict()  # by component text, as read last


def _uncommented(line: bytes) -> bytes:
    """`line` without its `//` comment, unless the line is a preprocessor line, holds a quote, or the
    comment holds `/*` or `*/` or ends in a backslash."""
    at = line.find(b"//")
    if at < 0 or line.lstrip().startswith(b"#") or b'"' in line or b"'" in line:
        return line
    comment = line[at:]
    if b"/*" in comment or b"*/" in comment or line.rstrip().endswith(b"\\"):
        return line
    return line[:at]


def without_trailing_comments(text: bytes) -> bytes:
    """Host text for a key without the `//` comments that lie between statements: one that ends a
    line after a statement or a brace, and a line that is a comment alone after such a line (or a
    preprocessor line, or at the top). What `_uncommented` keeps stays, and everything in a file with
    a raw string. Such a comment is outside every expression and declaration the analyses read."""
    if b"//" not in text or b'R"' in text:
        return text
    kept: list[bytes] = []
    between = True  # the last line of code ended a statement, a block or a directive
    for line in text.split(b"\n"):
        code = _uncommented(line)
        if code is not line:
            code = code.rstrip()
            if not code.strip() and between:
                continue
            if code[-1:] in (b";", b"{", b"}"):
                kept.append(code)
                between = True
                continue
        kept.append(line)
        if line.strip():
            end = line.rstrip()
            between = (end[-1:] in (b";", b"{", b"}") or end.lstrip().startswith(b"#")) and not end.endswith(b"\\")
    return b"\n".join(kept)


def binding_lines_at(text: bytes) -> list[tuple[int, bytes]]:
    """`binding_lines` of `text`, each with its offset in `text`."""
    found, at = [], 0
    for line in text.split(b"\n"):
        code = _uncommented(line)
        if _BINDING_LINE.search(code):
            found.append((at, code.strip()))
        at += len(line) + 1
    return found


def header_stamps(paths: list[str]) -> tuple[tuple[str, int, int], ...]:
    """(path, size, modification time) of each header read: an edited header is a new key."""
    stamps = []
    for path in sorted(set(paths)):
        try:
            stat = os.stat(path)
        except OSError:
            stamps.append((path, -1, -1))
            continue
        stamps.append((path, stat.st_size, stat.st_mtime_ns))
    return tuple(stamps)
