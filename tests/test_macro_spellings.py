"""`dialect.Macros` searches a file only for the macro names it spells; a name holding `__` is not
searched for in a file that spells no `__` at all. The rewrite must be the one a search for every
name gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernlint.frontends.cpp import dialect

_OBJECTS = dict.fromkeys(dialect.BUILTIN_OBJECT, "") | {"MY_INLINE": "inline", "A__B": ""}
_FUNCTIONS = dict.fromkeys(dialect.BUILTIN_FUNCTION, "")
_PIECES = st.sampled_from(
    [
        "__device__",
        "__host__",
        "_",
        "__",
        "DPCT_INLINE",
        "SYCL_EXTERNAL",
        "MY_INLINE",
        "A__B",
        "A_",
        "_B",
        "__align__(16)",
        "__launch_bounds__",
        " ",
        "\n",
        "#define X __device__\n",
        "int f();",
        "(",
        ")",
    ]
)


def _every_name_searched(data: bytes) -> bytes:
    """The rewrite with every name searched for, as before the `__` check."""
    spelt = [n for n in {*_OBJECTS, *_FUNCTIONS} if n.encode() in data]
    if spelt:
        directives = b"\n".join(m.group(0) for m in dialect._DIRECTIVES.finditer(data))
        spelt = [n for n in spelt if data.count(n.encode()) > directives.count(n.encode())]
    if not spelt:
        return data
    macros = dialect.Macros(_OBJECTS, _FUNCTIONS)
    return dialect._pattern(tuple(sorted(spelt, key=lambda n: (-len(n), n)))).sub(macros._rewrite, data)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_PIECES, max_size=12).map(lambda pieces: "".join(pieces).encode()))
def test_the_rewrite_of_a_search_for_every_name(data: bytes) -> None:
    assert dialect.Macros(_OBJECTS, _FUNCTIONS, data).apply(data) == _every_name_searched(data)


def test_examples() -> None:
    assert dialect.Macros(_OBJECTS, _FUNCTIONS, b"DPCT_INLINE int f();").apply(b"DPCT_INLINE int f();") == (
        b"            int f();"
    )
    assert dialect.Macros(_OBJECTS, _FUNCTIONS, b"__device__ int f();").apply(b"__device__ int f();") == (
        b"           int f();"
    )
