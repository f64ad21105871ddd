"""Property: no input crashes the engine. Whatever bytes a file holds — truncated, spliced, binary,
random — analysis returns a result, and no rule or front-end fails with an internal error."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, REPO
from corpus_annotations import corpus_files
from kernlint.config import Config
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import analyse_source
from kernlint.session import make_setup

SEEDS = [(p, p.read_bytes()) for p in corpus_files(CORPUS)]
SETUP = make_setup(Config(root=str(REPO), devices=("xe-hpc", "gen9", "h100")), use_cache=False)


def analyse(name: str, data: bytes):
    result = analyse_source(SourceEntry(name, *(family_of(name) or ("cpp", False))), data, SETUP)
    internal = [d.message for d in result.diagnostics if d.evidence.get("internal")]
    assert not internal, internal
    return result


@st.composite
def mutated_corpus_file(draw) -> tuple[str, bytes]:
    path, data = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(data)))
        end = draw(st.integers(start, min(len(data), start + 200)))
        kind = draw(st.sampled_from(["delete", "duplicate", "insert", "truncate"]))
        if kind == "delete":
            data = data[:start] + data[end:]
        elif kind == "duplicate":
            data = data[:end] + data[start:end] + data[end:]
        elif kind == "insert":
            data = data[:start] + draw(st.sampled_from(
                [b"{", b"}", b"(", b"#if 0\n", b"#endif\n", b"\\\n", b"&\n", b"!$omp ", b"\xff\xfe", b"'"])) + data[start:]
        else:
            data = data[:start]
    return path.name, data


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_corpus_file())
def test_mutated_corpus_files_never_crash(case: tuple[str, bytes]) -> None:
    name, data = case
    analyse(name, data)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["k.cpp", "k.c", "k.f90", "k.f", "k.hpp"]), st.binary(max_size=400))
def test_random_bytes_never_crash(name: str, data: bytes) -> None:
    result = analyse(name, data)
    assert result.path == name


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["k.cpp", "k.f90", "k.f"]),
       st.text(alphabet=st.sampled_from(list("(){}[];:,.=<>+-*/%&|!?#\\\n \tabcdijnqsx0123456789_$'\"")),
               max_size=300))
def test_random_token_soup_never_crashes(name: str, text: str) -> None:
    analyse(name, text.encode())


def test_seeds_exist() -> None:
    assert len(SEEDS) > 20 and all(isinstance(p, Path) for p, _ in SEEDS)
