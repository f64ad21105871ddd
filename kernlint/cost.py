"""What a finding costs, estimated from the device model, and how findings are ranked by it.

A `Cost` is plain data carried by a `Diagnostic` (JSON `cost`, SARIF result properties): one headline
`value` in a `unit`, the `formula` it comes from, the `basis` (the formula with this finding's numbers),
the `assumptions` the estimate makes, and the `missing` inputs when it cannot be a number. An unknown
input is never guessed: the value is then None and the basis shows the formula with the known figures.

Ranking (`--sort cost`, the closing "most expensive" list) uses one comparable scalar per finding,
`score`, the estimated share (0–1) of a kernel's or a transfer's work that is lost: 1 for a launch
that fails, a deadlock or a copy that is needless as a whole, the idle share of the GPU's (or each
Xe-core's) thread slots, the idle SIMD lanes of every work-group. A local waste whose share of the
kernel is unknown (a divergent branch's idle lanes, wasted prefetches) and a cost without a number
have no score. Findings are ordered by severity, then score, then `seconds` (the time lost, when the
cost is a time), so among needless copies the longest comes first. Data movement gets a
full share because guide chapter 05 ranks it above kernel efficiency: host-device transfers are an
order of magnitude slower than device memory, and keeping data on the device pays "even if some kernels
are not very efficiently executed". Findings without a score come last within their severity.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from typing import Any, Protocol, TypeVar

from kernlint.records import record

#: Bumped when costs change for unchanged source, so cached results are not reused.
#: 3: KL102 prices OpenMP maps; 4: KL601 covered runs are infos; 5: memory findings folded per array and loop.
MODEL_VERSION = 5

#: Units a cost's value is given in; seconds and bytes add up over findings, shares do not.
ADDITIVE_UNITS = frozenset({"s", "bytes"})


@record
class Cost:
    """One finding's estimated cost; `value` None means an input is missing (named in `missing`)."""

    value: float | None
    unit: str
    """"s", "bytes", "%" (a share of something, named by `quantity`) or a count such as "prefetches"."""
    quantity: str
    """What `value` measures, e.g. "host-link time per iteration" or "share of the GPU idle"."""
    formula: str
    basis: str
    assumptions: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    score: float | None = None
    """Share (0–1) of the affected work lost: the ranking scalar (see the module docstring)."""
    seconds: float | None = None
    """Time lost, when the cost is a time (ranks findings of equal score)."""
    device: str | None = None
    figures: dict[str, Any] = field(default_factory=dict)
    """Named intermediate figures (bytes per iteration, waves …), for scripts and `kernlint explain`."""

    @property
    def known(self) -> bool:
        return self.value is not None

    def phrase(self) -> str:
        """A short clause for the message: "≈ 41.6 µs per iteration on PCIe 5.0 x16 (xe-hpc)"."""
        if self.value is None:
            if self.missing and all(m.endswith("(not in the device model)") for m in self.missing):
                return f"not in the device model: {self.basis}"
            if not self.missing:
                return f"{self.quantity}: {self.basis}"
            needs = [m for m in self.missing if not m.endswith("total)")] or list(self.missing)
            return f"cost unknown without {', '.join(needs)}: {self.formula}"
        if self.value == 0 and self.unit == "s":
            return f"no cost {self.quantity}"
        return f"{format_value(self.value, self.unit)} {self.quantity}"

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "unit": self.unit,
            "quantity": self.quantity,
            "formula": self.formula,
            "basis": self.basis,
            "assumptions": list(self.assumptions),
            "missing": list(self.missing),
            "score": self.score,
            "seconds": self.seconds,
            "device": self.device,
            "figures": self.figures,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cost:
        return cls(
            value=data["value"],
            unit=data["unit"],
            quantity=data["quantity"],
            formula=data["formula"],
            basis=data["basis"],
            assumptions=tuple(data.get("assumptions") or ()),
            missing=tuple(data.get("missing") or ()),
            score=data.get("score"),
            seconds=data.get("seconds"),
            device=data.get("device"),
            figures=data.get("figures") or {},
        )

    def derivation(self) -> list[str]:
        """The full derivation, one line each, for `kernlint explain`."""
        lines = [
            f"cost: {self.phrase()}"
            + (f" on {self.device}" if self.device and self.device not in self.phrase() else "")
        ]
        lines.append(f"  formula: {self.formula}")
        lines.append(f"  basis: {self.basis}")
        for name, value in self.figures.items():
            lines.append(f"  {name.replace('_', ' ')}: {_figure(value)}")
        lines += [f"  assumes: {a}" for a in self.assumptions]
        lines += [f"  missing: {m}" for m in self.missing]
        score = "none (unknown)" if self.score is None else f"{self.score:.3g}"
        lines.append(f"  rank score: {score}" + (f", {format_seconds(self.seconds)} lost" if self.seconds else ""))
        return lines


