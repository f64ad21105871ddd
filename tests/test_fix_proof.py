"""Every fix that narrows data movement rests on a proof in the facts (issue 11, data loss).

`--fix --unsafe-fixes` is applied to a copy of the whole corpus. Before that, each KL102/KL103 fix
offered is matched to the construct it edits and checked against the analysis' facts: a map or an
accessor narrowed to read-only has zero writes, zero read-modify-writes and nothing unknown; one
narrowed to write-only (`from`, `no_init`) has no read, nothing unknown and a write shown to cover the
whole buffer (or, for a map, a covering write that comes before every read: `written_first`). After it,
each edited construct is read again and must carry the narrowed mode.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from corpus_annotations import corpus_files
from kernlint.config import Config
from kernlint.diagnostics import Diagnostic
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import analyse_source
from kernlint.facts import Accessor, FileFacts
from kernlint.facts.openmp import OmpConstruct, OmpVariableUse
from kernlint.frontends import extract_facts
from kernlint.session import make_setup
from kernlint.source import SourceFile

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
NARROWING = ("KL102", "KL103")


@dataclass(frozen=True)
class Narrowed:
    """One fix that narrows data movement: where, what, and to which mode."""

    path: str  # relative to the corpus
    line: int
    name: str  # the accessor or mapped variable
    suggested: str  # read_only | write_only, no_init | to | from
    is_map: bool


@cache
def _setup():
    return make_setup(Config(devices=("xe-hpc",)), use_cache=False)


def _entry(path: Path) -> SourceEntry:
    family = family_of(str(path))
    assert family is not None, path
    return SourceEntry(str(path), family[0], family[1])


def _facts(path: Path) -> FileFacts:
    entry = _entry(path)
    return extract_facts(entry, SourceFile(str(path), path.read_bytes()), Config())


def _narrowing_fixes(path: Path) -> list[Diagnostic]:
    result = analyse_source(_entry(path), path.read_bytes(), _setup())
    return [d for d in result.diagnostics if d.code in NARROWING and d.fix is not None]


def _suggested(diagnostic: Diagnostic) -> str:
    return "write_only, no_init" if diagnostic.code == "KL103" else diagnostic.evidence["suggested"]


def _construct_use(facts: FileFacts, line: int, name: str) -> tuple[OmpConstruct, OmpVariableUse]:
    found = [
        (c, u)
        for c in facts.omp
        if c.span.line <= line <= c.span.end_line
        for u in c.variables
        if u.name in (name, name.lower())
    ]
    assert len(found) == 1, (line, name, found)
    return found[0]


def _accessor(facts: FileFacts, line: int, name: str) -> Accessor:
    found = [a for a in facts.accessors if a.span.line == line and a.name == name]
    assert len(found) == 1, (line, name, [(a.span.line, a.name) for a in facts.accessors])
    return found[0]


def _check_map_proof(use: OmpVariableUse, suggested: str) -> None:
    assert not use.escapes and not use.unknown and not use.updated, use
    if suggested == "to":
        assert use.writes == 0 and use.reads > 0 and use.read_modify_writes == 0, use
    elif use.written_first:  # reads, if any, come after a write of every element
        assert suggested == "from" and use.writes > 0, use
    else:
        assert suggested == "from" and use.reads == 0 and use.read_modify_writes == 0, use
        assert use.writes_cover is True, use


def _check_accessor_proof(accessor: Accessor, suggested: str) -> None:
    uses = accessor.uses
    assert uses is not None and uses.complete and not uses.atomic and uses.read_modify_writes == 0, accessor
    if suggested == "read_only":
        assert uses.writes == 0 and uses.reads > 0, uses
    else:
        assert suggested == "write_only, no_init", suggested
        assert uses.reads == 0 and uses.covering_write is not None and not uses.same_buffer_modes, uses


@cache
def _offered() -> tuple[Narrowed, ...]:
    """Every narrowing fix on the corpus, each checked against its proof before it is recorded."""
    narrowed = []
    for path in corpus_files(CORPUS):
        fixes = _narrowing_fixes(path)
        if not fixes:
            continue
        facts = _facts(path)
        for diagnostic in fixes:
            suggested = _suggested(diagnostic)
            is_map = "variable" in diagnostic.evidence
            if is_map:
                name = diagnostic.evidence["variable"]
                _check_map_proof(_construct_use(facts, diagnostic.line, name)[1], suggested)
            else:
                name = diagnostic.evidence["accessor"]
                _check_accessor_proof(_accessor(facts, diagnostic.line, name), suggested)
            narrowed.append(Narrowed(str(path.relative_to(CORPUS)), diagnostic.line, name, suggested, is_map))
    return tuple(narrowed)


def test_every_narrowing_fix_on_the_corpus_rests_on_a_proof() -> None:
    offered = _offered()
    # The corpus exercises every kind of narrowing: to, from, read_only, write_only + no_init.
    assert {n.suggested for n in offered} >= {"to", "from", "read_only", "write_only, no_init"}, offered


@pytest.fixture(scope="module")
def fixed_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("fixed") / "corpus"
    shutil.copytree(CORPUS, copy)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kernlint",
            str(copy),
            "--fix",
            "--unsafe-fixes",
            "--no-cache",
            "--exit-zero",
            "--device",
            "xe-hpc",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return copy


def test_unsafe_fixes_applied_to_the_corpus_narrow_exactly_the_proven_constructs(fixed_corpus: Path) -> None:
    for narrowed in _offered():
        path = fixed_corpus / narrowed.path
        facts = _facts(path)
        if narrowed.is_map:
            construct, use = _construct_use(facts, narrowed.line, narrowed.name)
            assert construct.directive is not None
            types = [
                m.map_type
                for m in construct.directive.map_items
                if m.item.name in (narrowed.name, narrowed.name.upper()) or m.item.name.lower() == narrowed.name
            ]
            assert types == [narrowed.suggested], (narrowed, types)
            _check_map_proof(use, narrowed.suggested)  # the region still proves what the edit assumed
        else:
            accessor = _accessor(facts, narrowed.line, narrowed.name)
            if narrowed.suggested == "read_only":
                assert accessor.mode == "read", (narrowed, accessor.mode)
            else:
                assert accessor.mode == "write" and "no_init" in accessor.properties, (narrowed, accessor)


def test_no_tofrom_map_or_read_write_accessor_is_narrowed_without_a_fix_record(fixed_corpus: Path) -> None:
    """Nothing else in the fixed corpus lost a `tofrom`/`read_write`: every narrowed construct is one
    the proof check above accepted."""
    recorded = {(n.path, n.line, n.name) for n in _offered()}
    for path in corpus_files(CORPUS):
        relative = str(path.relative_to(CORPUS))
        before, after = _facts(path), _facts(fixed_corpus / relative)
        for old, new in zip(before.omp, after.omp):
            if old.directive is None or new.directive is None:
                continue
            for a, b in zip(old.directive.map_items, new.directive.map_items):
                if a.map_type == "tofrom" and b.map_type != "tofrom":
                    key = (relative, old.span.line, a.item.name)
                    assert (
                        key in recorded
                        or (relative, old.span.line, a.item.name.lower()) in recorded
                        or any(
                            r[0] == relative
                            and r[2] in (a.item.name, a.item.name.lower())
                            and old.span.line <= r[1] <= old.span.end_line
                            for r in recorded
                        )
                    ), key
        for old_accessor, new_accessor in zip(before.accessors, after.accessors):
            if old_accessor.mode in ("read_write", None) and new_accessor.mode in ("read", "write"):
                key = (relative, old_accessor.span.line, old_accessor.name or "")
                assert key in recorded, key
