"""The solved OpenMP facts of a C/C++ file (the branches and memory accesses of its device parallel
regions) worked out per component and kept between analyses of an edited document, with the
constructs of the component (`kept`, which holds the loop over the components): the language
server's worker, with the device-code cache of `kernlint.frontends.cpp.device.reuse` turned on (whose
cache, mover and key helpers this shares); the command line never comes here.

A component is a set of device parallel regions (those `dependence.device_regions` lowers) joined by
the file's functions they call (followed one level, each bound at every call): its units are those
regions and those functions' bodies. Its facts are solved from its own units alone (the components an
edit invalidated together, in one program; where the worker may fork children, `kernlint.fanout`, in
batches balanced by their code's size, `batches`, each solved in one program in a process of its own,
the parent's batch among them), which gives the facts the whole file's program gives
(`tests/test_openmp_reuse.py` checks it, solving each apart and in batches), and are reused, moved,
while its key is unchanged. The key
holds what the analysis of a component may read:
* its units' texts and start columns, and the heads of the OpenMP constructs it reads (`kept._KeepingBuilder.head`:
  its regions' own, those inside its units, with their spans relative to the unit holding them; of
  those around its regions the leaves, device flag and the clauses that make a region one-lane);
* the host text (every byte outside every component's units) before its last unit, without the
  comments that lie between statements (`reuse.without_trailing_comments`) and without the lines of
  host statements found by no name (`device.host_slice`, as the SYCL keys): every constant,
  declaration and definition visible at its code;
* outside it, what may bind or write a name it reads (the read names: the words, keywords aside,
  that its units and that host text before it spell), the texts cut into pieces after each `;`, `{`
  and `}` outside parentheses (`_pieces`): every preprocessor line; of the other components' units
  (without comments between statements), the pieces that pass a read name bare to a call (a
  reference parameter may write it) or that take an address or bind a reference and spell one, and
  the symbol query's captures there (assignments, `++`, `&`, initialised declarations) spelling a
  read name or a word of those pieces; of the host text after it, the pieces spelling a read name
  or a word of those pieces (a write, a call, a function's prototype or definition, an
  instantiation). When the file reads macros it does not define (an include, the configuration),
  whose bodies may spell any word, the whole of the other units and of the later host text instead;
* of every word it spells, how many definitions the file has of a function of that name and whether
  one is a function at all (calls followed, calls that count as work in a branch's arms);
* the file's type definitions, every directive's text, the headers read (path, size, time) and the
  scope (document and configuration).
A file whose units overlap is analysed whole each time; so is one whose tree has a syntax error,
unless the worker may fork children: then every component is solved, in batches (`kept`), and none is
looked up or stored.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from dataclasses import fields, is_dataclass
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Protocol

from kernlint import fanout
from kernlint.facts import LimitReached, Pragma, Span
from kernlint.facts.device import Branch
from kernlint.facts.memory import MemoryAccess
from kernlint.facts.openmp import OmpConstruct
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.device import host_slice, reuse
from kernlint.frontends.openmp.dependence import openmp_branches, solve_regions
from kernlint.frontends.openmp.device_code import DeviceSource, RegionBranches
from kernlint.frontends.openmp.memory import ArraySource, members_used, region_accesses
from kernlint.records import record

if TYPE_CHECKING:
    import tree_sitter

    from kernlint.frontends.cpp.unit import CppUnit

_WORD = re.compile(rb"[A-Za-z_]\w*")
_DELIMITER = re.compile(rb"[;{}()]")
# Words that never name what a component reads: a piece spelling only these binds nothing it reads.
_KEYWORDS = frozenset(
    b"auto bool break case char const constexpr continue default do double else enum extern float for if inline "
    b"int long register restrict return short signed sizeof static struct switch typedef union unsigned void "
    b"volatile while".split()
)
# A name passed bare to a call (`f(a, n)`): the call may write it through a reference parameter.
_ARGUMENT = re.compile(rb"[(,]\s*([A-Za-z_]\w*)\s*(?=[,)])")
# Comments (to be read as a space) and, so that a `//` inside them is no comment, literals.
_COMMENT = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)
_Member = tuple[tuple[str, int], ...]
# A piece of code for a key: its text, the words it spells (keywords aside), whether it is a
# preprocessor line, and the names it may write beyond the symbol query's captures: those it passes
# bare to a call, or every word of a piece that takes an address or binds a reference.
_Piece = tuple[bytes, frozenset[bytes], bool, frozenset[bytes]]


class Source(DeviceSource, ArraySource, Protocol):
    """What this module reads of `macros.MacroAwareOmpSource` (which imports it)."""

    @property
    def functions(self) -> dict[str, list[tree_sitter.Node]]: ...

    @property
    def function_names(self) -> frozenset[str]: ...


@record
class _UnitFacts:
    """What one unit (a region or a followed function's body) gave: its branches, in the order the
    whole file's analysis lists them, and a region's memory accesses (each with its struct's members)."""

    span: Span
    branches: tuple[Branch, ...]
    memory: tuple[tuple[MemoryAccess, _Member], ...]


@record
class ComponentFacts:
    units: tuple[_UnitFacts, ...]
    limits: tuple[LimitReached, ...]


@record
class Plan:
    """The components of a file's device parallel regions: each (its regions, the functions they call
    that it follows), every unit in order, and the followed functions in the order the whole file's
    analysis follows them."""

    components: list[tuple[list[OmpConstruct], list[Span]]]
    every: list[Span]
    follows: dict[Span, int]


def planned(source: Source, regions: list[OmpConstruct]) -> Plan | None:
    """The components of `regions` (`dependence.device_regions`), joined by the functions they call
    (None: units overlap, and the file is analysed whole)."""
    spans = [c.region for c in regions]
    # Each region's followed functions, and the order the whole file's analysis follows them in.
    follows: dict[Span, int] = {}
    owner = list(range(len(regions)))  # union-find over regions: those calling one function are one

    def root_of(at: int) -> int:
        while owner[at] != at:
            owner[at] = owner[owner[at]]
            at = owner[at]
        return at

    first_caller: dict[Span, int] = {}
    for index, span in enumerate(spans):
        assert span is not None
        for call in source.calls(span):
            function = source.function(call.name)
            if function is None:
                continue
            follows.setdefault(function.body, len(follows))
            if function.body in first_caller:
                owner[root_of(index)] = root_of(first_caller[function.body])
            else:
                first_caller[function.body] = index
    every = sorted([s for s in spans if s is not None] + list(follows), key=lambda s: (s.start_byte, s.end_byte))
    if any(a.end_byte > b.start_byte for a, b in pairwise(every)):
        return None
    groups: dict[int, list[int]] = {}
    for index in range(len(regions)):
        groups.setdefault(root_of(index), []).append(index)
    components = [
        (
            [regions[i] for i in members],
            sorted((f for f, i in first_caller.items() if root_of(i) == root_of(members[0])), key=follows.__getitem__),
        )
        for members in groups.values()
    ]
    return Plan(components, every, follows)


def assembled(
    parts: list[ComponentFacts], spans: list[Span | None], follows: dict[Span, int]
) -> tuple[RegionBranches, tuple[MemoryAccess, ...]]:
    """The components' facts in the whole file's order: branches by region (`spans`), then by
    followed function; limits by position; memory accesses by region, members used over them all."""
    by_unit = {facts.span: facts for part in parts for facts in part.units}
    ordered = [by_unit[s] for s in spans if s is not None] + [by_unit[f] for f in follows]
    branches = tuple(b for facts in ordered for b in facts.branches)
    limits = tuple(sorted((limit for part in parts for limit in part.limits), key=lambda limit: limit.span.start_byte))
    memory = members_used([pair for facts in ordered for pair in facts.memory])
    return RegionBranches(branches, limits), tuple(memory)


SOLVED_TOGETHER = True  # the components not kept solved in one program per batch (tests solve each apart)
# What solving a component costs, as bytes of its units' code: their size, and a part that does not grow
# with it (about 1-2 ms here; each kilobyte some 3 ms more).
COMPONENT_BYTES = 512
# What a batch solved in a forked child must weigh at least (some 10-15 ms of solving here): a child costs
# about 1-2 ms to fork and some 10 ms of pages copied (`fanout`), so a lighter batch is solved sooner at home.
SHARE_BYTES = 4096


def weight(units: list[Span]) -> int:
    """What solving a component of `units` costs, in bytes of code (see `COMPONENT_BYTES`)."""
    return COMPONENT_BYTES + sum(u.end_byte - u.start_byte for u in units)


def batches(components: list[list[Span]]) -> list[list[int]]:
    """The components (each its units) to solve, by index, in batches each solved in one program: one
    batch, or where the language server's worker may fork children (`fanout.children`), one per process
    that will solve them, balanced by `weight` (each weighing `SHARE_BYTES` or more)."""
    weights = [weight(units) for units in components]
    ways = min(fanout.children() + 1, len(components), sum(weights) // SHARE_BYTES)
    if ways < 2:
        return [list(range(len(components)))] if components else []
    return fanout.shares(weights, ways)


def solved(
    source: Source,
    constructs: tuple[OmpConstruct, ...],
    own: list[OmpConstruct],
    components: list[list[Span]],
) -> list[ComponentFacts] | None:
    """The facts of `components` (each its units) from one program of their regions `own`, split by
    component and unit (None: a fact lies in no unit)."""
    program = solve_regions(constructs, source, only=own)
    assert program is not None
    found = openmp_branches(constructs, source, program)
    memory = region_accesses(program, source, constructs)
    parts: list[ComponentFacts] = []
    for units in components:
        facts = []
        for unit in units:
            branches = tuple(b for b in found.branches if unit.contains(b.span))
            accesses = tuple(pair for pair in memory if unit.contains(pair[0].span))
            facts.append(_UnitFacts(unit, branches, accesses))
        limits = tuple(limit for limit in found.limits if any(u.contains(limit.span) for u in units))
        parts.append(ComponentFacts(tuple(facts), limits))
    told = [(len(f.branches), len(f.memory)) for part in parts for f in part.units]
    if (sum(b for b, _m in told), sum(m for _b, m in told)) != (len(found.branches), len(memory)):
        return None  # (not expected: each is read from its unit's code)
    if sum(len(part.limits) for part in parts) != len(found.limits):
        return None
    return parts


class Keys:
    """What lies outside the components of a file, read once per analysis (see the module)."""

    def __init__(
        self,
        unit: CppUnit,
        source: Source,
        constructs: tuple[OmpConstruct, ...],
        pragmas: tuple[Pragma, ...],
        units: list[Span],
        scope: object,
    ) -> None:
        data = unit.root.text or b""
        self.data = data
        self.constructs = constructs
        # the host text in pieces (start, end, text without comments between statements, its pieces, its words)
        self.host: list[tuple[int, int, bytes, list[_Piece], frozenset[bytes]]] = []
        at = 0
        cuts = _unread_lines(unit, units)
        for span in [*units, Span(len(data), len(data), 0, 0, 0, 0)]:
            text, pieces, _spelt = _read(host_slice.without(data[at : span.start_byte], at, cuts))
            self.host.append((at, span.start_byte, text, pieces, frozenset(w for p in pieces for w in p[1])))
            at = span.end_byte
        self.units = units
        # each unit's words, and its text without the comments between its statements in pieces
        read = {u: _read(data[u.start_byte : u.end_byte]) for u in units}
        self.unit_words = {u: found[2] for u, found in read.items()}
        self.unit_pieces = {u: found[1] for u, found in read.items()}
        # the symbol query's captures in each unit (declarations, writes, `&`), with the words they spell
        self.symbols: dict[Span, list[tuple[str, bytes, frozenset[bytes]]]] = {u: [] for u in units}
        starts = [u.start_byte for u in units]
        for _pattern, match in unit.file_matches["cpp_symbols"]:
            for capture, nodes in match.items():
                for node in nodes:
                    at = bisect_right(starts, node.start_byte) - 1
                    if at >= 0 and node.end_byte <= units[at].end_byte:
                        text = node.text or b""
                        self.symbols[units[at]].append((capture, text, frozenset(_WORD.findall(text))))
        for found in self.symbols.values():
            found.sort(key=lambda entry: entry[:2])
        types = unit.file_types.captures
        self.functions = source.functions
        self.function_names = source.function_names
        defined = {
            text_of(node)
            for _pattern, match in unit.file_matches["cpp_symbols"]
            for capture in ("macro.name", "macro.function")
            for node in match.get(capture, ())
        }
        # Macros the file does not define (a header's, the configuration's): their bodies may spell any word.
        self.closed = not unit.constants.included() and unit.constants.macro_names() <= defined
        self.shared = (
            scope,
            reuse.header_stamps(unit.constants.included()),
            tuple(sorted((name, text_of(node)) for name, nodes in types.items() for node in nodes)),
            tuple(p.text for p in pragmas),
        )

    def key(self, units: list[Span]) -> tuple[object, ...] | None:
        """The component's key (None: it holds a value that cannot be a key, and is analysed anew)."""
        end = max(u.end_byte for u in units)
        before = [piece for piece in self.host if piece[0] < end]
        prefix = b"\0".join(text for _start, _end, text, _pieces, _words in before)
        spelt = frozenset().union(*(self.unit_words[u] for u in units))
        words = spelt.union(*(piece[4] for piece in before)) - _KEYWORDS
        if not self.closed:  # macros whose bodies may spell any word: everything outside it
            outside: tuple[object, ...] = (
                tuple(piece[2] for piece in self.host if piece[0] >= end),
                tuple(pieces for other, pieces in self.unit_pieces.items() if other not in units),
            )
        else:
            outside = self._outside(units, end, words)
        functions = tuple(
            sorted(
                (w, len(self.functions.get(name, ())), name in self.function_names)
                for w in spelt
                if (name := w.decode()) in self.function_names or name in self.functions
            )
        )
        own = tuple((self.data[u.start_byte : u.end_byte], u.column_byte) for u in units)
        try:
            key = ("openmp", self.shared, own, prefix, outside, functions, self._constructs(units))
            hash(key)
        except (ValueError, TypeError):  # a construct's span outside the component, an unhashable value
            return None
        return key

    def _outside(self, units: list[Span], end: int, words: frozenset[bytes]) -> tuple[object, ...]:
        """What may bind or write a name the component reads (`words`: those it and the host text
        before it spell), outside them: preprocessor lines; of the other components' code, the
        pieces that pass one of `words` bare to a call or take an address or a reference, and the
        symbol query's captures (writes, declarations) that spell one; of the host text after it,
        the pieces that spell one of those words or a word of those pieces (a function's prototype)."""
        later = [pieces for start, _end, _text, pieces, _words in self.host if start >= end]
        others = [(u, pieces) for u, pieces in self.unit_pieces.items() if u not in units]
        writing = [
            piece
            for pieces in [*later, *(p for _u, p in others)]
            for piece in _writers(pieces)
            if not piece[3].isdisjoint(words)
        ]
        reached = words.union(*(piece[1] for piece in writing))
        found: list[tuple[object, ...]] = []
        for other, pieces in others:
            found.append(
                tuple(
                    text
                    for text, _spelling, directive, writes in _writers(pieces)
                    if directive or not writes.isdisjoint(words)
                )
            )
            found.append(_spelling_any(self.symbols[other], reached))
        for pieces in later:
            found.append(_spelling_any(pieces, reached))
        return tuple(found)

    def _constructs(self, units: list[Span]) -> tuple[object, ...]:
        """The constructs the component reads: in its units, relative to them; around them, what
        `solve_regions` asks of them."""
        relative = _Relative(units)
        chosen = set(units)
        found: list[object] = []
        for c, holder, region_holder, around in self.placed:
            inside = holder in chosen
            if inside or region_holder in chosen:
                directive = c.directive.text if c.directive is not None else None
                view = (c.leaves, c.device, c.values, directive, c.region, c.loop, c.loops, c.span if inside else None)
                found.append(("in", relative.value(view)))
            elif not chosen.isdisjoint(around):
                found.append(("around", c.leaves, c.device, c.values))
        return tuple(found)

    @cached_property
    def placed(self) -> list[tuple[OmpConstruct, Span | None, Span | None, tuple[Span, ...]]]:
        """Each construct with the unit holding its span, the one holding its region, and the units
        its region holds."""
        units = self.units
        starts = [u.start_byte for u in units]

        def holding(span: Span | None) -> Span | None:
            at = bisect_right(starts, span.start_byte) - 1 if span is not None else -1
            return units[at] if at >= 0 and span is not None and units[at].contains(span) else None

        def held(region: Span | None) -> tuple[Span, ...]:
            if region is None:
                return ()
            at = bisect_left(starts, region.start_byte)
            found = []
            while at < len(units) and units[at].start_byte <= region.end_byte:
                if region.contains(units[at]):
                    found.append(units[at])
                at += 1
            return tuple(found)

        return [(c, holding(c.span), holding(c.region), held(c.region)) for c in self.constructs]


_READ: OrderedDict[bytes, tuple[bytes, list[_Piece], frozenset[bytes]]] = OrderedDict()
_READ_ENTRIES = 256  # pieces of text read (a few files' worth: most are unchanged from one edit to the next)


def _read(text: bytes) -> tuple[bytes, list[_Piece], frozenset[bytes]]:
    """`text` without the comments between its statements, in pieces (`_pieces`), and the words it
    spells; remembered by the text."""
    found = _READ.get(text)
    if found is None:
        plain = reuse.without_trailing_comments(text)
        found = _READ[text] = (plain, _pieces(plain), frozenset(_WORD.findall(text)))
        while len(_READ) > _READ_ENTRIES:
            _READ.popitem(last=False)
    else:
        _READ.move_to_end(text)
    return found


_WRITERS: dict[int, tuple[list[_Piece], list[_Piece]]] = {}
_SPELLING: dict[int, list[Any]] = {}  # id -> [the list, the words it spells, what all of it gives]


def _writers(pieces: list[_Piece]) -> list[_Piece]:
    """The pieces of `pieces` that are preprocessor lines or may write a name (remembered by the list,
    which `_read` keeps for the text)."""
    found = _WRITERS.get(id(pieces))
    if found is None or found[0] is not pieces:
        if len(_WRITERS) > _READ_ENTRIES * 4:
            _WRITERS.clear()
        found = _WRITERS[id(pieces)] = (pieces, [piece for piece in pieces if piece[2] or piece[3]])
    return found[1]


def _spelling_any(entries: list[Any], reached: frozenset[bytes]) -> tuple[object, ...]:
    """Of host pieces, the texts of those that are preprocessor lines or spell a word of `reached`; of
    symbol captures (capture, text, words), the (capture, text) of those that spell one. When every
    word they spell is reached, that is every one that spells a word (or is a directive): worked out
    once per list."""
    if not entries:
        return ()
    found = _SPELLING.get(id(entries))
    if found is None or found[0] is not entries:
        if len(_SPELLING) > _READ_ENTRIES * 4:
            _SPELLING.clear()
        words = 1 if len(entries[0]) == 4 else 2  # (where a piece's words are, and a capture's)
        found = _SPELLING[id(entries)] = [entries, frozenset().union(*(entry[words] for entry in entries)), None]
    if not found[1] <= reached:
        return _chosen(entries, reached)
    if found[2] is None:
        found[2] = _chosen(entries, None)
    return found[2]


def _chosen(entries: list[Any], reached: frozenset[bytes] | None) -> tuple[object, ...]:
    """`_spelling_any` worked out (`reached` None: every word is)."""
    if len(entries[0]) == 4:  # host pieces: (text, words, directive, writes)
        return tuple(
            text
            for text, spelling, directive, _w in entries
            if directive or (spelling if reached is None else not spelling.isdisjoint(reached))
        )
    return tuple(
        (c, t) for c, t, spelling in entries if (spelling if reached is None else not spelling.isdisjoint(reached))
    )


def _unread_lines(unit: CppUnit, units: list[Span]) -> list[tuple[int, int]]:
    """The lines of host statements no component's facts can read (`device.host_slice`: found by no
    name), cut from the host text of the keys."""
    headers = reuse.header_stamps(unit.constants.included())
    read = [host_slice.header_words(stamp) for stamp in headers]
    elsewhere = [words for words in read if words is not None]
    if len(elsewhere) < len(read):
        return []  # a header that cannot be read now: what it spells is unknown
    configured = " ".join(f"{name} {body}" for name, body in unit.configured_macros).encode()
    elsewhere.append(host_slice.words_of(configured))
    regions = [(u.start_byte, u.end_byte) for u in units]
    return host_slice.unread_lines(unit.root, regions, [], elsewhere, unit.constants.macro_names())


def _pieces(text: bytes) -> list[_Piece]:
    """The preprocessor lines of `text` (with their continuations: always kept), and the pieces of the
    code between them ending at `;`, `{` or `}` (see `_Piece`)."""
    found: list[_Piece] = []
    code: list[bytes] = []
    directive = False  # the line before continues a preprocessor line
    for line in text.split(b"\n"):
        if directive or line.lstrip().startswith(b"#"):
            if code:
                found += _code_pieces(b"\n".join(code))
                code = []
            found.append((line, frozenset(_WORD.findall(line)), True, frozenset()))
            directive = line.endswith(b"\\")
        else:
            code.append(line)
    found += _code_pieces(b"\n".join(code))
    return found


def _split(text: bytes) -> list[bytes]:
    """`text` cut after each `;`, `{` and `}` outside parentheses (a call's arguments, a `for` header,
    a lambda passed to a call stay whole)."""
    pieces, start, depth = [], 0, 0
    for found in _DELIMITER.finditer(text):
        mark = found[0]
        if mark == b"(":
            depth += 1
        elif mark == b")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(text[start : found.end()])
            start = found.end()
    pieces.append(text[start:])
    return pieces


def _code_pieces(text: bytes) -> list[_Piece]:
    pieces = (piece.strip() for piece in _split(text))  # (the space around a statement says nothing)
    found: list[_Piece] = []
    for piece in pieces:
        if piece:
            spelling = frozenset(_WORD.findall(piece)) - _KEYWORDS
            plain = _COMMENT.sub(lambda m: m[0] if m[0][:1] in b"\"'" else b" ", piece)
            writes = spelling if b"&" in plain else frozenset(_ARGUMENT.findall(plain))
            found.append((piece, spelling, False, writes))
    return found


class _Relative:
    """A value with each span inside one of `units` written relative to that unit (its index, and
    the offsets of its bytes and lines); a span outside them is refused. A fact met again (the loops
    of a region are those of the constructs inside it too) is read once."""

    def __init__(self, units: list[Span]) -> None:
        self.units = units
        self._read: dict[int, tuple[object, object]] = {}  # id -> (the value, kept alive; what it reads as)

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN or value is None:
            return value
        if kind is Span:
            for index, unit in enumerate(self.units):
                if unit.contains(value):
                    return (
                        index,
                        value.start_byte - unit.start_byte,
                        value.end_byte - unit.start_byte,
                        value.line - unit.line,
                        value.column_byte,
                        value.end_line - unit.line,
                        value.end_column_byte,
                    )
            raise ValueError(f"span {value} outside the component")
        if kind is tuple:
            return tuple([v if type(v) in _PLAIN or v is None else self.value(v) for v in value])
        names = _field_names(kind)
        if names is None:
            return value
        seen = self._read.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        view = (kind.__name__, tuple([self.value(getattr(value, name)) for name in names]))
        self._read[id(value)] = (value, view)
        return view


_PLAIN = frozenset({str, int, float, bool})
_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (None for any other type), remembered."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _FIELD_NAMES[kind]
