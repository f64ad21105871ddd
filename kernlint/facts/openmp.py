"""Facts about OpenMP offload constructs, the same from C/C++ and Fortran. Owned by the OpenMP layer.

A front-end parses each directive (into `kernlint.facts.openmp_directive`), associates it with the loop or
block that follows it and describes that code in the neutral terms below: loops with their bounds, the
conditions around a directive, integer-linear index expressions and how each mapped variable is used.
Names in Fortran facts are lower-cased (the language ignores case); C keeps its spelling. Expressions
are also kept as written, for messages and fixes.
"""

from __future__ import annotations

from collections.abc import Iterable

from kernlint.facts.base import Span
from kernlint.facts.kinds import Comparison, LoopKind, LoopRole, MapStorage
from kernlint.facts.openmp_directive import OmpDirective, OmpParseError
from kernlint.records import record


@record(slots=True)
class Linear:
    """`constant + Σ coefficient·name` over integers: an index such as `j + TILE + u` → j + u + 64.

    Names are loop indices or values the analysis cannot see through (`n2`). Only linear code is
    represented; anything else (a product of two variables, a call, a load) has no Linear at all.
    """

    terms: tuple[tuple[str, int], ...] = ()  # sorted by name, no zero coefficients
    constant: int = 0

    @staticmethod
    def of(terms: dict[str, int] | Iterable[tuple[str, int]], constant: int = 0) -> Linear:
        merged: dict[str, int] = {}
        for name, coefficient in terms.items() if isinstance(terms, dict) else terms:
            merged[name] = merged.get(name, 0) + coefficient
        return Linear(tuple(sorted((n, c) for n, c in merged.items() if c)), constant)

    @staticmethod
    def const(value: int) -> Linear:
        return Linear((), value)

    @staticmethod
    def name(name: str) -> Linear:
        return Linear(((name, 1),), 0)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    @property
    def names(self) -> frozenset[str]:
        return frozenset(n for n, _c in self.terms)

    def coefficient(self, name: str) -> int:
        return next((c for n, c in self.terms if n == name), 0)

    def __add__(self, other: Linear) -> Linear:
        return Linear.of(list(self.terms) + list(other.terms), self.constant + other.constant)

    def __sub__(self, other: Linear) -> Linear:
        return self + other.scale(-1)

    def scale(self, factor: int) -> Linear:
        return Linear.of([(n, c * factor) for n, c in self.terms], self.constant * factor)

    def without(self, name: str) -> Linear:
        return Linear(tuple(t for t in self.terms if t[0] != name), self.constant)

    def __str__(self) -> str:
        pieces = [(c, name if abs(c) == 1 else f"{abs(c)}*{name}") for name, c in self.terms]
        if self.constant or not pieces:
            pieces.append((self.constant, str(abs(self.constant))))
        text = ""
        for sign, word in pieces:
            if not text:
                text = f"-{word}" if sign < 0 else word
            else:
                text += f" - {word}" if sign < 0 else f" + {word}"
        return text


@record(slots=True)
class IndexBound:
    """An index bound: `floor(numerator / divisor) + offset`, e.g. `n / 2 - 1` for `i < n / 2`.

    A bound without a division has divisor 1 and its offset folded into the numerator, so two bounds
    of one shape compare by their difference (`constant_difference`).
    """

    numerator: Linear
    divisor: int = 1
    offset: int = 0

    @staticmethod
    def of(value: Linear, divisor: int = 1, offset: int = 0) -> IndexBound:
        if divisor == 1:
            return IndexBound(value + Linear.const(offset))
        return IndexBound(value, divisor, offset)

    def shifted(self, by: int) -> IndexBound:
        return IndexBound.of(self.numerator, self.divisor, self.offset + by)

    def constant_difference(self, other: IndexBound) -> int | None:
        """`self - other` when it is the same number whatever the names stand for, else None."""
        if self.divisor == other.divisor == 1:
            difference = self.numerator - other.numerator
            return difference.constant if difference.is_constant else None
        if (self.numerator, self.divisor) == (other.numerator, other.divisor):
            return self.offset - other.offset
        if self.numerator.is_constant and other.numerator.is_constant:
            return self.value_of() - other.value_of()  # type: ignore[operator]
        return None

    def value_of(self) -> int | None:
        """The bound's value when it is constant."""
        if not self.numerator.is_constant:
            return None
        return self.numerator.constant // self.divisor + self.offset

    def __str__(self) -> str:
        if self.divisor == 1:
            return str(self.numerator)
        inner = str(self.numerator)
        text = (
            f"({inner}) / {self.divisor}"
            if not self.numerator.is_constant and len(self.numerator.terms) + bool(self.numerator.constant) > 1
            else f"{inner} / {self.divisor}"
        )
        return text + (f" + {self.offset}" if self.offset > 0 else (f" - {-self.offset}" if self.offset < 0 else ""))


