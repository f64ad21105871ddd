"""Clause argument grammar: modifiers, argument lists, suffixes and list items (array sections).

Each known clause has a small spec saying whether it takes arguments and where its colon goes;
unknown clauses are kept with their raw comma-separated arguments.
"""

from __future__ import annotations

import re

from kernlint.facts.openmp_directive import OmpClause, OmpItem, OmpSection
from kernlint.frontends.openmp.lex import LexFailure, Structure
from kernlint.records import record

NO_ARGS, OPTIONAL, REQUIRED = 0, 1, 2


@record
class ClauseSpec:
    """How one clause's parenthesised text is shaped.

    form: "list" (comma list, no colon), "prefix" (`modifiers: list`), "postfix"
    (`list: suffix`), "if" (`[directive-name:] expr`), "linear" (postfix with `val(x)` forms).
    """

    args: int = REQUIRED
    form: str = "list"
    items: bool = False
    keyword_modifiers: bool = True  # lower-case modifiers in Fortran (False: they are expressions)
    keyword_arg: bool = False  # lower-case the first argument in Fortran (`schedule(STATIC)`)
    needs_modifier: bool = False
    split_words: bool = False  # accept `map(always to: x)` without commas


_EXPR = ClauseSpec()
_LIST = ClauseSpec(items=True)
_KEYWORD = ClauseSpec(keyword_arg=True)
_FLAG = ClauseSpec(args=NO_ARGS)
_OPT = ClauseSpec(args=OPTIONAL)
_REDUCTION = ClauseSpec(form="prefix", items=True, needs_modifier=True)

SPECS: dict[str, ClauseSpec] = {
    **{
        name: _EXPR
        for name in (
            "thread_limit",
            "num_teams",
            "num_threads",
            "simdlen",
            "safelen",
            "collapse",
            "priority",
            "final",
            "hint",
            "filter",
            "align",
            "allocator",
            "detach",
            "novariants",
            "nocontext",
            "sizes",
            "message",
            "holds",
            "absent",
            "contains",
            "ompx_dyn_cgroup_mem",
        )
    },
    **{
        name: _LIST
        for name in (
            "private",
            "firstprivate",
            "shared",
            "copyin",
            "copyprivate",
            "is_device_ptr",
            "use_device_ptr",
            "use_device_addr",
            "has_device_addr",
            "nontemporal",
            "uniform",
            "link",
            "enter",
            "inclusive",
            "exclusive",
            "local",
        )
    },
    **{
        name: _KEYWORD
        for name in (
            "default",
            "proc_bind",
            "bind",
            "device_type",
            "atomic_default_mem_order",
            "severity",
            "at",
            "fail",
            "dist_schedule",
        )
    },
    **{
        name: _FLAG
        for name in (
            "untied",
            "mergeable",
            "nogroup",
            "seq_cst",
            "acq_rel",
            "acquire",
            "release",
            "relaxed",
            "read",
            "write",
            "capture",
            "compare",
            "weak",
            "inbranch",
            "notinbranch",
            "threads",
            "simd",
            "full",
            "unified_address",
            "unified_shared_memory",
            "reverse_offload",
            "dynamic_allocators",
            "self_maps",
            "no_openmp",
            "no_openmp_routines",
            "no_parallelism",
        )
    },
    **{name: _OPT for name in ("nowait", "update", "ordered", "partial", "indirect")},
    **{name: _REDUCTION for name in ("reduction", "in_reduction", "task_reduction")},
    "map": ClauseSpec(form="prefix", items=True, split_words=True),
    "to": ClauseSpec(form="prefix", items=True, split_words=True),
    "from": ClauseSpec(form="prefix", items=True, split_words=True),
    "depend": ClauseSpec(form="prefix", items=True),
    "affinity": ClauseSpec(form="prefix", items=True),
    "doacross": ClauseSpec(form="prefix"),
    "lastprivate": ClauseSpec(form="prefix", items=True),
    "allocate": ClauseSpec(form="prefix", items=True, keyword_modifiers=False),
    "uses_allocators": ClauseSpec(form="prefix", keyword_modifiers=False),
    "schedule": ClauseSpec(form="prefix", keyword_arg=True),
    "device": ClauseSpec(form="prefix"),
    "grainsize": ClauseSpec(form="prefix"),
    "num_tasks": ClauseSpec(form="prefix"),
    "order": ClauseSpec(form="prefix", keyword_arg=True),
    "defaultmap": ClauseSpec(form="prefix", keyword_arg=True),
    "data": ClauseSpec(form="prefix", items=True, keyword_modifiers=False),
    "if": ClauseSpec(form="if"),
    "aligned": ClauseSpec(form="postfix", items=True),
    "linear": ClauseSpec(form="linear", items=True),
}
_UNKNOWN = ClauseSpec(args=OPTIONAL)

