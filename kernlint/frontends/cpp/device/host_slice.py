"""Host statements that no device component's facts can depend on, left out of the reuse keys (`reuse`).

A component's key holds the host text, so a statement typed in `main` would make every kernel new.
Most such statements cannot change a kernel's facts:
what a component's analysis reads outside its own code it finds by name (constants and their
definitions, macro bodies, declared types, writes to a variable, a template's instantiations, the
overloads of a call), starting from the names its code spells and going on through the names the
definitions it reads spell. A statement is *unread* when it is

- a declaration or an expression statement directly in a block of a host function (a child of a
  `compound_statement` outside every device region), on lines of its own, not continued from the line
  before or onto the line after;
- free of what is not read by name: no lambda, block, class or enum body, preprocessor line, syntax
  error, launch or local allocation, and no keyword beyond types, qualifiers, casts and operators;
- and spells no name (a word that is not such a keyword) that is spelt anywhere else: in the file
  outside unread statements, in the quoted headers it reads, or in the configured macros.

Then no chain of names from any component reaches it, and the file without its lines gives the same
facts. Its lines are cut from the host text of the key, which is then the text of that file: two
documents with the same key are two such files' same text, whose facts are the same. A file whose tree
holds a syntax error anywhere cuts nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

import tree_sitter

Node = tree_sitter.Node

_WORD = re.compile(rb"[A-Za-z_]\w*")
# Keywords that name no entity: types, qualifiers, literals, casts and operators. A statement may
# spell them and stay unread; any other keyword (`return`, `throw`, `goto`, `struct`, `using`, `asm`,
# `co_await`, …) keeps it. A keyword the file or its headers #define is a name like any other.
_PLAIN_KEYWORDS = frozenset(
    b"alignof and and_eq auto bitand bitor bool char char8_t char16_t char32_t compl const const_cast "
    b"consteval constexpr constinit decltype delete double dynamic_cast extern false float inline int long "
    b"mutable new noexcept not not_eq nullptr or or_eq register reinterpret_cast short signed sizeof "
    b"static static_cast thread_local true typeid typename unsigned void volatile wchar_t xor xor_eq".split()
)
_OTHER_KEYWORDS = frozenset(
    b"alignas asm __asm __asm__ break case catch class concept continue co_await co_return co_yield default "
    b"do else enum explicit export for friend goto if namespace operator private protected public requires "
    b"return static_assert struct switch template throw try typedef union using virtual while".split()
)
_REFUSED = _OTHER_KEYWORDS | {b"this"}
# Bytes that may spell a name the words above do not see whole: `$`, a universal character name, UTF-8.
_ODD = re.compile(rb"[$\\\x80-\xff]")
_Candidate = tuple[int, int, Node, set[bytes]]  # (start, end, statement, the names it spells)
_STATEMENTS = frozenset({"declaration", "expression_statement"})
# Nodes whose children may hold blocks of host code: the walk goes down these only.
_HOLDERS = frozenset(
    {
        "translation_unit",
        "function_definition",
        "template_declaration",
        "namespace_definition",
        "declaration_list",
        "compound_statement",
        "if_statement",
        "else_clause",
        "for_statement",
        "for_range_loop",
        "while_statement",
        "do_statement",
        "switch_statement",
        "case_statement",
        "try_statement",
        "catch_clause",
        "labeled_statement",
    }
)
# What an unread statement may not hold: code of its own, type bodies, directives.
_NOT_READ_BY_NAME = frozenset(
    {
        "lambda_expression",
        "compound_statement",
        "field_declaration_list",
        "enumerator_list",
        "declaration_list",
        "ERROR",
    }
)


def unread_lines(
    root: Node,
    regions: list[tuple[int, int]],
    kept: Iterable[tuple[int, int]],
    elsewhere: Iterable[frozenset[bytes]],
    macros: frozenset[str],
) -> list[tuple[int, int]]:
    """The byte ranges (whole lines, each with its line break) of the unread statements of the file
    at `root`, in order. `regions`: the device regions, sorted (start, end); `kept`: spans no unread
    statement may overlap (launches, local allocations); `elsewhere`: the names spelt outside the file
    (its headers, the configured macros); `macros`: every macro name the file reads."""
    if root.has_error:
        return []
    text = root.text or b""
    plain = _PLAIN_KEYWORDS - {name.encode() for name in macros}
    starts = [start for start, _end in regions]
    statements = sorted(_host_statements(root, regions, starts), key=lambda node: node.start_byte)
    if not statements:
        return []
    rest, at = [], 0
    candidates: list[_Candidate] = []
    for statement in statements:
        start, end = statement.start_byte, statement.end_byte
        rest.append(text[at:start])
        at = end
        candidates.append((start, end, statement, set(_WORD.findall(text, start, end)) - plain))
    rest.append(text[at:])
    spelt = set(_WORD.findall(b"\n".join(rest)))
    for words in elsewhere:
        spelt |= words
    # The checks below each fail for few statements, and only those the names leave unread need them:
    # one that fails is read like the rest of the file, its names spelt, and the names decide again.
    guarded = sorted(kept)
    unread = _closure(candidates, spelt)
    cuts: dict[int, tuple[int, int]] = {}  # statement start -> its lines
    while True:
        failed = []
        for candidate in unread:
            start, end, statement, names = candidate
            if start in cuts:
                continue
            lines = _own_lines(text, start, end)
            if (
                lines is None
                or names & _REFUSED
                or _ODD.search(text, start, end)
                or _overlaps(guarded, start, end)
                or not _read_by_name_only(statement)
            ):
                failed.append(candidate)
            else:
                cuts[start] = lines
        if not failed:
            return [cuts[start] for start, _end, _statement, _words in unread]
        for candidate in failed:
            spelt |= candidate[3]
        gone = {candidate[0] for candidate in failed}
        unread = _closure([c for c in unread if c[0] not in gone], spelt)


def words_of(text: bytes) -> frozenset[bytes]:
    """The names `text` spells (words, keywords among them)."""
    return frozenset(_WORD.findall(text))


def without(text: bytes, offset: int, cuts: list[tuple[int, int]]) -> bytes:
    """`text` (starting at byte `offset` of the file) without the file's byte ranges `cuts` (sorted)."""
    if not cuts:
        return text
    end_of_text = offset + len(text)
    kept, at = [], offset
    for start, end in cuts[bisect_right(cuts, (offset, -1)) :]:
        if start >= end_of_text:
            break
        if end > end_of_text:
            continue  # not wholly in this piece (never for an unread statement's lines)
        kept.append(text[at - offset : start - offset])
        at = end
    if at == offset:
        return text
    kept.append(text[at - offset :])
    return b"".join(kept)


