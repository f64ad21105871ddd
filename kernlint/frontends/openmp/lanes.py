"""What the lanes of an OpenMP device region see of its loops: which loop index is a lane's own, which
is the same along a row of a collapsed nest, and which loop variables are halved or doubled each step
(a tree's stride) rather than stepped by a constant. `dependence` lowers the region with these."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal

from kernlint.analysis import dependence as dep
from kernlint.facts import Span
from kernlint.facts.openmp import OmpConstruct, OmpLoop

Scaling = Literal["halves", "doubles"]  # how a tree's step moves its bound


def scaling_of(name: str, value: str | None) -> Scaling | None:
    """How `name = value` scales the name: "halves" when `value` is `name / k` or `name >> k`, "doubles"
    when it is `name * k` or `name << k`; None when it does not scale it."""
    if value is None:
        return None
    if value.isascii() and name.isascii() and name.lower() not in value.lower():
        return None  # what the expression would say, without compiling one for a name never spelt there
    if value.isascii() and _IDENTIFIER.fullmatch(name):  # one expression for every such name
        match = _SCALED.fullmatch(value)
        if match is None or match.group(1).lower() != name.lower():
            return None
        operator = match.group(2)
    else:
        match = _scaling(name).fullmatch(value)
        if match is None:
            return None
        operator = match.group(1)
    return "halves" if operator in (">>", "/") else "doubles"


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*", re.ASCII)
#: `_scaling(name)` for an identifier, the name captured: it is the only word before the operator.
_SCALED = re.compile(r"\(?\s*([A-Za-z_]\w*)\s*(>>|<<|\*|/)\s*\w+\s*\)?")


@lru_cache(maxsize=1024)
def _scaling(name: str) -> re.Pattern[str]:
    """`name` scaled by a constant or a name, in any case (compiled once per name: asked of every
    assignment in every region, with more names than `re`'s own cache keeps)."""
    return re.compile(rf"\(?\s*{re.escape(name)}\s*(>>|<<|\*|/)\s*\w+\s*\)?", re.IGNORECASE)


Assigns = Iterable[tuple[str, Span, "Scaling | None"]]  # (name, where, how it scales the name)
Loops = Iterable[tuple[Span, Span]]  # (the loop, its test)


def geometric(assigns: Assigns, loops: Loops) -> set[str]:
    """Names every loop only halves or doubles (`s >>= 1`, `s = s / 2`): a bound of them shrinks (or
    grows) the active lanes geometrically, one stepped by a constant (`++i`) lets them leave one step
    apart."""
    steps = _steps(assigns, list(loops))
    return {name for name, scaling in steps if scaling} - {name for name, scaling in steps if not scaling}


def doubled_at(condition: Span, assigns: Assigns, loops: Loops) -> set[str]:
    """Names the loops around `condition` step only by doubling (`d *= 2`): a bound of them grows the
    active lanes. Per condition, since one region may halve `d` in one loop and double another `d` in
    the next (a scan's two sweeps)."""
    steps = _steps(assigns, [(loop, test) for loop, test in loops if loop.contains(condition)])
    doubled = {name for name, scaling in steps if scaling == "doubles"}
    return doubled - {name for name, scaling in steps if scaling != "doubles"}


def _steps(assigns: Assigns, loops: list[tuple[Span, Span]]) -> list[tuple[str, Scaling | None]]:
    """The assignments that step one of `loops`: those inside it, except a `for` header's start value
    (before the loop's test)."""
    return [
        (name, scaling)
        for name, span, scaling in assigns
        if any(loop.contains(span) and not span.end_byte <= test.start_byte for loop, test in loops)
    ]


def index_seed(loop: OmpLoop, construct: OmpConstruct, shared: set[Span]) -> dep.Expr:
    """What a shared-out loop's index is to the lanes. The innermost index of a collapsed nest is the
    lane's own; an outer one is the same for a whole row of inner iterations, and consecutive lanes take
    consecutive inner iterations: sub-group uniform when the row length (the inner loops' trip counts
    multiplied) is a multiple of the widest sub-group, uniform but where a sub-group straddles two rows
    when it is unknown or longer, and a band of lanes (a slower dimension's id) when it is shorter."""
    inner = [
        other
        for other in construct.loops
        if other.span != loop.span and other.span in shared and loop.span.contains(other.span)
    ]
    if not inner:
        return dep.Seed("global", loop.index or "")
    if (construct.value("collapse") or 1) < 2:
        # a nested `parallel for` inside the loop, not a collapsed nest: how its threads map onto lanes
        # is the implementation's, so the outer index is only known to be shared by several lanes
        return dep.Seed("global", loop.index or "", shared=True)
    counts = [trips(other) for other in inner]
    known = math.prod(c for c in counts if c is not None)
    if known % dep.SUB_GROUP_MAX == 0:  # a multiple whatever the unknown trip counts are
        return dep.SubGroupUniform(loop.index or "")
    if None not in counts and known < dep.SUB_GROUP_MAX:
        return dep.Seed("global", loop.index or "", shared=True)
    return dep.SubGroupUniform(loop.index or "", straddle=True)


def trips(loop: OmpLoop) -> int | None:
    """How many iterations a counted loop runs, when its bounds and step are constants."""
    first, last, step = loop.lower_value, loop.upper_value, loop.step_value or 1
    if first is None or last is None or step <= 0:
        return None
    return max(0, (last - first) // step + 1)
