"""Trip counts of strided loops: `for (i = lid; i < n_up; i += wg)` runs the same number of times in
every work-item when `n_up` is a multiple of the stride and the stride covers the ids the start
spreads over, whatever the start. Then `(n_up - start) / stride` is uniform, and a barrier in the
loop is reached equally often by all.

What counts as a stride that covers the ids: a work-group size (`get_local_range`) for a start
`lid + c`; a grid size (`get_global_range`, or group count times group size) for `gid + c` too.
What counts as a multiple: a bound written as a product that holds every factor of the stride
(`((n - 1) / (wg * groups) + 1) * wg * groups`). Values are followed through single definitions
(`resolve`); everything else leaves the loop as the dependence analysis grades it.
"""

from __future__ import annotations

from collections.abc import Callable

from kernlint.analysis.expressions import Binary, Const, Expr, Phi, Seed, Uniform, Var
from kernlint.analysis.names import Name

Resolve = Callable[[Name], "Expr | None"]
_RANGES = (
    ("get_local_range", "local"),
    ("get_max_local_range", "local"),
    ("get_group_range", "groups"),
    ("get_global_range", "global"),
    ("omp_get_num_threads", "local"),
    ("omp_get_num_teams", "groups"),
)
_DEPTH = 12


def uniform_trip_count(condition: Expr, resolve: Resolve, is_uniform: Callable[[Expr], bool]) -> bool:
    """Whether the loop condition `i < bound` (or `bound > i`) of a strided loop runs the same number
    of iterations in every work-item."""
    if not isinstance(condition, Binary) or condition.op not in ("<", ">"):
        return False
    index, bound = (condition.left, condition.right) if condition.op == "<" else (condition.right, condition.left)
    if not is_uniform(bound):
        return False
    parts = _start_and_step(index, resolve, is_uniform)
    if parts is None:
        return False
    start, step = parts
    scope = _seed_scope(start, resolve, is_uniform, 0)
    step_factors, bound_factors = _factors(step, resolve, 0), _factors(bound, resolve, 0)
    if scope is None or not step_factors or not step_factors <= bound_factors:
        return False
    covers_group = ("range", "local") in step_factors
    covers_grid = ("range", "global") in step_factors or {("range", "local"), ("range", "groups")} <= step_factors
    return covers_grid or (covers_group and scope == "local")


def offset_trip_count(condition: Expr, resolve: Resolve, is_uniform: Callable[[Expr], bool]) -> bool:
    """Whether the loop condition bounds the index by its own start plus a uniform count (`for (i = s;
    i < s + k; ++i)`, `i <= k + s`): then every work-item runs the same iterations, whatever `s` is."""
    if not isinstance(condition, Binary) or condition.op not in ("<", "<=", ">", ">="):
        return False
    index, bound = (
        (condition.left, condition.right) if condition.op in ("<", "<=") else (condition.right, condition.left)
    )
    parts = _start_and_step(index, resolve, is_uniform)
    if parts is None:
        return False
    start = parts[0]
    for _ in range(_DEPTH):
        if isinstance(bound, Var) and bound != start and (definition := resolve(bound.name)) is not None:
            bound = definition  # `int end = s + k;`
        else:
            break
    if not isinstance(bound, Binary) or bound.op != "+":
        return False
    return (_same(bound.left, start, resolve) and is_uniform(bound.right)) or (
        _same(bound.right, start, resolve) and is_uniform(bound.left)
    )


def _same(expr: Expr, start: Expr, resolve: Resolve) -> bool:
    """`expr` is the loop's start: the same expression, or a name defined once as it."""
    if expr == start:
        return True
    return isinstance(expr, Var) and resolve(expr.name) == start


def uniform_quotient(dividend: Expr, divisor: Expr, resolve: Resolve, is_uniform: Callable[[Expr], bool]) -> bool:
    """Whether `dividend / divisor` is the same in every work-item: an index that starts at the local id
    and steps by multiples of the work-group size, divided by the work-group size (`(lid + k * wg) / wg`
    is `k`)."""
    if _factors(divisor, resolve, 0) != frozenset({("range", "local")}):
        return False
    parts = _start_and_step(dividend, resolve, is_uniform)
    if parts is None or not _is_local_id(parts[0], resolve, 0):
        return False
    return ("range", "local") in _factors(parts[1], resolve, 0)