def _closure(candidates: list[_Candidate], spelt: set[bytes]) -> list[_Candidate]:
    """The candidates that spell no name of `spelt`, after adding to it the names of each that does,
    until no more do (`spelt` grows in place)."""
    pending = candidates
    while True:
        still = []
        for candidate in pending:
            if candidate[3] & spelt:
                spelt |= candidate[3]
            else:
                still.append(candidate)
        if len(still) == len(pending):
            return still
        pending = still


def _host_statements(root: Node, regions: list[tuple[int, int]], starts: list[int]) -> Iterable[Node]:
    """Declarations and expression statements directly in a block of host code, outside `regions`."""
    stack = [root]
    while stack:
        node = stack.pop()
        block = node.type == "compound_statement"
        for child in node.children:
            kind = child.type
            if block and kind in _STATEMENTS:
                if not _in_region(regions, starts, child.start_byte):
                    yield child
            elif kind in _HOLDERS and not _in_region(regions, starts, child.start_byte):
                stack.append(child)


def _in_region(regions: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    k = bisect_right(starts, at) - 1
    return k >= 0 and at < regions[k][1]


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    k = bisect_right(spans, (end, -1))
    return any(s < end and start < e for s, e in spans[:k])


def _own_lines(text: bytes, start: int, end: int) -> tuple[int, int] | None:
    """The lines `text[start:end]` fills alone (start of the first, past the line break of the last),
    or None when it shares one with other code or a line is continued into or out of it."""
    first = text.rfind(b"\n", 0, start) + 1
    if text[first:start].strip():
        return None
    newline = text.find(b"\n", end)
    last = len(text) if newline < 0 else newline + 1
    after = text[end:last].strip()
    if after and not (after.startswith(b"//") and b"/*" not in after):
        return None
    before = text[text.rfind(b"\n", 0, max(first - 1, 0)) + 1 : first] if first else b""
    if text[start:last].rstrip().endswith(b"\\") or before.rstrip().endswith(b"\\"):
        return None
    return first, last


def _read_by_name_only(statement: Node) -> bool:
    """Whether `statement` holds nothing that is read other than by name (see the module docstring)."""
    if statement.has_error:
        return False
    stack = [statement]
    while stack:
        node = stack.pop()
        if node.type in _NOT_READ_BY_NAME or node.type.startswith("preproc") or node.is_missing:
            return False
        stack.extend(node.children)
    return True


_HEADER_WORDS: dict[tuple[str, int, int], frozenset[bytes]] = {}
_HEADERS_KEPT = 64


def header_words(stamp: tuple[str, int, int]) -> frozenset[bytes] | None:
    """The names a header spells, by its (path, size, modification time), read once per version
    (None: it cannot be read now; a header missing at the stamp spells nothing, as it gave nothing)."""
    found = _HEADER_WORDS.get(stamp)
    if found is None:
        if stamp[1] < 0:
            return frozenset()
        try:
            with open(stamp[0], "rb") as header:
                found = words_of(header.read())
        except OSError:
            return None
        if len(_HEADER_WORDS) >= _HEADERS_KEPT:
            _HEADER_WORDS.pop(next(iter(_HEADER_WORDS)))
        _HEADER_WORDS[stamp] = found
    return found