# -- costs every family of rules writes the same way ---------------------------------------------------

#: The assumption of a local waste whose share of the kernel is unknown (a divergent branch's idle
#: lanes, wasted prefetches): such a cost has no score, so it ranks after the scored ones.
UNKNOWN_SHARE = (
    "ranked after findings with a score: the share of the kernel's time this code takes is not known statically"
)


def failure_cost(consequence: str, device: str | None = None) -> Cost:
    """A finding whose code does not run (launch fails, deadlock, fault): all its work is lost."""
    return Cost(
        100.0,
        "%",
        f"of the kernel's work lost: {consequence}",
        "100% when the code cannot run",
        consequence,
        score=1.0,
        device=device,
    )


# -- numbers as prose ---------------------------------------------------------------------------------


def format_seconds(seconds: float) -> str:
    """ "12 ns", "41.6 µs", "1.25 ms", "3.2 s" (three significant digits)."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_bytes(nbytes: float) -> str:
    """ "4,096 bytes" below 10^4, else decimal units ("1.31 MB") to match GB/s link figures."""
    if nbytes < 10_000:
        return f"{int(nbytes):,} bytes"
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{int(nbytes):,} bytes"  # pragma: no cover - unreachable


def format_count(value: float) -> str:
    """ "0.762", "3.5", "1,024": three significant digits, whole numbers with separators from 1,000."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def format_value(value: float, unit: str) -> str:
    if unit == "s":
        return format_seconds(value)
    if unit == "bytes":
        return format_bytes(value)
    if unit == "%":
        text = f"{value:.3g}"
        if float(text) != value and float(text) in (0.0, 100.0):  # never round a partial share to all or none
            text = f"{value:.2f}".rstrip("0").rstrip(".")
        return f"{text}%"
    if value == 1 and unit.endswith("s"):
        unit = unit[:-2] if unit.endswith("ches") else unit[:-1]
    return f"{value:g} {unit}"


def _figure(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_figure(v)}" for k, v in value.items())
    return str(value)


# -- ranking ------------------------------------------------------------------------------------------


class _Severity(Protocol):
    @property
    def rank(self) -> int: ...


class Ranked(Protocol):
    """What ranking needs of a diagnostic (kept structural: diagnostics import this module)."""

    @property
    def cost(self) -> Cost | None: ...

    @property
    def severity(self) -> _Severity: ...

    @property
    def code(self) -> str: ...

    def sort_key(self) -> tuple: ...


D = TypeVar("D", bound=Ranked)


def rank_key(diagnostic: Ranked) -> tuple:
    """Most expensive first: severity, then score, then seconds lost; unscored findings last."""
    cost = diagnostic.cost
    score = cost.score if cost is not None and cost.score is not None else -1.0
    seconds = cost.seconds if cost is not None and cost.seconds is not None else 0.0
    return (-diagnostic.severity.rank, -score, -seconds, diagnostic.sort_key())


def by_cost(diagnostics: Iterable[D]) -> list[D]:
    return sorted(diagnostics, key=rank_key)


def most_expensive(diagnostics: Sequence[D], count: int = 3) -> list[D]:
    """The `count` findings that rank first and carry a known cost that is not nothing: a finding whose
    score is 0 (a spelling, hygiene) costs nothing at run time and is never among them."""
    return [d for d in by_cost(diagnostics) if d.cost is not None and d.cost.score and d.cost.value != 0][:count]


@record
class RuleTotal:
    """The sum of one rule's costs where they add up (times, bytes), with how many were unknown."""

    code: str
    unit: str
    total: float
    counted: int
    unknown: int


def totals(diagnostics: Iterable[Ranked]) -> dict[str, RuleTotal]:
    """Per rule code, the total of additive costs (one unit per rule, the first seen)."""
    sums: dict[str, list] = {}
    for d in diagnostics:
        cost = d.cost
        if cost is None or cost.unit not in ADDITIVE_UNITS or cost.value == 0:
            continue  # a cost of nothing (a spelling) adds nothing worth a column
        entry = sums.setdefault(d.code, [cost.unit, 0.0, 0, 0])
        if cost.unit != entry[0]:
            continue
        if cost.value is None:
            entry[3] += 1
        else:
            entry[1] += cost.value
            entry[2] += 1
    return {
        code: RuleTotal(code, unit, total, counted, unknown)
        for code, (unit, total, counted, unknown) in sorted(sums.items())
    }


def total_text(total: RuleTotal) -> str:
    """ "1.25 ms over 4 (2 unknown)": the sum over the findings whose cost is known."""
    if not total.counted:
        return f"unknown ({total.unknown})"
    text = f"{format_value(total.total, total.unit)} over {total.counted}"
    return text + (f" ({total.unknown} unknown)" if total.unknown else "")
