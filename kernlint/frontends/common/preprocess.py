"""Preprocessing both tree-sitter front-ends apply before parsing, keeping every byte offset.

kernlint does not run the preprocessor: tree-sitter sees every arm of `#if`/`#else`. What it can do
soundly is decide the arms whose condition is known, from the configured `defines` (`-D`) and the
file's own unconditional `#define`/`#undef` lines: an arm known not to be compiled is blanked, and an
arm whose condition is unknown is remembered, so that a value defined differently in two arms is
taken as unknown and a construct written once per arm is reported once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise

from kernlint.analysis.consteval import evaluate
from kernlint.records import record

_IF0 = re.compile(rb"^[ \t]*#[ \t]*if[ \t]+0\b", re.M)
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)
_DIRECTIVE = re.compile(
    rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|define|undef)\b((?:[^\n]*\\\r?\n)*[^\n]*)", re.M
)
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")
_COMMENT = re.compile(r"/\*.*?\*/|//.*", re.S)
_UNKNOWN = "__kernlint_unknown__"  # an identifier no resolver knows


def directive_matches(pattern: re.Pattern[bytes], data: bytes) -> Iterator[re.Match[bytes]]:
    """`pattern.finditer(data)` for a multi-line pattern (`re.M`) that begins `^[ \t]*#`: it can only
    match at the start of a line whose first other character is `#`, so only those starts are tried
    (`re` tries a `^` of a multi-line pattern at every byte: a few times slower over a file)."""
    end = 0
    at = data.find(b"#")
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        if start >= end and not data[start:at].strip(b" \t"):
            match = pattern.match(data, start)
            if match is not None:
                yield match
                end = match.end()
        at = data.find(b"#", at + 1)


@record(slots=True)
class ConditionalArm:
    """One arm of an `#if`/`#ifdef` … `#endif` group: the bytes of its body and whether it is compiled
    (True), not compiled (False) or unknown (None)."""

    group: int  # byte offset of the group's opening directive: arms with the same group are alternatives
    index: int  # 0 for the `#if` arm, then one per `#elif`/`#else`
    start: int  # the body's first byte (the line after the directive)
    end: int  # where the next directive of the group starts
    state: bool | None

    def contains(self, position: int) -> bool:
        return self.start <= position < self.end


class _Macros:
    """What the conditions can know about macros at a point of the file: configured ones, then the
    file's own `#define`/`#undef` lines met in code known to be compiled."""

    def __init__(self, defines: Mapping[str, str]) -> None:
        self.values: dict[str, str] = dict(defines)
        self.undefined: set[str] = set()
        self.configured = frozenset(defines)

    def define(self, line: str, certain: bool) -> None:
        match = re.match(r"\s*([A-Za-z_]\w*)(\()?\s*(.*)", line, re.S)
        if match is None or match.group(1) in self.configured:
            return  # a -D given to the compiler wins over the file's own default (as in CppConstants)
        name = match.group(1)
        self.undefined.discard(name)
        if certain and match.group(2) is None:
            self.values[name] = _COMMENT.sub(" ", match.group(3)).replace("\\\n", " ").strip()
        else:
            self.values.pop(name, None)  # defined only in some arm, or function-like: unknown

    def undefine(self, line: str, certain: bool) -> None:
        match = re.match(r"\s*([A-Za-z_]\w*)", line)
        if match is None or match.group(1) in self.configured:
            return
        self.values.pop(match.group(1), None)
        if certain:
            self.undefined.add(match.group(1))
        else:
            self.undefined.discard(match.group(1))

    def is_defined(self, name: str) -> bool | None:
        if name in self.values:
            return True
        return False if name in self.undefined else None

    def condition(self, text: str) -> bool | None:
        """The truth of an `#if`/`#elif` expression, or None when any part of it is unknown."""

        def defined(match: re.Match[str]) -> str:
            known = self.is_defined(match.group(1) or match.group(2))
            return _UNKNOWN if known is None else str(int(known))

        expression = _DEFINED.sub(defined, _COMMENT.sub(" ", text).replace("\\\n", " "))
        value = evaluate(expression, lambda name: self._value(name, 0))
        return None if value is None else bool(value)

    def _value(self, name: str, depth: int) -> int | None:
        if name in self.undefined:
            return 0  # the preprocessor reads an undefined name as 0
        text = self.values.get(name)
        if text is None or depth > 8:
            return None
        return evaluate(text, lambda inner: self._value(inner, depth + 1))


@dataclass
class _Group:
    start: int
    live: bool | None  # the state of the code around the group
    arms: list[ConditionalArm]
    taken: bool = False  # an earlier arm is known to be compiled
    maybe: bool = False  # an earlier arm may be compiled


