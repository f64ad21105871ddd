"""Calls of side-effect-free math builtins (`sqrt`, `sycl::fmax`, `std::min`): an arm's cost does not
count them as work (`arms`)."""

from __future__ import annotations

import tree_sitter

from kernlint.frontends.common.nodes import text_of

Node = tree_sitter.Node

_MATH = frozenset(
    {
        "abs",
        "fabs",
        "fabsf",
        "min",
        "max",
        "fmin",
        "fmax",
        "fminf",
        "fmaxf",
        "sqrt",
        "sqrtf",
        "rsqrt",
        "exp",
        "expf",
        "exp2",
        "log",
        "logf",
        "log2",
        "pow",
        "powf",
        "sin",
        "cos",
        "sinf",
        "cosf",
        "tan",
        "floor",
        "ceil",
        "floorf",
        "ceilf",
        "round",
        "trunc",
        "clamp",
        "select",
        "mad",
        "fma",
        "fmaf",
        "copysign",
        "isnan",
        "isinf",
        "native_exp",
        "native_log",
        "native_sqrt",
        "native_recip",
        "native_divide",
        "rint",
        "lrint",
        "hypot",
    }
)


def is_math_call(call: Node) -> bool:
    """A call to a side-effect-free math builtin (`sqrt`, `sycl::fmax`, `std::min`)."""
    function = call.child_by_field_name("function")
    name = text_of(function)
    return name.rsplit("::", 1)[-1].rsplit(".", 1)[-1] in _MATH