@record(slots=True)
class OmpRange:
    """The first and last index of a one-dimensional range of array elements (inclusive)."""

    first: IndexBound
    last: IndexBound


@record(slots=True)
class OmpMapped:
    """One list item of a `map` clause and what the declarations say of the data it names.

    `element_bytes` is the size of one element of what the item maps (a row pointer for a pointer to
    pointers), `elements` how many it maps when every extent is a known constant (a bare pointer: 1,
    the pointer itself), and `range` the first and last index a one-dimensional item maps (C from 0,
    Fortran from the declared lower bound), as expressions. `pointee_elements` is what a bare pointer's
    `malloc`/`calloc`/`new[]` initialiser allocates, `pointer_members` the members of a struct that are
    pointers, and `device_pointer` says the pointer holds device memory (`omp_target_alloc`,
    `malloc_device`, `cudaMalloc` …, or `is_device_ptr`-style clauses name it). `local` says the
    variable is declared in the construct's function, so only that function can map its data.
    """

    text: str  # the list item as written (`OmpItem.text`)
    name: str  # the variable (lower-cased in Fortran)
    storage: MapStorage
    element_bytes: int | None = None
    elements: int | None = None
    range: OmpRange | None = None
    pointee_elements: int | None = None
    pointer_members: tuple[str, ...] = ()
    device_pointer: bool = False
    local: bool = False  # declared in the function (program unit) of the construct, not at file scope

    @property
    def bytes(self) -> int | None:
        """What the item maps, in bytes, when element size and extents are known."""
        if self.element_bytes is None or self.elements is None:
            return None
        return self.element_bytes * self.elements


@record(slots=True)
class OmpLoop:
    """A counted loop (`for (i = lo; i < hi; i += s)`, `do i = lo, hi, s`) in or around a construct.

    `low`/`high` are the smallest and largest values the index can take (inclusive; for a down-counting
    loop `low` is the bound), as linear expressions; `lower_value`/`upper_value` are its first and
    last values when constant.
    `role` says how the loop runs: `parallel` (shared out by a worksharing/distribute construct),
    `simd` (vectorised by a simd construct), `parallel-simd` (both) or `sequential`.
    """

    span: Span
    body: Span | None
    index: str | None
    lower: str | None  # as written: the initial value
    upper: str | None  # as written: the bound in the condition / the Fortran end value
    upper_inclusive: bool  # `<=`, `>=` or Fortran `do`; False for `<`, `>`, `!=`
    step: str | None  # as written; None means 1
    low: Linear | None
    high: Linear | None
    step_value: int | None
    role: LoopRole = "sequential"
    device: bool = False  # inside a target region
    kind: LoopKind = "for"

    @property
    def lower_value(self) -> int | None:
        """The index's first value, when constant."""
        first = self.low if (self.step_value or 1) > 0 else self.high
        return first.constant if first is not None and first.is_constant else None

    @property
    def upper_value(self) -> int | None:
        """The index's last value (inclusive), when constant."""
        last = self.high if (self.step_value or 1) > 0 else self.low
        return last.constant if last is not None and last.is_constant else None

    @property
    def vectorised(self) -> bool:
        """Whether consecutive iterations run on different lanes/work-items, not one after another."""
        return self.role != "sequential"