def conditional_arms(data: bytes, defines: Mapping[str, str] | None = None) -> list[ConditionalArm]:
    """Every arm of every conditional group, in file order, with what is known of its condition."""
    if b"#" not in data:
        return []
    macros = _Macros(defines or {})
    arms: list[ConditionalArm] = []
    stack: list[_Group] = []

    def live() -> bool | None:
        states = [group.arms[-1].state if group.arms else group.live for group in stack]
        return False if False in states else (None if None in states else True)

    def open_arm(group: _Group, value: bool | None, directive_end: int) -> None:
        if group.live is False or group.taken or value is False:
            state: bool | None = False
        elif value is True:
            state = None if group.maybe else True
            group.taken = True
        else:
            state = None
            group.maybe = True
        body = data.find(b"\n", directive_end)
        group.arms.append(
            ConditionalArm(group.start, len(group.arms), len(data) if body < 0 else body + 1, len(data), state)
        )

    def close_arm(group: _Group, at: int) -> None:
        if group.arms:
            arm = group.arms[-1]
            group.arms[-1] = ConditionalArm(arm.group, arm.index, arm.start, max(arm.start, at), arm.state)
            arms.append(group.arms[-1])

    for match in directive_matches(_DIRECTIVE, data):
        word = match.group(1).decode()
        rest = match.group(2).decode("utf-8", errors="replace")
        if word in ("define", "undef"):
            state = live()
            if state is not False:
                (macros.define if word == "define" else macros.undefine)(rest, certain=state is True)
            continue
        if word in ("if", "ifdef", "ifndef"):
            group = _Group(match.start(), live(), [])
            stack.append(group)
            open_arm(group, _arm_value(word, rest, macros), match.end())
        elif not stack:
            continue  # an unbalanced #elif/#else/#endif: nothing to attach it to
        elif word == "endif":
            group = stack.pop()
            close_arm(group, match.start())
        else:
            group = stack[-1]
            close_arm(group, match.start())
            open_arm(group, True if word == "else" else _arm_value(word[2:], rest, macros), match.end())
    while stack:
        close_arm(stack.pop(), len(data))
    return sorted(arms, key=lambda arm: (arm.start, arm.group))


def _arm_value(word: str, rest: str, macros: _Macros) -> bool | None:
    """What `#if`/`#ifdef`/`#ifndef` (or their `#elif` forms, `el` removed) with argument `rest` gives."""
    if word == "if":
        return macros.condition(rest)
    name = re.match(r"\s*([A-Za-z_]\w*)", rest)
    known = macros.is_defined(name.group(1)) if name else None
    return known if known is None or word == "ifdef" else not known


def blank_disabled_blocks(data: bytes, arms: list[ConditionalArm] | None = None) -> bytes:
    """Replace the body of every arm known not to be compiled with spaces (newlines kept, so every
    byte offset and line number stays the same). Dead code is neither a fact nor a syntax error.
    Without `arms`, only `#if 0` blocks are known."""
    if arms is None:
        return _blank_if0(data)
    dead = [arm for arm in arms if arm.state is False and arm.end > arm.start]
    if not dead:
        return data
    out = bytearray(data)
    for arm in dead:
        out[arm.start : arm.end] = re.sub(rb"[^\n]", b" ", data[arm.start : arm.end])
    return bytes(out)


def _blank_if0(data: bytes) -> bytes:
    if not _IF0.search(data):
        return data
    out = bytearray(data)
    position = 0
    while (start := _IF0.search(data, position)) is not None:
        depth = 0
        end = len(data)
        for directive in _CONDITIONAL.finditer(data, start.end()):
            word = directive.group(1)
            if word in (b"if", b"ifdef", b"ifndef"):
                depth += 1
            elif word == b"endif" and depth > 0:
                depth -= 1
            elif depth == 0:  # #else / #elif / #endif of the `#if 0` itself
                end = directive.start()
                break
        body_start = data.find(b"\n", start.end())
        if body_start != -1 and body_start < end:
            out[body_start:end] = re.sub(rb"[^\n]", b" ", data[body_start:end])
        position = max(end, start.end())
    return bytes(out)


def alternatives(arms: list[ConditionalArm], first: int, second: int) -> bool:
    """Whether positions `first` and `second` lie in different arms of one group whose choice is not
    known: code that is never compiled together."""
    around_first = {(arm.group, arm.index) for arm in arms if arm.state is None and arm.contains(first)}
    if not around_first:
        return False
    return any(
        arm.state is None
        and arm.contains(second)
        and (arm.group, arm.index) not in around_first
        and any(group == arm.group for group, _ in around_first)
        for arm in arms
    )


