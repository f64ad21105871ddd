"""Small SYCL sources around accessors, shared by the accessor-usage tests and the accessor rules' tests."""

from __future__ import annotations

import textwrap

from kernlint.facts import Accessor, AccessorUses
from kernlint.facts.accessor_uses import ModeSyntax
from kernlint.frontends.cpp.frontend import extract

PRELUDE = "#include <sycl/sycl.hpp>\nconstexpr size_t N = 1 << 20;\n"


def source(code: str) -> str:
    return PRELUDE + textwrap.dedent(code)


def facts_of(code: str):
    return extract("t.cpp", source(code).encode())


def uses_of(accessor: Accessor) -> AccessorUses:
    """The uses of an accessor the analysis is expected to have judged."""
    assert accessor.uses is not None, accessor.name
    return accessor.uses


def syntax_of(accessor: Accessor) -> ModeSyntax:
    """How an analysed accessor's creation spells its mode."""
    syntax = uses_of(accessor).syntax
    assert syntax is not None, accessor.name
    return syntax


def uses_by_name(code: str) -> dict:
    return {a.name: a.uses for a in facts_of(code).accessors}


def in_kernel(
    body: str,
    accessors: str,
    launch: str = "sycl::range<1>(N)",
    param: str = "sycl::id<1> i",
    before: str = "",
    buffers: str = "",
) -> str:
    """A command group over buffers b0..b5 of N floats, with `accessors` and a lambda kernel `body`."""
    declared = buffers or "".join(f"  sycl::buffer<float, 1> b{k}(v.data(), sycl::range<1>(N));\n" for k in range(6))
    return (
        f"{before}\nvoid f(sycl::queue &q, std::vector<float> &v, bool flag, int reps) {{\n{declared}"
        f"  q.submit([&](sycl::handler &h) {{\n{accessors}\n"
        f"    h.parallel_for({launch}, [=]({param}) {{\n{body}\n    }});\n  }});\n}}\n"
    )


def counts(u) -> tuple:
    return (u.reads, u.writes, u.read_modify_writes, u.atomic, u.escapes)