_WORD_RUN = re.compile(r"[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)+")
_LINEAR_WRAP = re.compile(r"(val|ref|uval)\s*\(", re.IGNORECASE)
_STEP = re.compile(r"step\s*\((.*)\)", re.IGNORECASE | re.DOTALL)
_DEPEND_LIST_TYPES = frozenset({"in", "out", "inout", "mutexinoutset", "inoutset", "depobj"})


class ClauseBuilder:
    """Turns one clause occurrence into an OmpClause, raising LexFailure on malformed text."""

    def __init__(self, struct: Structure, original: str, directive_names: frozenset[str]) -> None:
        self.s = struct
        self.text = struct.text
        self.original = original
        self.fortran = struct.fortran
        self.directive_names = directive_names

    # -- helpers -----------------------------------------------------------------------------
    def _piece(self, span: tuple[int, int]) -> str:
        return self.text[span[0] : span[1]]

    def _pieces(self, start: int, end: int, what: str, name: str) -> list[tuple[int, int]]:
        """Non-empty top-level comma pieces of a region; an empty one is an error."""
        spans = self.s.split_top(start, end)
        for a, b in spans:
            if a == b:
                raise LexFailure(f"empty {what} in clause '{name}'", a)
        return spans

    def _keyword(self, text: str) -> str:
        return text.lower() if self.fortran else text

    # -- entry -------------------------------------------------------------------------------
    def build(self, name: str, start: int, paren: int | None, end: int) -> OmpClause:
        """Clause `name` written at `start`; `paren` is its '(' offset or None; `end` past it."""
        spec = SPECS.get(name, _UNKNOWN)
        written = self.original[start:end]
        column = start + 1
        if paren is None:
            if spec.args == REQUIRED:
                raise LexFailure(f"clause '{name}' requires an argument", start)
            return OmpClause(name, (), (), written, column)
        inner_start, inner_end = self.s.trim(paren + 1, end - 1)
        if inner_start == inner_end:
            if spec.args == REQUIRED:
                raise LexFailure(f"clause '{name}' requires an argument", paren)
            return OmpClause(name, (), (), written, column)
        modifiers: list[str] = []
        suffix: str | None = None
        list_start, list_end = inner_start, inner_end
        form = spec.form
        if form == "prefix":
            modifiers, list_start = self._prefix(name, spec, inner_start, inner_end)
        elif form == "if":
            modifiers, list_start = self._if_modifier(inner_start, inner_end)
        elif form in ("postfix", "linear"):
            list_end, suffix, extra = self._postfix(name, form, inner_start, inner_end)
            modifiers += extra
        if form == "linear":
            wrapped = self._linear_wrapper(list_start, list_end)
            if wrapped is not None:
                modifiers.append(wrapped[0])
                list_start, list_end = wrapped[1], wrapped[2]
        if spec is _UNKNOWN:
            spans = self.s.split_top(list_start, list_end)
        else:
            what = "list item" if spec.items else "argument"
            a, b = self.s.trim(list_start, list_end)
            if a == b:
                where = "after ':'" if list_start != inner_start else "before ':'"
                raise LexFailure(f"clause '{name}' has no {what} {where}", a)
            spans = self._pieces(list_start, list_end, what, name)
        args = [self._piece(sp) for sp in spans]
        if spec.keyword_arg and self.fortran and args:
            args[0] = args[0].lower()
        items: tuple[OmpItem, ...] = ()
        if spec.items and self._wants_items(name, modifiers, args):
            items = tuple(self._item(a, b) for a, b in spans)
        return OmpClause(name, tuple(modifiers), tuple(args), written, column, items, suffix)

    # -- forms -------------------------------------------------------------------------------
    def _prefix(self, name: str, spec: ClauseSpec, start: int, end: int) -> tuple[list[str], int]:
        """Split `modifiers: list`; returns the modifiers and where the list starts."""
        colons = self.s.top_colons(start, end)
        if not colons:
            if spec.needs_modifier:
                raise LexFailure(f"clause '{name}' requires 'identifier: list'", start)
            return [], start
        colon = colons[0]
        if self.s.trim(start, colon)[0] == colon:
            raise LexFailure(f"clause '{name}' has an empty modifier before ':'", colon)
        modifiers: list[str] = []
        for span in self._pieces(start, colon, "modifier", name):
            text = self._piece(span)
            if spec.split_words and _WORD_RUN.fullmatch(text):
                modifiers += text.split()
            else:
                modifiers.append(" ".join(text.split()) if spec.keyword_modifiers else text)
        if self.fortran and spec.keyword_modifiers:
            modifiers = [m.lower() for m in modifiers]
        list_start = colon + 1
        if name == "data":  # the guide's syntax line shows `hint:,arrsect`; tolerate the comma
            a, _ = self.s.trim(list_start, end)
            if a < end and self.text[a] == ",":
                list_start = a + 1
        return modifiers, list_start

    def _if_modifier(self, start: int, end: int) -> tuple[list[str], int]:
        """`if([directive-name:] expr)`: only a real directive name counts as a modifier."""
        colons = self.s.top_colons(start, end)
        if colons:
            a, b = self.s.trim(start, colons[0])
            candidate = self._keyword(" ".join(self.text[a:b].split()))
            if candidate in self.directive_names:
                return [candidate], colons[0] + 1
        return [], start

    def _postfix(self, name: str, form: str, start: int, end: int) -> tuple[int, str | None, list[str]]:
        """Split `list: suffix` (aligned, linear); returns list end, suffix and modifiers."""
        colons = self.s.top_colons(start, end)
        if not colons:
            return end, None, []
        colon = colons[0]
        a, b = self.s.trim(colon + 1, end)
        if a == b:
            raise LexFailure(f"clause '{name}' has nothing after ':'", colon)
        if form != "linear":
            return colon, self.text[a:b], []
        step: str | None = None
        modifiers: list[str] = []
        for span in self._pieces(a, b, "modifier", name):
            text = self._piece(span)
            step_call = _STEP.fullmatch(text)
            if step_call:
                step = step_call.group(1).strip()
            elif text.lower() in ("val", "ref", "uval"):
                modifiers.append(text.lower() if self.fortran else text)
            else:
                step = text
        return colon, step, modifiers

    def _linear_wrapper(self, start: int, end: int) -> tuple[str, int, int] | None:
        """`linear(val(x, y): 1)` -> ("val", span of `x, y`)."""
        a, b = self.s.trim(start, end)
        match = _LINEAR_WRAP.match(self.text, a, b)
        if not match:
            return None
        paren = match.end() - 1
        if self.s.close_of.get(paren) != b - 1:
            return None
        kind = match.group(1)
        return (kind.lower() if self.fortran else kind), paren + 1, b - 1

    @staticmethod
    def _wants_items(name: str, modifiers: list[str], args: list[str]) -> bool:
        if name == "depend":  # sink/source vectors are iteration offsets, not variables
            return bool(modifiers) and all(
                m.lower() in _DEPEND_LIST_TYPES or m.lower().startswith("iterator") for m in modifiers
            )
        return True

    # -- list items --------------------------------------------------------------------------
    def _item(self, start: int, end: int) -> OmpItem:
        """Parse one list item: a name followed by C `[...]` groups or one Fortran `(...)`."""
        text = self.text
        closer = ")" if self.fortran else "]"
        groups: list[tuple[int, int]] = []
        name_end = end
        while name_end > start and text[name_end - 1] == closer:
            opener = self.s.open_of.get(name_end - 1)
            if opener is None or opener < start:
                break
            groups.insert(0, (opener, name_end - 1))
            name_end = self.s.trim(start, opener)[1]
            if self.fortran:
                break
        name = " ".join(text[start:name_end].split())
        if not name:
            raise LexFailure("list item has no variable name", start)
        dims: list[OmpSection] = []
        for opener, close in groups:
            if self.fortran:
                for span in self._pieces(opener + 1, close, "subscript", name):
                    dims.append(self._section(name, span))
            else:
                span = self.s.trim(opener + 1, close)
                if span[0] == span[1]:
                    raise LexFailure(f"empty array subscript on '{name}'", opener)
                dims.append(self._section(name, span))
        return OmpItem(name, tuple(dims), text[start:end], start + 1)

    def _section(self, base: str, span: tuple[int, int]) -> OmpSection:
        """One subscript: `i`, `lo:len[:stride]` (C) or `lo:hi[:stride]` (Fortran)."""
        a, b = span
        colons = self.s.top_colons(a, b)
        if len(colons) > 2:
            raise LexFailure(f"too many ':' in array section of '{base}'", colons[2])
        bounds = [a, *[c + 1 for c in colons]]
        stops = [*colons, b]
        parts: list[str | None] = []
        for lo, hi in zip(bounds, stops):
            x, y = self.s.trim(lo, hi)
            parts.append(self.text[x:y] if x < y else None)
        written = self.text[a:b]
        if len(parts) == 1:
            return OmpSection(base, parts[0], None, None, written, None, False)
        stride = parts[2] if len(parts) == 3 else None
        if self.fortran:
            return OmpSection(base, parts[0], None, parts[1], written, stride, True)
        return OmpSection(base, parts[0], parts[1], None, written, stride, True)