def counterparts(arms: list[ConditionalArm], positions: list[int]) -> list[int | None]:
    """For each of `positions` (constructs of one kind, in file order), the index of the construct it
    restates in another arm of the same unknown `#if`, or None: the n-th construct of an arm restates the
    n-th of the group's first arm that has any, when both arms have as many (`#ifdef USE_GPU` /
    `#else` pairs that build the same queue or launch the same kernel with other arguments)."""
    unknown = [arm for arm in arms if arm.state is None]
    members: dict[tuple[int, int], list[int]] = {}
    for index, position in enumerate(positions):
        inside = [arm for arm in unknown if arm.contains(position)]
        if inside:
            arm = max(inside, key=lambda a: a.start)  # the innermost arm
            members.setdefault((arm.group, arm.index), []).append(index)
    found: list[int | None] = [None] * len(positions)
    first: dict[int, list[int]] = {}
    for (group, _arm), indices in sorted(members.items()):
        leader = first.setdefault(group, indices)
        if leader is not indices and len(leader) == len(indices):
            for mine, theirs in zip(indices, leader):
                found[mine] = theirs
    return found


_DIRECTIVE_LINE = re.compile(rb"^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*", re.M)
_DEFINES = re.compile(rb"^[ \t]*#[ \t]*(?:define|undef)\b", re.M)
_CODE_NOISE = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)


def _nesting(text: bytes) -> tuple[int, int]:
    """How far `text` opens braces and parentheses (closes count negative), comments and literals aside."""
    code = _CODE_NOISE.sub(b" ", text)
    return code.count(b"{") - code.count(b"}"), code.count(b"(") - code.count(b")")


def split_groups(data: bytes, arms: list[ConditionalArm], near: list[tuple[int, int]]) -> set[int]:
    """The `#if` groups a parser reading every arm at once cannot read: a directive of theirs lies in
    one of the byte ranges `near` (around where the parse failed: a directive in the middle of an
    argument list), or their condition is unknown and they have two arms or more that open or close braces or
    parentheses unevenly (`#ifdef GPU` / `q.submit([&](handler &h) {` / `#else` / `{` / `#endif`).
    A group that defines macros is left alone: its arms' values stay unknown."""
    by_group: dict[int, list[ConditionalArm]] = {}
    for arm in arms:
        by_group.setdefault(arm.group, []).append(arm)
    found = set()
    for group, members in by_group.items():
        if all(arm.state is False for arm in members):
            continue  # dead code, blanked already
        if any(_DEFINES.search(data, arm.start, arm.end) for arm in members):
            continue  # `#define`s never break a parse, and choosing an arm would choose their values
        members.sort(key=lambda arm: arm.index)
        directives = [group, *(arm.end for arm in members)]
        if any(lo <= at <= hi for at in directives for lo, hi in near):
            found.add(group)
        elif len(members) > 1 and all(arm.state is None for arm in members):
            # (one arm alone reads as it did: `#ifdef T` / `for (…) {` … `#ifdef T` / `}`)
            nests = {_nesting(data[arm.start : arm.end]) for arm in members}
            if len(nests) > 1 or nests != {(0, 0)}:
                found.add(group)
    return found


def one_arm(data: bytes, arms: list[ConditionalArm], groups: set[int], choice: int = 0) -> bytes:
    """`data` with each of `groups` reduced to one arm, the `choice`-th when the group has it and it
    may be compiled (else the first that may be): the other arms and every directive line of the
    group blanked (newlines kept, so offsets and lines stay), as if the preprocessor had chosen it."""
    if not groups:
        return data
    out = bytearray(data)
    for group in groups:
        kept = chosen_arm(arms, group, choice)
        members = sorted((arm for arm in arms if arm.group == group), key=lambda arm: arm.index)
        end_line = data.find(b"\n", members[-1].end)
        spans = [(group, members[0].start), (members[-1].end, len(data) if end_line < 0 else end_line)]
        spans += [(before.end, after.start) for before, after in pairwise(members)]
        spans += [(arm.start, arm.end) for arm in members if arm is not kept]
        for lo, hi in spans:
            out[lo:hi] = re.sub(rb"[^\n]", b" ", data[lo:hi])
    return bytes(out)


def chosen_arm(arms: list[ConditionalArm], group: int, choice: int) -> ConditionalArm:
    """The arm `one_arm` keeps of `group` for `choice`."""
    members = sorted((arm for arm in arms if arm.group == group), key=lambda arm: arm.index)
    live = [arm for arm in members if arm.state is not False]
    return next((arm for arm in live if arm.index == choice), live[0])


def blank_directive_comments(data: bytes) -> bytes:
    """`data` with the block comments inside preprocessor lines blanked (newlines kept): the C grammar
    ends a directive at such a comment and reads the rest of the line as code
    (`#pragma omp target map(to: a) /* in */ map(from: b)`). A comment that runs on past its line is
    left alone: blanking it would cut the directive short."""
    if b"/*" not in data:
        return data
    out = bytearray(data)
    for line in directive_matches(_DIRECTIVE_LINE, data):
        at, end = line.start(), line.end()
        while (start := data.find(b"/*", at, end)) >= 0:
            close = data.find(b"*/", start + 2, end)
            if close < 0:
                break
            out[start : close + 2] = re.sub(rb"[^\n]", b" ", data[start : close + 2])
            at = close + 2
    return bytes(out)
