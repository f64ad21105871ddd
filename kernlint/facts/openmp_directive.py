"""An OpenMP directive as written: the result of the directive parser (`kernlint.frontends.openmp`),
the same from C/C++ and Fortran, and what `OmpConstruct.directive` holds.

Expressions stay source text: the shared constant evaluator reads them later, and a rule that
needs a value it cannot get stays silent rather than guess.
"""

from __future__ import annotations

from kernlint.facts.kinds import OmpLanguage
from kernlint.records import record

#: Map types; a `map` clause without one maps `tofrom`.
MAP_TYPES = frozenset({"to", "from", "tofrom", "alloc", "release", "delete", "storage"})
#: Map-type modifiers other than the type itself (`mapper(...)`/`iterator(...)` matched by prefix).
MAP_MODIFIERS = frozenset({"always", "close", "present", "ompx_hold", "self"})


@record
class OmpSection:
    """One subscript of a list item: C `[lower:length(:stride)]`, Fortran `lower:upper(:stride)`.

    A plain subscript (`b[i]`, `a(i)`) has `is_range=False` and its index in `lower`.  None
    means "not written"; what that defaults to differs by language (C lower bound 0, Fortran the
    declared bounds), so it is left to the consumer.  `base` is the subscripted variable.
    """

    base: str
    lower: str | None
    length: str | None
    upper: str | None
    text: str
    stride: str | None = None
    is_range: bool = True

    @property
    def index(self) -> str | None:
        """The element index of a plain subscript, else None."""
        return None if self.is_range else self.lower


@record
class OmpItem:
    """A list item: a variable (`a`, `s.x`, `s%x`, `/blk/`) with its subscripts in written order."""

    name: str
    dims: tuple[OmpSection, ...]
    text: str
    column: int  # 1-based column of the item in the logical directive line

    @property
    def is_section(self) -> bool:
        """Whether any dimension is a range (`a[0:n]`, `a(:)`), not just an element."""
        return any(d.is_range for d in self.dims)


@record
class OmpClause:
    """One clause as written: `name([modifiers:] args[: suffix])`.

    `modifiers` are the parts before a top-level `:` (map type and map-type modifiers, reduction
    operator, depend type, `if` directive-name, schedule modifiers, prefetch hint); `args` are the
    top-level comma-separated arguments; `suffix` is a trailing `: expr` (aligned alignment,
    linear step); `items` are `args` parsed as list items for clauses that take variable lists.
    Fortran keywords are lower-cased; expressions keep their spelling.
    """

    name: str
    modifiers: tuple[str, ...]
    args: tuple[str, ...]
    text: str
    column: int  # 1-based column of the clause name in the logical directive line
    items: tuple[OmpItem, ...] = ()
    suffix: str | None = None

    @property
    def expr(self) -> str | None:
        """The single argument of an expression clause (`thread_limit(256)` -> "256")."""
        return self.args[0] if self.args else None

    @property
    def map_type(self) -> str | None:
        """Map type of a `map` clause: the written one, "tofrom" if none, None if unknowable.

        Unknowable means a modifier we do not recognise (a macro, a typo) may be the type.
        """
        written = [m for m in self.modifiers if m.lower() in MAP_TYPES]
        if written:
            return written[-1].lower()
        for mod in self.modifiers:
            low = mod.lower()
            if low not in MAP_MODIFIERS and not low.startswith(("mapper", "iterator")):
                return None
        return "tofrom"


@record
class OmpMapItem:
    """One item of a `map` clause together with the clause's map type and modifiers."""

    map_type: str | None
    modifiers: tuple[str, ...]
    item: OmpItem
    clause: OmpClause


@record
class OmpDirective:
    """A parsed directive.  `kind` is the normalised name ("target teams distribute parallel
    for", "end target" ...); `leaves` its leaf constructs, e.g. ("target", "teams", "distribute",
    "parallel", "for"): a multi-word construct is one leaf ("target data"), and an `end X`
    directive has the leaves of X (check `is_end`). `arguments` is a directive-level parenthesised
    list (`critical(n)`, `declare target(a, b)`, `flush(x)`); `extension` is True for the `ompx`
    sentinel; `warnings` name clauses that are probably mistakes (unknown names close to a known
    clause or directive word, such as `paralel`, or a directive word in clause position).
    """

    kind: str
    clauses: tuple[OmpClause, ...]
    line: int
    end_line: int
    text: str
    language: OmpLanguage
    leaves: tuple[str, ...]
    extension: bool = False
    arguments: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # likely mistakes that still parse, e.g. a misspelt clause

    def has(self, name: str) -> bool:
        """Whether a clause of this name is present."""
        return any(c.name == name for c in self.clauses)

    def clause(self, name: str) -> OmpClause | None:
        """The first clause of this name, or None."""
        for c in self.clauses:
            if c.name == name:
                return c
        return None

    def clauses_named(self, name: str) -> tuple[OmpClause, ...]:
        """All clauses of this name in written order."""
        return tuple(c for c in self.clauses if c.name == name)

    @property
    def is_combined(self) -> bool:
        """Whether this is a combined or composite construct (more than one leaf)."""
        return len(self.leaves) > 1

    @property
    def is_end(self) -> bool:
        """Whether this closes a construct (Fortran `end ...`, C `end declare target` ...)."""
        return self.kind.startswith("end ")

    def items(self, name: str) -> tuple[OmpItem, ...]:
        """All list items of the clauses of this name."""
        return tuple(item for c in self.clauses if c.name == name for item in c.items)

    @property
    def map_items(self) -> tuple[OmpMapItem, ...]:
        """Every `map` list item with its map type, in written order."""
        return tuple(
            OmpMapItem(c.map_type, c.modifiers, item, c) for c in self.clauses if c.name == "map" for item in c.items
        )

    @property
    def prefetch_hint(self) -> str | None:
        """The hint of a prefetch `data` clause as written (absent means 0, a no-op)."""
        data = self.clause("data")
        return data.modifiers[0] if data is not None and data.modifiers else None

    @property
    def prefetch_sections(self) -> tuple[OmpItem, ...]:
        """The array sections or elements named by prefetch `data` clauses."""
        return self.items("data")


@record
class OmpParseError:
    """A directive that could not be parsed: message, 1-based line and column, the text."""

    message: str
    line: int
    column: int
    text: str
