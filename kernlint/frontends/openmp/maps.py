"""What a `map` clause moves, and which elements of a mapped array a region reaches: the language-neutral
half of the map facts (`OmpMapped`, `OmpVariableUse.touched`).

A list item's storage comes from its declaration (`Declared`): C's chain of pointers and arrays from the
name outwards, Fortran's bounds per dimension. Its size is the element size times the extents of its
section, each read as a constant where one is known (literals, macros, `parameter`s, locals defined
once); any unknown extent leaves the count unknown. Index bounds are linear expressions, or a linear
expression divided by a constant (`i < n / 2`); Fortran's `size(a)` / `size(a, 1)` of a rank-1 array
stands for its extent, so a whole assumed-shape array and a loop to `size(a, 1) / 2` can be compared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Protocol

from kernlint.facts.base import Span
from kernlint.facts.kinds import MapStorage
from kernlint.facts.openmp import IndexBound, Linear, OmpLoop, OmpMapped, OmpRange
from kernlint.facts.openmp_directive import OmpDirective, OmpItem
from kernlint.frontends.openmp.expr import (
    Binary,
    Call,
    Expr,
    Name,
    Num,
    Scope,
    Subscript,
    Unary,
    linear,
    linear_text,
    parse,
)
from kernlint.records import record


@record
class Declared:
    """What a declaration says about a variable: element size, bounds of its first dimension and, for
    the map facts, its whole shape.

    `indirections` (C/C++) lists what the declarator derives, from the name outwards: None for a
    pointer, an array's extent as written ("" when unsized); a parameter's first array level is a
    pointer. `extents` (Fortran) are the (lower, upper) bounds of each dimension as written, upper "*"
    for an assumed size and None for a deferred or assumed shape; `movable` marks `allocatable` and
    `pointer` arrays, whose bounds are set at run time. `type_name` is a struct or derived type's name,
    `allocation` the element count of a `malloc`/`calloc`/`new[]` initialiser as written.
    """

    element_bytes: int | None
    lower: str | None = None  # first valid index as written (C: "0")
    upper: str | None = None  # last valid index as written
    is_array: bool = False  # an array or a pointer (not a scalar)
    indirections: tuple[str | None, ...] = ()
    extents: tuple[tuple[str | None, str | None], ...] = ()
    movable: bool = False
    type_name: str | None = None
    allocation: str | None = None
    local: bool = False  # found in the function (program unit), not at file scope


#: Bytes of a host pointer (64-bit hosts).
POINTER_BYTES = 8
#: Clauses whose list items are device addresses already: a pointer named there holds device memory.
DEVICE_ADDRESS_CLAUSES = ("is_device_ptr", "has_device_addr", "use_device_ptr", "use_device_addr")


class MapSource(Protocol):
    """What the map facts ask a front-end (a subset of `OmpSource`, plus struct members)."""

    fortran: bool

    def scope(self, at_byte: int) -> Scope: ...
    def declared(self, name: str, at_byte: int) -> Declared | None: ...
    def pointer_members(self, type_name: str) -> tuple[str, ...]: ...
    def unit_of(self, span: Span) -> Span | None: ...
    def device_pointers(self) -> frozenset[str]: ...


def device_named(directives: Iterable[OmpDirective], fortran: bool) -> frozenset[str]:
    """The variables an `is_device_ptr`-style clause names anywhere in the file."""
    return frozenset(
        item.name.lower() if fortran else item.name
        for directive in directives
        for clause in DEVICE_ADDRESS_CLAUSES
        for item in directive.items(clause)
    )


def mapped_items(source: MapSource, directive: OmpDirective, at: int, device: frozenset[str]) -> tuple[OmpMapped, ...]:
    """Every `map` list item of `directive` (written at byte `at`) with its storage and size."""
    return tuple(item_facts(source, mapped.item, at, device) for mapped in directive.map_items)


def item_facts(source: MapSource, item: OmpItem, at: int, device: frozenset[str]) -> OmpMapped:
    """One list item (written at byte `at`) with its storage and size: a map clause's, or an array a
    target region maps without one (`implicit_maps`)."""
    name = item.name.lower() if source.fortran else item.name
    declared = source.declared(name, at) if _simple(name) else None
    if declared is None:
        return OmpMapped(item.text, name, "unknown")
    if source.fortran:
        facts = _fortran_item(source, item, name, declared, at)
    else:
        facts = _c_item(source, item, name, declared, at, device)
    return replace(facts, local=declared.local)


# -- C and C++ -------------------------------------------------------------------------------------


def _c_item(
    source: MapSource, item: OmpItem, name: str, declared: Declared, at: int, device: frozenset[str]
) -> OmpMapped:
    levels: tuple[str | None, ...] = declared.indirections
    scope = source.scope(at)
    members = source.pointer_members(declared.type_name) if declared.type_name else ()
    base = declared.element_bytes
    dims = item.dims
    on_device = name in device or (bool(levels) and levels[0] is None and name in source.device_pointers())
    if len(dims) > len(levels):
        return OmpMapped(item.text, name, "unknown")
    if not dims:
        if not levels:
            storage: MapStorage = "struct-pointers" if members else "scalar"
            return OmpMapped(item.text, name, storage, base, 1, pointer_members=members)
        if levels[0] is None:
            deep = len(levels) > 1 and levels[1] is None
            pointee = _constant(declared.allocation, scope) if declared.allocation else None
            return OmpMapped(
                item.text,
                name,
                "pointer-to-pointer" if deep else "pointer",
                POINTER_BYTES,
                1,
                pointee_elements=pointee,
                pointer_members=members,
                device_pointer=on_device,
            )
        arrays = [level for level in _leading_arrays(levels)]
        rest = levels[len(arrays) :]
        count = _product(_constant(extent, scope) if extent else None for extent in arrays)
        element, storage = _element(rest, base, members, scope, levels[0] is None)
        span = None
        if len(levels) == 1 and arrays[0]:
            last = _linear(f"({arrays[0]}) - 1", scope)
            span = OmpRange(IndexBound(Linear.const(0)), IndexBound(last)) if last is not None else None
        return OmpMapped(item.text, name, storage, element, count, span, pointer_members=members)
    consumed, rest = levels[: len(dims)], levels[len(dims) :]
    element, storage = _element(rest, base, members, scope, consumed[0] is None)
    if any(level is None for level in consumed[1:]):
        storage = "pointer-to-pointer"  # `a[0:n][0:m]` of `int **a`: the rows are other blocks
    counts: list[int | None] = []
    for dim, level in zip(dims, consumed, strict=True):
        if not dim.is_range:
            counts.append(1)
        elif dim.length is not None:
            counts.append(_constant(dim.length, scope))
        elif level:  # `a[lo:]` / `a[:]` of an array: up to its end
            counts.append(_constant(f"({level}) - ({dim.lower or 0})", scope))
        else:
            counts.append(None)
    span = None
    if len(dims) == 1 and dims[0].is_range:
        first = _linear(dims[0].lower or "0", scope)
        length = dims[0].length or (f"({consumed[0]}) - ({dims[0].lower or 0})" if consumed[0] else None)
        size = _linear(length, scope) if length is not None else None
        if first is not None and size is not None:
            span = OmpRange(IndexBound(first), IndexBound(first + size - Linear.const(1)))
    return OmpMapped(
        item.text,
        name,
        storage,
        element,
        _product(counts),
        span,
        pointer_members=members,
        device_pointer=on_device and storage != "array",
    )


def _leading_arrays(levels: tuple[str | None, ...]) -> list[str]:
    arrays = []
    for level in levels:
        if level is None:
            break
        arrays.append(level)
    return arrays


def _element(
    rest: tuple[str | None, ...], base: int | None, members: tuple[str, ...], scope: Scope, pointer_base: bool
) -> tuple[int | None, MapStorage]:
    """The size of one mapped element (what is left after the item's subscripts) and the storage it
    makes: pointers left over are rows or pointees the map does not follow."""
    if rest and rest[0] is None:
        return POINTER_BYTES, ("pointer-to-pointer" if pointer_base else "pointer-array")
    inner = _product(_constant(extent, scope) if extent else None for extent in rest)
    if any(level is None for level in rest):
        return None, "pointer-array"
    element = base * inner if base is not None and inner is not None else None
    return element, ("struct-pointers" if members else "array")


# -- Fortran -----------------------------------------------------------------------------------------


def _fortran_item(source: MapSource, item: OmpItem, name: str, declared: Declared, at: int) -> OmpMapped:
    extents: tuple[tuple[str | None, str | None], ...] = declared.extents
    scope = source.scope(at)
    element = declared.element_bytes
    if not extents:
        return OmpMapped(item.text, name, "scalar" if declared.type_name is None else "unknown", element, 1)
    dims = item.dims
    if dims and len(dims) != len(extents):
        return OmpMapped(item.text, name, "unknown", element)
    assumed = extents[-1][1] == "*"
    if not dims:
        count = _product(_extent_count(lower, upper, scope) for lower, upper in extents)
        span = _fortran_whole(name, extents, declared.movable, scope) if len(extents) == 1 else None
        return OmpMapped(item.text, name, "assumed-size" if assumed else "array", element, count, span)
    counts: list[int | None] = []
    bounds: list[tuple[str | None, str | None] | None] = []
    for dim, (lower, upper) in zip(dims, extents, strict=True):
        if not dim.is_range:
            counts.append(1)
            bounds.append(None)
            continue
        low = dim.lower if dim.lower is not None else lower
        high = dim.upper if dim.upper is not None else upper
        counts.append(_extent_count(low, high, scope))
        bounds.append((low, high))
    open_end = dims[-1].is_range and dims[-1].upper is None
    span = None
    if len(dims) == 1 and bounds[0] is not None and None not in bounds[0] and "*" not in bounds[0]:
        first, last = (_linear(text, scope, fortran=True) for text in bounds[0])  # type: ignore[arg-type]
        span = OmpRange(IndexBound(first), IndexBound(last)) if first is not None and last is not None else None
    return OmpMapped(
        item.text, name, "assumed-size" if assumed and open_end else "array", element, _product(counts), span
    )


def _fortran_whole(
    name: str, extents: tuple[tuple[str | None, str | None], ...], movable: bool, scope: Scope
) -> OmpRange | None:
    """The indices a whole rank-1 array spans: its declared bounds, or for an assumed shape
    (`a(:)`, `a(0:)`) from its lower bound to lower - 1 + `size(a, 1)`."""
    lower, upper = extents[0]
    if movable or lower is None or upper == "*":
        return None
    first = _linear(lower, scope, fortran=True)
    if first is None:
        return None
    if upper is None:
        return OmpRange(IndexBound(first), IndexBound(first + Linear.name(f"size({name},1)") - Linear.const(1)))
    last = _linear(upper, scope, fortran=True)
    return OmpRange(IndexBound(first), IndexBound(last)) if last is not None else None


def _extent_count(lower: str | None, upper: str | None, scope: Scope) -> int | None:
    if lower is None or upper is None or upper == "*":
        return None
    return _constant(f"({upper}) - ({lower}) + 1", scope, fortran=True)


# -- values ----------------------------------------------------------------------------------------


def _simple(name: str) -> bool:
    return name.replace("_", "a").isalnum() and not name[0].isdigit()


def _linear(text: str, scope: Scope, fortran: bool = False) -> Linear | None:
    return linear(parse(text, fortran=fortran), scope) if text else None


def _constant(text: str | None, scope: Scope, fortran: bool = False) -> int | None:
    if not text:
        return None
    value = linear(parse(text, fortran=fortran), scope)
    return value.constant if value is not None and value.is_constant and value.constant >= 0 else None


def _product(values: Iterable[int | None]) -> int | None:
    total = 1
    for value in values:
        if value is None:
            return None
        total *= value
    return total


# -- what a region touches -----------------------------------------------------------------------------


def index_bound(text: str, *, fortran: bool, scope: Scope, rank_one: frozenset[str] = frozenset()) -> IndexBound | None:
    """An index or loop bound as `floor(linear / k) + c`: `n - 1`, `n / 2`, `size(a, 1) / 2 - 1`.
    `rank_one` names the rank-1 arrays whose `size(a)` is `size(a, 1)`."""
    expr = _sizes(parse(text, fortran=fortran), rank_one)
    return _quotient(expr, scope)


def _quotient(expr: Expr, scope: Scope) -> IndexBound | None:
    plain = linear(expr, scope)
    if plain is not None:
        return IndexBound(plain)
    if isinstance(expr, Binary) and expr.op == "/":
        numerator, divisor = linear(expr.left, scope), linear(expr.right, scope)
        if numerator is not None and divisor is not None and divisor.is_constant and divisor.constant > 1:
            return IndexBound.of(numerator, divisor.constant)
        return None
    if isinstance(expr, Binary) and expr.op in ("+", "-"):
        left, right = _quotient(expr.left, scope), linear(expr.right, scope)
        if left is not None and right is not None and right.is_constant:
            return left.shifted(right.constant if expr.op == "+" else -right.constant)
        if expr.op == "+":
            constant, rest = linear(expr.left, scope), _quotient(expr.right, scope)
            if constant is not None and constant.is_constant and rest is not None:
                return rest.shifted(constant.constant)
    return None


def _sizes(expr: Expr, rank_one: frozenset[str]) -> Expr:
    """`size(a, 1)` (and `size(a)` of a rank-1 array) as the name `size(a,1)`, anywhere in `expr`."""
    if isinstance(expr, Call):
        args = expr.args
        if expr.name == "size" and args and isinstance(args[0], Name):
            array = args[0].name
            if (len(args) == 1 and array in rank_one) or (len(args) == 2 and args[1] == Num(1)):
                return Name(f"size({array},1)")
        return Call(expr.name, tuple(_sizes(a, rank_one) for a in args))
    if isinstance(expr, Binary):
        return Binary(expr.op, _sizes(expr.left, rank_one), _sizes(expr.right, rank_one))
    if isinstance(expr, Unary):
        return Unary(expr.op, _sizes(expr.operand, rank_one))
    if isinstance(expr, Subscript):
        return Subscript(_sizes(expr.base, rank_one), _sizes(expr.index, rank_one))
    return expr


def loop_range(loop: OmpLoop, *, fortran: bool, scope: Scope, rank_one: frozenset[str]) -> OmpRange | None:
    """The first and last value a counted loop's index takes (the smaller first)."""
    step = loop.step_value
    if loop.index is None or loop.lower is None or loop.upper is None or not step:
        return None
    start = index_bound(loop.lower, fortran=fortran, scope=scope, rank_one=rank_one)
    bound = index_bound(loop.upper, fortran=fortran, scope=scope, rank_one=rank_one)
    if start is None or bound is None:
        return None
    if step > 0:
        return OmpRange(start, bound if loop.upper_inclusive else bound.shifted(-1))
    return OmpRange(bound if loop.upper_inclusive else bound.shifted(1), start)


def add_bounds(left: IndexBound, right: IndexBound) -> IndexBound | None:
    """`left + right` when it is still one bound: both linear, or one a quotient and the other constant."""
    if left.divisor == right.divisor == 1:
        return IndexBound(left.numerator + right.numerator)
    if right.divisor == 1 and right.numerator.is_constant:
        return left.shifted(right.numerator.constant)
    if left.divisor == 1 and left.numerator.is_constant:
        return right.shifted(left.numerator.constant)
    return None


def scaled(bound: IndexBound, factor: int) -> IndexBound | None:
    if factor == 1:
        return bound
    return IndexBound(bound.numerator.scale(factor)) if bound.divisor == 1 else None


def extreme(bound: IndexBound, lower: bool, loops: list[tuple[str, OmpRange]], depth: int = 0) -> IndexBound | None:
    """The smallest (`lower`) or largest value of `bound` over the loops around it: each loop index in
    its numerator replaced by the end of its range that makes the sum smallest (or largest), then the
    ends' own loop indices (a triangular nest) in turn. Names that are no loop index stay."""
    if depth > 6:
        return None
    indices = {index: span for index, span in loops}
    if bound.divisor != 1:
        return bound if not (bound.numerator.names & indices.keys()) else None
    result = IndexBound(Linear.const(bound.numerator.constant))
    again = False
    for name, coefficient in bound.numerator.terms:
        span = indices.get(name)
        if span is None:
            term: IndexBound | None = IndexBound(Linear.name(name).scale(coefficient))
        else:
            end = span.first if (coefficient > 0) == lower else span.last
            term = scaled(end, coefficient)
            again = again or (term is not None and bool(term.numerator.names & indices.keys()))
        if term is None:
            return None
        added = add_bounds(result, term)
        if added is None:
            return None
        result = added
    return extreme(result, lower, loops, depth + 1) if again else result


class _ElementUse(Protocol):
    """An element use as the front-ends record it (`kernlint.frontends.openmp.facts.Access`)."""

    @property
    def kind(self) -> str: ...
    @property
    def span(self) -> Span: ...
    @property
    def index(self) -> str | None: ...
    @property
    def whole(self) -> bool: ...
    @property
    def member(self) -> str | None: ...


def own_elements(
    uses: Iterable[_ElementUse], index: str, after: int, scope_at: Callable[[int], Scope], *, fortran: bool
) -> bool:
    """Each use reads or writes the element a loop's iteration owns (its subscript is the loop's
    `index` itself, not a member of it) and starts at or after byte `after`."""
    own = Linear.name(index)
    return all(
        use.kind in ("read", "write", "rmw")
        and use.member is None
        and not use.whole
        and use.index is not None
        and use.span.start_byte >= after
        and linear_text(use.index, fortran=fortran, scope=scope_at(use.span.start_byte)) == own
        for use in uses
    )


def touched_range(
    uses: list[tuple[str | None, Span]],
    loops: tuple[OmpLoop, ...],
    scope_at: Callable[[int], Scope],
    *,
    fortran: bool,
    rank_one: frozenset[str] = frozenset(),
    varying: frozenset[str] = frozenset(),
) -> OmpRange | None:
    """The indices a region's element accesses reach: each use's one-dimensional subscript (None when
    the use is not one) with the ranges of the region's loops around it substituted, the smallest and
    largest over all uses. None when any use or loop bound is unknown, an index is a region loop's
    index used outside that loop, or it reads a name the region declares or assigns (`varying`: a
    value that changes inside the region, `tid`, `k++`). The result is an over-approximation (a
    guarded access counts, a strided loop spans its whole range), never less than what is reached."""
    if not uses:
        return None
    ranges: dict[Span, OmpRange | None] = {}
    indices = {loop.index for loop in loops if loop.index is not None}
    low: IndexBound | None = None
    high: IndexBound | None = None
    for text, span in uses:
        if text is None:
            return None
        scope = scope_at(span.start_byte)
        index = index_bound(text, fortran=fortran, scope=scope, rank_one=rank_one)
        if index is None or index.divisor != 1 or _unstable(index.numerator.names, varying):
            return None
        around: list[tuple[str, OmpRange]] = []
        for loop in loops:  # outermost first: an inner loop reusing a name wins
            if loop.index is None or not loop.span.contains(span):
                continue
            if loop.span not in ranges:
                ranges[loop.span] = loop_range(
                    loop, fortran=fortran, scope=scope_at(loop.span.start_byte), rank_one=rank_one
                )
            found = ranges[loop.span]
            if found is None:
                return None
            around = [(name, r) for name, r in around if name != loop.index] + [(loop.index, found)]
        if index.numerator.names & (indices - {name for name, _r in around}):
            return None  # a loop's index read after (or before) its loop
        first, last = extreme(index, True, around), extreme(index, False, around)
        if first is None or last is None or _unstable(first.numerator.names | last.numerator.names, varying):
            return None
        low = first if low is None else _smaller(low, first)
        high = last if high is None else _larger(high, last)
        if low is None or high is None:
            return None
    assert low is not None and high is not None
    return OmpRange(low, high)


def _unstable(names: frozenset[str], varying: frozenset[str]) -> bool:
    """Whether an index reads a value that may change in the region: a name it declares or assigns
    (not a loop's own header), or a member of an element (`a[i].n`, read as `?.n`)."""
    return bool(names & varying) or any(name.startswith("?") for name in names)


def _smaller(a: IndexBound, b: IndexBound) -> IndexBound | None:
    difference = a.constant_difference(b)
    return None if difference is None else (a if difference <= 0 else b)


def _larger(a: IndexBound, b: IndexBound) -> IndexBound | None:
    difference = a.constant_difference(b)
    return None if difference is None else (a if difference >= 0 else b)