@record(slots=True)
class OmpBound:
    """One relational test of a condition (`next_tile < n2`, `next .lt. n2`), sides as linear forms."""

    left: Linear | None
    op: Comparison
    right: Linear | None
    text: str


@record(slots=True)
class OmpCondition:
    """A condition controlling a directive: an enclosing `if`/`select`, or a directive's `if` clause.

    `names` are the variables it reads, local definitions expanded (`next_tile` → also j, u);
    `bounds` its relational tests; `masks` its `x % m == 0` / `mod(x, m) .eq. 0` tests as (x, m);
    `opaque` is True when part of it could not be read (calls, unknown operators).
    """

    span: Span
    text: str
    names: tuple[str, ...] = ()
    bounds: tuple[OmpBound, ...] = ()
    masks: tuple[tuple[Linear, int], ...] = ()
    opaque: bool = False


@record(slots=True)
class OmpPrefetchTarget:
    """One array element a prefetch asks for (the first element of its section)."""

    base: str
    text: str  # the list item as written, `b[next_tile]` / `b(next:next)`
    index_text: str | None  # the (first) subscript as written; None for a multi-dimensional item
    index: Linear | None  # the same with local definitions and constants substituted
    element_bytes: int | None  # sizeof the element type, from the array's declaration
    array_lower: int | None  # the array's first valid index (C 0; Fortran the declared lower bound)
    array_upper: Linear | None = None  # its last valid index: from an enclosing map clause or the declaration


@record(slots=True)
class OmpVariableUse:
    """How a construct's region uses one mapped variable.

    `reads`/`writes` count plain uses; a compound assignment or increment counts in
    `read_modify_writes`; `escapes` when the variable is passed or aliased where the analysis cannot
    follow (treat as read-write), and `unknown` says why, once per reason (a member of an element
    written, code `#include`d into the region, a pointer alias, a call that may write it).
    `touched` is the range of indices the accesses reach when each is a one-dimensional subscript
    linear in the region's loop indices (ranges substituted) and nothing else is unknown.
    `writes_cover` is True when the writes provably store every element
    of the mapped section (each iteration of the parallel loop writes its own element, unconditionally,
    over exactly the section, or a whole-array assignment), None otherwise (no writes, partial,
    conditional or not provable). `written_first` is True when the region's first use of the variable
    is such a covering write, in a device loop that runs whenever the region does (no loop or condition
    of the region around it, no `nowait`), and every other use comes after that loop or, inside it,
    touches the iteration's own element in a later statement: whatever the region reads, it wrote first.
    """

    name: str
    reads: int = 0
    writes: int = 0
    read_modify_writes: int = 0
    escapes: bool = False
    writes_cover: bool | None = None
    updated: bool = False  # named by a `target update` inside the region
    unknown: tuple[str, ...] = ()
    touched: OmpRange | None = None  # the indices its accesses reach, when every access is one-dimensional and known
    dereferences: int = 0  # the most subscripts (or `*`) one access applies to it: `a[i][j]` is 2
    members: tuple[str, ...] = ()  # members subscripted or dereferenced through it: `s.p[i]`, `s->p[i]` give p
    written_first: bool = False


@record(slots=True)
class OmpMapType:
    """Where the map type of a `map` clause is written, on the line where the clause starts, for a fix
    that changes it.

    `inside` is a zero-width span just past the clause's `(`, where a type can be inserted (`map(a)`);
    `word` spans the map type when it is the clause's first modifier and on that line (`map(tofrom: a)`),
    and `written` is that word as spelled (Fortran modifiers are lower-cased in `OmpClause`, not here).
    """

    clause: str  # the clause's text, `OmpClause.text`
    inside: Span
    word: Span | None = None
    written: str | None = None


