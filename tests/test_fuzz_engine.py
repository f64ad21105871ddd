"""Property: no input crashes the engine. Whatever bytes a file holds — truncated, spliced, lines
deleted or duplicated, tokens swapped, random bytes, generated OpenMP directives — analysis returns
findings or a KL000, no rule or front-end fails with an internal error, and every span lies inside
the file; any generated config either sets kernlint up or is a clear ConfigError. Example counts are
small to keep the suite fast; benchmarks/fuzz_long.py runs the same properties for longer."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, REPO
from corpus_annotations import corpus_files
from kernlint.config import Config, ConfigError, load_config
from kernlint.diagnostics import FileResult
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import EngineSetup, analyse_source
from kernlint.session import make_setup
from span_checks import spans_inside

SEEDS = [(p, p.read_bytes()) for p in corpus_files(CORPUS)]
# benchmarks/fuzz_long.py raises this to run the same properties on many more examples.
SCALE = int(os.environ.get("KERNLINT_FUZZ_SCALE", "1"))
SETUP = make_setup(Config(root=str(REPO), devices=("xe-hpc", "gen9", "h100")), use_cache=False)


def analyse(name: str, data: bytes, setup: EngineSetup = SETUP) -> FileResult:
    """The engine's result: findings or a KL000, never an exception nor an internal error, and every
    span inside the file."""
    result = analyse_source(SourceEntry(name, *(family_of(name) or ("cpp", False))), data, setup)
    internal = [d.message for d in result.diagnostics if d.evidence.get("internal")]
    assert not internal, internal
    spans_inside(result, data)
    return result


_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*|\d+|\S")


def mutate(draw, data: bytes) -> bytes:
    """One edit of the kinds real half-typed or damaged files show."""
    kind = draw(
        st.sampled_from(
            [
                "delete",
                "duplicate",
                "insert",
                "truncate",
                "delete-line",
                "duplicate-line",
                "swap-tokens",
                "random-bytes",
            ]
        )
    )
    start = draw(st.integers(0, len(data)))
    end = draw(st.integers(start, min(len(data), start + 200)))
    lines = data.split(b"\n")
    line = draw(st.integers(0, max(len(lines) - 1, 0)))
    if kind == "delete":
        return data[:start] + data[end:]
    if kind == "duplicate":
        return data[:end] + data[start:end] + data[end:]
    if kind == "insert":
        return (
            data[:start]
            + draw(
                st.sampled_from(
                    [
                        b"{",
                        b"}",
                        b"(",
                        b"#if 0\n",
                        b"#endif\n",
                        b"\\\n",
                        b"&\n",
                        b"!$omp ",
                        b"\xff\xfe",
                        b"'",
                        b"\r",
                        b"\t",
                        "\u6f22\U0001f600".encode(),
                    ]
                )
            )
            + data[start:]
        )
    if kind == "truncate":
        return data[:start]
    if kind == "delete-line":
        return b"\n".join(lines[:line] + lines[line + 1 :])
    if kind == "duplicate-line":
        return b"\n".join(lines[: line + 1] + lines[line:])
    if kind == "swap-tokens":
        tokens = list(_TOKEN.finditer(data))
        if len(tokens) < 2:
            return data
        first = draw(st.integers(0, len(tokens) - 2))
        second = draw(st.integers(first + 1, min(len(tokens) - 1, first + 12)))
        a, b = tokens[first], tokens[second]
        return data[: a.start()] + b.group() + data[a.end() : b.start()] + a.group() + data[b.end() :]
    return data[:start] + draw(st.binary(min_size=1, max_size=16)) + data[end:]


@st.composite
def mutated_corpus_file(draw) -> tuple[str, bytes]:
    path, data = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        data = mutate(draw, data)
    return path.name, data


@settings(max_examples=80 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_corpus_file())
def test_mutated_corpus_files_never_crash(case: tuple[str, bytes]) -> None:
    name, data = case
    analyse(name, data)


@settings(max_examples=60 * SCALE, deadline=None)
@given(st.sampled_from(["k.cpp", "k.c", "k.f90", "k.f", "k.hpp"]), st.binary(max_size=400))
def test_random_bytes_never_crash(name: str, data: bytes) -> None:
    result = analyse(name, data)
    assert result.path == name


@settings(max_examples=60 * SCALE, deadline=None)
@given(
    st.sampled_from(["k.cpp", "k.f90", "k.f"]),
    st.text(alphabet=st.sampled_from(list("(){}[];:,.=<>+-*/%&|!?#\\\n \tabcdijnqsx0123456789_$'\"")), max_size=300),
)
def test_random_token_soup_never_crashes(name: str, text: str) -> None:
    analyse(name, text.encode())


# -- generated OpenMP directives and expressions ------------------------------------------------

_EXPRESSIONS = st.recursive(
    st.sampled_from(["i", "n", "j", "0", "1", "16", "N", "n - 1", "i + 8", "-1"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from([" + ", " - ", " * ", " / ", " % ", " < "]), inner).map("".join),
        inner.map(lambda e: f"({e})"),
    ),
    max_leaves=6,
)
_CLAUSES = st.one_of(
    st.builds(
        lambda kind, e: f"map({kind}: a[0:{e}])",
        st.sampled_from(["to", "from", "tofrom", "alloc", "release", "always, tofrom", "bogus"]),
        _EXPRESSIONS,
    ),
    st.builds(lambda e: f"num_teams({e})", _EXPRESSIONS),
    st.builds(lambda e: f"thread_limit({e})", _EXPRESSIONS),
    st.builds(lambda e: f"collapse({e})", _EXPRESSIONS),
    st.builds(lambda e: f"if({e})", _EXPRESSIONS),
    st.builds(lambda e: f"data(4: a[{e}])", _EXPRESSIONS),
    st.builds(lambda e: f"simdlen({e})", _EXPRESSIONS),
    st.sampled_from(
        [
            "nowait",
            "reduction(+: s)",
            "private(j)",
            "firstprivate(n)",
            "schedule(static, 4)",
            "(",
            ")",
            "map(",
            "map(to:",
            "depend(in: a)",
            "is_device_ptr(a)",
            "defaultmap(tofrom: scalar)",
        ]
    ),
)
_DIRECTIVES = st.sampled_from(
    [
        "target",
        "target teams distribute parallel for",
        "target data",
        "target enter data",
        "target update",
        "teams",
        "parallel for simd",
        "simd",
        "prefetch",
        "loop",
        "target teams loop",
        "distribute",
        "bogus",
    ]
)


@settings(max_examples=40 * SCALE, deadline=None)
@given(_DIRECTIVES, st.lists(_CLAUSES, max_size=4), _EXPRESSIONS, st.booleans())
def test_generated_directives_never_crash(directive: str, clauses: list[str], bound: str, fortran: bool) -> None:
    text = f"{directive} {' '.join(clauses)}"
    if fortran:
        source = (
            f"subroutine s(a, n)\n  integer :: n, i, j\n  real :: a(n), s\n  !$omp {text}\n"
            f"  do i = 1, {bound}\n    a(i) = a(i) + 1\n  end do\nend subroutine\n"
        )
        analyse("k.f90", source.encode())
    else:
        source = (
            f"void s(float *a, int n) {{\n  float s = 0; int j;\n#pragma omp {text}\n"
            f"  for (int i = 0; i < {bound}; ++i) {{ a[i] += 1; }}\n}}\n"
        )
        analyse("k.c", source.encode())


# -- generated configuration --------------------------------------------------------------------

_TOML_SCALARS = st.one_of(
    st.sampled_from(
        [
            "KL1",
            "KL101",
            "KL000",
            "KL",
            "ALL",
            "KL9",
            "E501",
            "xe-lp",
            "h100",
            "",
            "error",
            "warning",
            "nope",
            "W=16",
            "1BAD",
            "*.cpp",
            "legacy/*",
        ]
    ),
    st.integers(-3, 300),
    st.booleans(),
)
_TOML_VALUES = st.one_of(_TOML_SCALARS, st.lists(_TOML_SCALARS, max_size=3))
_KEYS = st.sampled_from(
    [
        "device",
        "select",
        "ignore",
        "extend-select",
        "exclude",
        "extend-exclude",
        "fail-on",
        "include-dirs",
        "defines",
        "macros",
        "devices",
        "frontend",
    ]
)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)  # strings and integers are spelt alike in TOML and JSON


@settings(max_examples=40 * SCALE, deadline=None)
@given(
    st.dictionaries(_KEYS, _TOML_VALUES, max_size=4),
    st.dictionaries(st.sampled_from(["*.cpp", "legacy/*", "k.cpp"]), _TOML_VALUES, max_size=2),
    st.dictionaries(
        st.sampled_from(["KL101", "KL202", "KL999"]),
        st.dictionaries(st.sampled_from(["threshold", "min_occupancy_pct", "x"]), _TOML_SCALARS, max_size=2),
        max_size=2,
    ),
)
def test_generated_configs_are_used_or_rejected_clearly(
    tmp_path_factory: pytest.TempPathFactory, table: dict, ignores: dict, rules: dict
) -> None:
    """Any config either sets kernlint up or is a ConfigError naming the file; a set-up run analyses."""
    directory = tmp_path_factory.mktemp("config")
    text = "".join(f"{key} = {toml_value(value)}\n" for key, value in table.items())
    text += "[per-file-ignores]\n" + "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in ignores.items())
    text += "".join(
        f"[rules.{code}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in options.items())
        for code, options in rules.items()
    )
    path = directory / "kernlint.toml"
    path.write_text(text, encoding="utf-8")
    try:
        setup = make_setup(load_config(path), use_cache=False)
    except ConfigError as error:
        assert str(path) in str(error) and "\n" not in str(error).strip()
        return
    analyse(str(directory / "k.cpp"), SEEDS[0][1], setup)


def test_seeds_exist() -> None:
    assert len(SEEDS) > 20 and all(isinstance(p, Path) for p, _ in SEEDS)
