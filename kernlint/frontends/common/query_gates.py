"""Which patterns of a query file cannot match a given text, read off their text predicates.

A pattern such as `((call_expression function: (_) @callee) (#any-of? @callee "memcpy" "memset"))`
matches only where the source holds one of its words. A process that reads few files compiles, per
query file, only the patterns whose words its file holds (`treesitter.bundle`): every query costs a
walk of the grammar per pattern, and most SYCL patterns are dead weight in an OpenMP file.

Only what the predicate proves counts as a pattern's need: `#eq?` and `#any-of?` with literal strings
(one of which the text must hold), and `#match?` with the word list `(^|:)(word|word…)(<|$| )` (one of
which the text must hold where a name starts, below); the predicate's capture must be one that every
match has (tree-sitter holds a predicate on an absent capture true). Anything else gives the pattern
no need: it is always kept.

Where a name starts: the word list matches a node's text only at its start or after a `:`, so in the
file the word follows a `:` or starts a token. A token never starts right after a letter, digit or
`_` of an identifier or keyword (the lexer takes the longest name), only after a number's (`1id`,
`0x1fid`: a number then a suffix). So the file holds the word after a character that is none of
those, or at the end of a run of them that begins with a digit; `void` does not hold `id` there.
"""

from __future__ import annotations

import re
from functools import cache

_TOKEN = re.compile(
    r"""(?P<space>\s+|;[^\n]*)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<capture>@[\w.-]+)|(?P<field>[\w-]+:)"""
    r"""|(?P<negated>![\w-]+)|(?P<word>[#\w.?!-]+)|(?P<punct>[()\[\]?*+])"""
)
# A #match? regex that is a plain list of words between SYCL-style name bounds.
_WORD_LIST = re.compile(r"\(\^\|:\)\(([A-Za-z_]\w*(?:\|[A-Za-z_]\w*)*)\)\(<\|\$\| \)")

#: A pattern matches only where the text holds one of these words (where a name starts: True).
Need = tuple[bool, tuple[str, ...]]


class _Item:
    """A node, a grouping or an alternation of a pattern (or a leaf: a string, a wildcard, an anchor,
    a field negation; or a predicate, with its name and arguments), with its captures and quantifier."""

    __slots__ = ("arguments", "captures", "children", "kind", "name", "quantifier")

    def __init__(self, kind: str, children: list[_Item], name: str = "", arguments: tuple[str, ...] = ()) -> None:
        self.kind = kind  # "node", "group", "alternation", "predicate" or "leaf"
        self.children = children
        self.captures: list[str] = []
        self.quantifier = ""
        self.name = name  # a predicate's name (`#match?`)
        self.arguments = arguments  # a predicate's arguments: captures (`@x`) and strings (`"x"`)


def _tokens(source: str) -> list[tuple[str, str, int]]:
    found = []
    position = 0
    while position < len(source):
        token = _TOKEN.match(source, position)
        if token is None:
            raise ValueError(f"unreadable query text at {position}: {source[position : position + 20]!r}")
        if token.lastgroup != "space":
            found.append((token.lastgroup or "", token.group(), position))
        position = token.end()
    return found


_END = ("end", "", -1)


class _Reader:
    def __init__(self, source: str) -> None:
        self.tokens = _tokens(source)
        self.at = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.at] if self.at < len(self.tokens) else _END

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def item(self) -> _Item:
        kind, text, _ = self.take()
        if kind == "field":  # `name: (child)`: the field names where the child is, not whether it is
            return self.item()
        if text == "(":
            head = self.peek()
            if head[0] == "word" and head[1].startswith("#"):
                self.take()
                arguments = []
                while self.peek()[1] not in (")", ""):
                    arguments.append(self.take()[1])
                self.take()
                return _Item("predicate", [], name=head[1], arguments=tuple(arguments))
            if head[0] == "word":
                self.take()
            found = _Item("node" if head[0] == "word" else "group", self._until(")"))
        elif text == "[":
            found = _Item("alternation", self._until("]"))
        elif kind in ("string", "word", "negated"):
            found = _Item("leaf", [])
        else:
            raise ValueError(f"unexpected {text!r} in a query pattern")
        while (after := self.peek())[0] == "capture" or after[1] in ("?", "*", "+"):
            if after[0] == "capture":
                found.captures.append(self.take()[1][1:])
            else:
                found.quantifier = self.take()[1]
        return found

    def _until(self, closing: str) -> list[_Item]:
        children = []
        while self.peek()[1] != closing:
            if self.peek() is _END:
                raise ValueError(f"a query pattern lacks its {closing!r}")
            children.append(self.item())
        self.take()
        return children


def split_patterns(source: str) -> list[tuple[int, int]]:
    """The (start, end) character offsets of each top-level pattern of a query file's text."""
    reader = _Reader(source)
    spans = []
    while reader.peek() is not _END:
        start = reader.peek()[2]
        reader.item()
        end = reader.tokens[reader.at - 1]
        spans.append((start, end[2] + len(end[1])))
    return spans


def _always_captured(item: _Item, capture: str) -> bool:
    """Whether every match of `item` captures `capture`."""
    if item.quantifier in ("?", "*"):
        return False
    if capture in item.captures:
        return True
    if item.kind == "alternation":
        return bool(item.children) and all(_always_captured(child, capture) for child in item.children)
    return any(_always_captured(child, capture) for child in item.children)


def _predicates(item: _Item) -> list[_Item]:
    found = [item] if item.kind == "predicate" else []
    for child in item.children:
        found += _predicates(child)
    return found


def _words(predicate: _Item) -> Need | None:
    """The words one of which the text a predicate tests must hold; None: it proves no such need."""
    arguments = predicate.arguments
    if len(arguments) < 2 or not arguments[0].startswith("@"):
        return None
    strings = arguments[1:]
    if not all(s.startswith('"') and "\\" not in s for s in strings):
        return None
    values = tuple(s[1:-1] for s in strings)
    if predicate.name in ("#eq?", "#any-of?") and all(values):
        return False, values
    if predicate.name == "#match?" and len(values) == 1 and (listed := _WORD_LIST.fullmatch(values[0])):
        return True, tuple(listed.group(1).split("|"))
    return None


def pattern_needs(pattern: str) -> tuple[Need, ...]:
    """What a pattern's text predicates prove its matches need: for each Need, one of its words the
    source must hold for the pattern to match at all."""
    reader = _Reader(pattern)
    root = reader.item()
    needs = []
    for predicate in _predicates(root):
        words = _words(predicate)
        if words is not None and _always_captured(root, predicate.arguments[0][1:]):
            needs.append(words)
    return tuple(needs)


def may_match(needs: tuple[Need, ...], text: bytes) -> bool:
    """Whether a pattern with these needs can match a source of this text."""
    return all(_holds(starts_a_name, words, text) for starts_a_name, words in needs)


def _holds(starts_a_name: bool, words: tuple[str, ...], text: bytes) -> bool:
    if not starts_a_name:
        return any(word.encode("utf-8") in text for word in words)
    return _name_start(words).search(text) is not None


@cache
def _name_start(words: tuple[str, ...]) -> re.Pattern[bytes]:
    """Where one of `words` may start a token: after no letter, digit or `_`, or after a number."""
    listed = "|".join(re.escape(word) for word in words)
    return re.compile(f"(?<![A-Za-z0-9_])(?:[0-9][A-Za-z0-9_]*)?(?:{listed})".encode())