@record(slots=True)
class OmpConstruct:
    """One OpenMP directive with what it applies to.

    `directive` is the parsed directive, None when its text does not parse: `error` then says why
    and `problem` where. `region` is the associated loop or block (None for standalone directives such
    as `prefetch`); `loop` the associated loop of a loop construct, and `loops` every loop in the region
    (the associated one first). `enclosing_loops` and `conditions` are the loops and conditions around
    the directive itself (outermost first), `if_condition` its own `if` clause. `values` are the
    evaluated expression clauses (`thread_limit`, `simdlen`, … and the prefetch `hint`), None when not
    constant. `append_at` is a zero-width span where a clause can be appended to the directive, and
    `append_limit` the last column text may reach on that line (72 in fixed-form Fortran, 132 in free
    form, None in C). `maps` says what each `map` list item names and how many bytes it maps.
    """

    span: Span
    directive: OmpDirective | None
    region: Span | None = None
    loop: OmpLoop | None = None
    loops: tuple[OmpLoop, ...] = ()
    enclosing_loops: tuple[OmpLoop, ...] = ()
    conditions: tuple[OmpCondition, ...] = ()
    if_condition: OmpCondition | None = None
    values: tuple[tuple[str, int | None], ...] = ()
    variables: tuple[OmpVariableUse, ...] = ()
    targets: tuple[OmpPrefetchTarget, ...] = ()
    device: bool = False  # the directive itself sits in a target region (or is a target construct)
    append_at: Span | None = None
    append_limit: int | None = None
    locations: tuple[tuple[str, Span], ...] = ()  # clause and list-item texts -> the line holding them
    error: OmpParseError | None = None
    problem: Span | None = None  # for a directive that does not parse: where it goes wrong
    map_types: tuple[OmpMapType, ...] = ()  # where each `map` clause's type is written, when found
    maps: tuple[OmpMapped, ...] = ()  # every `map` list item with its storage and size, in written order
    unit: Span | None = None  # the function (Fortran: program unit) the directive is written in
    # The arrays a target construct maps tofrom without a clause (named in its region, listed by none of
    # its clauses, declared as arrays: in C with a size), each with its storage and size.
    implicit_maps: tuple[OmpMapped, ...] = ()

    def locate(self, text: str) -> Span:
        """Where a clause or list item of this directive is written (its physical line, which matters
        for directives continued over several lines); the directive's span when not found."""
        return next((span for written, span in self.locations if written == text), self.span)

    def map_type(self, clause: str) -> OmpMapType | None:
        """Where the map type of the `map` clause with text `clause` is written, None when not found."""
        return next((found for found in self.map_types if found.clause == clause), None)

    @property
    def kind(self) -> str | None:
        """The normalised directive name, None for a directive that did not parse."""
        return self.directive.kind if self.directive is not None else None

    @property
    def leaves(self) -> tuple[str, ...]:
        return self.directive.leaves if self.directive is not None else ()

    def value(self, name: str) -> int | None:
        """The evaluated value of an expression clause (or `hint`), None if absent or not constant."""
        return next((v for n, v in self.values if n == name), None)

    def mapped(self, text: str) -> OmpMapped | None:
        """What the `map` list item written `text` maps, None when the construct has no such item."""
        return next((m for m in self.maps if m.text == text), None)

    def variable(self, name: str) -> OmpVariableUse | None:
        """The uses of a mapped variable, by its name as written in a clause (Fortran: any case)."""
        found = next((v for v in self.variables if v.name == name), None)
        return found or next((v for v in self.variables if v.name == name.lower()), None)

    def encloses(self, span: Span) -> bool:
        """Whether `span` lies in this construct's region."""
        return self.region is not None and self.region.contains(span)


def section_bytes(constructs: Iterable[OmpConstruct], item_text: str) -> int | None:
    """The bytes of the list item written `item_text` wherever a `map` of the file writes it so
    (`target update from(a[0:n])` moves what `map(to: a[0:n])` maps), None when none knows them."""
    return next((m.bytes for c in constructs for m in c.maps if m.text == item_text and m.bytes is not None), None)


def map_item_bytes(construct: OmpConstruct, item_text: str) -> int | None:
    """The bytes the `map` list item written `item_text` moves (element size × extents), None when the
    element type or an extent is unknown. The one place rules ask how big a mapped item is."""
    mapped = construct.mapped(item_text)
    return mapped.bytes if mapped is not None else None
