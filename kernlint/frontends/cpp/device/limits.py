"""The bounds of the SYCL device-code analysis, and what the report says where one is met: a
`LimitReached` fact naming the bound, so no finding goes missing without a word (issue 19, item 5)."""

from __future__ import annotations

from kernlint.facts import LimitReached, Span
from kernlint.frontends.cpp.dependence.lowering import MAX_DEPTH

MAX_CALL_DEPTH = 8  # call-graph levels followed from a kernel
MAX_REGIONS = 64  # device functions per kernel

TOO_DEEP_EXPRESSION = (
    f"this expression is nested more than {MAX_DEPTH} levels deep (parentheses aside), deeper than the "
    "work-item dependence analysis reads: what lies deeper counts as the same for every work-item, so a "
    "divergent branch or barrier that depends on it (KL501, KL502) may be missing"
)
TOO_DEEP_FOR_PYTHON = (
    "the device code of this file nests deeper than the work-item dependence analysis can follow; "
    "divergent branches and barriers (KL501, KL502) and sub-group block accesses (KL301) are not reported for it"
)


def call_graph_cut(name: str, call: Span, too_deep: bool) -> LimitReached:
    """Where the call graph was cut at `call`: the device code of `name` behind it is not analysed."""
    why = (
        f"{MAX_CALL_DEPTH} levels of calls from the kernel, the most kernlint follows"
        if too_deep
        else f"{MAX_REGIONS} device functions reached from the kernel, the most kernlint analyses for one kernel"
    )
    return LimitReached(
        call,
        f"`{name}` is not analysed as device code of this kernel: it lies beyond {why}; "
        "divergent branches and barriers in it (KL501, KL502) are not reported",
    )


def by_position(limit: LimitReached) -> tuple[int, int]:
    return (limit.span.start_byte, limit.span.end_byte)