def _is_local_id(expr: Expr | None, resolve: Resolve, depth: int) -> bool:
    """The local id, plus whole work-group sizes."""
    if isinstance(expr, Seed):
        return expr.scope == "local"
    if isinstance(expr, Binary) and expr.op == "+" and depth < _DEPTH:
        return _is_local_id(expr.left, resolve, depth + 1) and ("range", "local") in _factors(expr.right, resolve, 0)
    if isinstance(expr, Var) and depth < _DEPTH:
        return _is_local_id(resolve(expr.name), resolve, depth + 1)
    return isinstance(expr, Phi) and len(expr.options) == 1 and _is_local_id(expr.options[0], resolve, depth + 1)


def _start_and_step(index: Expr, resolve: Resolve, is_uniform: Callable[[Expr], bool]) -> tuple[Expr, Expr] | None:
    """(start, step) of an index read as the Phi of its start and its increment `i + step`, or read
    right after the increment (then the start is one step on)."""
    if isinstance(index, Var):
        definition = resolve(index.name)
        if (
            isinstance(definition, Binary)
            and definition.op == "+"
            and isinstance(definition.left, Phi)
            and index in definition.left.options
            and is_uniform(definition.right)
        ):
            parts = _start_and_step(definition.left, resolve, is_uniform)
            return (Binary("+", parts[0], parts[1]), parts[1]) if parts is not None else None
    options: list[Expr] = list(index.options) if isinstance(index, Phi) else [index]
    definitions = [resolve(o.name) if isinstance(o, Var) else None for o in options]
    if len(definitions) != 2 or any(d is None for d in definitions):
        return None
    starts, steps = [], []
    for definition in definitions:
        if (
            isinstance(definition, Binary)
            and definition.op == "+"
            and _reads(definition.left, options)
            and is_uniform(definition.right)
        ):
            steps.append(definition.right)
        elif (
            isinstance(definition, Binary)
            and definition.op == "+"
            and _reads(definition.right, options)
            and is_uniform(definition.left)
        ):
            steps.append(definition.left)
        else:
            starts.append(definition)
    return (starts[0], steps[0]) if len(starts) == 1 and len(steps) == 1 else None  # type: ignore[return-value]


def _reads(expr: Expr, options: list[Expr]) -> bool:
    names = {o.name for o in options if isinstance(o, Var)}
    inner = list(expr.options) if isinstance(expr, Phi) else [expr]
    return bool(inner) and all(isinstance(o, Var) and o.name in names for o in inner)


def _seed_scope(expr: Expr | None, resolve: Resolve, is_uniform: Callable[[Expr], bool], depth: int) -> str | None:
    """`local` or `global` when `expr` is a work-item id plus a uniform offset."""
    if expr is None or depth > _DEPTH:
        return None
    if isinstance(expr, Seed):
        return expr.scope if expr.scope in ("local", "global") else None
    if isinstance(expr, Var):
        return _seed_scope(resolve(expr.name), resolve, is_uniform, depth + 1)
    if isinstance(expr, Phi) and len(expr.options) == 1:
        return _seed_scope(expr.options[0], resolve, is_uniform, depth + 1)
    if isinstance(expr, Binary) and expr.op == "+":
        if is_uniform(expr.right):
            return _seed_scope(expr.left, resolve, is_uniform, depth + 1)
        if is_uniform(expr.left):
            return _seed_scope(expr.right, resolve, is_uniform, depth + 1)
    return None


def _factors(expr: Expr | None, resolve: Resolve, depth: int) -> frozenset[tuple[str, object]]:
    """The factors of a product, each a range kind, a constant or an opaque part."""
    if expr is None or depth > _DEPTH:
        return frozenset({("opaque", id(expr))})
    if isinstance(expr, Binary) and expr.op == "*":
        return _factors(expr.left, resolve, depth + 1) | _factors(expr.right, resolve, depth + 1)
    if isinstance(expr, Var):
        definition = resolve(expr.name)
        return _factors(definition, resolve, depth + 1) if definition is not None else frozenset({("name", expr.name)})
    if isinstance(expr, Phi) and len(expr.options) == 1:
        return _factors(expr.options[0], resolve, depth + 1)
    if isinstance(expr, Uniform):
        kind = next((k for call, k in _RANGES if call in expr.text), None)
        return frozenset({("range", kind) if kind else ("opaque", expr.text)})
    if isinstance(expr, Const) and expr.value is not None:
        return frozenset({("const", expr.value)})
    return frozenset({("opaque", id(expr))})
