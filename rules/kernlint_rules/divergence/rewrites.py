"""The rewrite KL501 offers for cheap divergent arms that each assign one variable: `std::min` /
`std::max`, or a select (`x = (c) ? a : b;`), in a spelling the file compiles, and safe only where it
is provably the same program.

What makes it the same program (each from the facts, never guessed; unknown means unsafe):

* the types. `std::max(x, a)` deduces one type from both arguments, so it compiles and compares as
  `if (x < a) x = a;` does only when `x` and `a` are declared with the same type. A select converts
  both values to their common type first: the same as the branch when that common type is the
  variable's own (`float x` and an `int` value), not when the variable would pass through another
  (`int x` through `float` loses bits above 2^24).
* the write. The branch writes the variable on one path, the rewrite on every path: the same only
  for a private local (by value, not static, declared in the same function or lambda, and, in OpenMP,
  not outside the construct, where threads share it). A two-armed branch writes on every path anyway.
* the spelling. `std::min` / `std::max` need C++ (not a `.c` file, nor a header a `.c` file
  includes), no `min` or `max` macro in sight (the file's or its quoted includes'), and `<algorithm>`,
  which the fix includes when the file does not. Elsewhere the select, which every C and C++
  compiler reads the same, is the spelling. `std::max` rather than `sycl::max` / `sycl::fmax` in SYCL
  device code too: std::max returns its second argument only when the first is less, exactly the
  branch, while `sycl::fmax` returns the other argument for a NaN and `sycl::max` of floats leaves
  NaN undefined.
"""

from __future__ import annotations

from kernlint.facts.device import Branch
from kernlint.records import record

_FLOATING = {"float": 1, "double": 2, "long double": 3}
# integer conversion ranks; `long` is 32 bits on some hosts and 64 on others, so a comparison that
# depends on its size has no known common type
_RANKS = {
    "bool": 0,
    "char": 1,
    "signed char": 1,
    "unsigned char": 1,
    "short": 2,
    "unsigned short": 2,
    "int": 3,
    "unsigned int": 3,
    "long": 4,
    "unsigned long": 4,
    "long long": 5,
    "unsigned long long": 5,
}
_BITS = {3: 32, 5: 64}  # by rank: int and long long; long is unknown


@record(slots=True)
class Rewrite:
    """A replacement for the whole construct: `text` as C/C++ source, `safe` when provably the same
    program, `algorithm` when it needs `<algorithm>`."""

    text: str
    safe: bool
    description: str
    algorithm: bool = False


@record(slots=True)
class Spelling:
    """What the file lets a rewrite write: C only, or C++; the macros it sees."""

    c: bool
    macros: frozenset[str] = frozenset()


def rewrite(branch: Branch, condition: str, spelling: Spelling) -> Rewrite | None:
    """A min/max or select replacing an `if` whose arms each assign the same variable, or None."""
    if branch.kind != "if" or not branch.rewritable or not branch.arms or len(branch.arms) > 2:
        return None
    arms = branch.arms
    target = arms[0].target
    if target is None or any(a.target != target or a.value is None for a in arms):
        return None
    then = arms[0].value
    other = arms[1].value if len(arms) == 2 else target
    assert then is not None and other is not None
    declared = arms[0].target_type
    kinds = [a.value_type for a in arms]
    # the rewrite writes the variable on every path: the same when the branch does (two arms) or no one
    # else can see the variable
    unseen = len(arms) == 2 or arms[0].target_private
    pick = _min_max(branch.comparison, target, then) if len(arms) == 1 else None
    standard = not spelling.c and not spelling.macros & {"min", "max"}  # `std::min` / `std::max` compile here
    if pick is not None and standard and declared is not None and declared == kinds[0]:
        return Rewrite(
            f"{target} = std::{pick}({target}, {then});",
            unseen,
            f"replace the branch by std::{pick}" + ("" if unseen else _SHARED.format(target=target)),
            algorithm=True,
        )
    # a select brings its values to their common type, then to the variable's: the same as assigning each
    # when that common type is the variable's, or the values share one type
    exact = (len(kinds) == 2 and kinds[0] is not None and kinds[0] == kinds[1]) or (
        declared is not None and all(_passes(kind, declared) for kind in kinds)
    )
    if not exact:
        caveat = _UNKNOWN if declared is None or None in kinds else _CONVERTED.format(type=declared)
    else:
        caveat = "" if unseen else _SHARED.format(target=target)
    select = f"{target} = ({condition}) ? {then} : {other};"
    return Rewrite(select, exact and unseen, "replace the branch by a select" + caveat)


_SHARED = (
    " (it writes `{target}` on every path and `{target}` is not a private local: check nothing else uses it meanwhile)"
)
_UNKNOWN = " (check that the values have the variable's type: kernlint cannot see their declarations)"
_CONVERTED = " (check the conversion: the select brings the values to a common type other than `{type}` first)"


def _passes(kind: str | None, declared: str) -> bool:
    """Whether a value of type `kind` reaches a `declared` variable through a select as it would directly:
    it has that type, or its common type with it is that type."""
    return kind is not None and (kind == declared or common_type(kind, declared) == declared)


def common_type(one: str, other: str) -> str | None:
    """The type C and C++ bring two arithmetic operands to (the usual arithmetic conversions), None when
    either is not an arithmetic type kernlint knows or the answer depends on the size of `long`."""
    if one in _FLOATING or other in _FLOATING:
        if (one not in _FLOATING and one not in _RANKS) or (other not in _FLOATING and other not in _RANKS):
            return None
        return max((one, other), key=lambda kind: _FLOATING.get(kind, 0))
    if one not in _RANKS or other not in _RANKS:
        return None
    one, other = _promoted(one), _promoted(other)
    if one == other:
        return one
    if one.startswith("unsigned") == other.startswith("unsigned"):
        return max((one, other), key=_RANKS.__getitem__)
    unsigned, signed = (one, other) if one.startswith("unsigned") else (other, one)
    if _RANKS[unsigned] >= _RANKS[signed]:
        return unsigned
    wide, narrow = _BITS.get(_RANKS[signed]), _BITS.get(_RANKS[unsigned])
    if wide is None or narrow is None:
        return None
    return signed if wide > narrow else f"unsigned {signed}"


def _promoted(kind: str) -> str:
    """Integer promotion: what is narrower than `int` computes as `int`."""
    return "int" if _RANKS[kind] < _RANKS["int"] else kind


def _min_max(comparison: tuple[str, str, str] | None, target: str, value: str) -> str | None:
    """`max` for `if (v > m) m = v;` / `if (m < v) m = v;`, `min` for the mirrored tests (strict only:
    with `>=` equal values and NaN pick differently)."""
    if comparison is None:
        return None
    left, operator, right = comparison
    target, value = " ".join(target.split()), " ".join(value.split())
    if (left, right) == (value, target):
        return "max" if operator == ">" else "min"
    if (left, right) == (target, value):
        return "max" if operator == "<" else "min"
    return None
