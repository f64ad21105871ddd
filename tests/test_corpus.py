"""Every corpus file produces exactly its `expect:` annotations on each device it pins."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conftest import CORPUS, REPO, run_json
from corpus_annotations import corpus_files, expected, pinned_devices, pinned_frontend
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.session import make_setup

CASES = [
    (path, device)
    for path in corpus_files(CORPUS)
    for device in pinned_devices(path.read_text("utf-8", errors="replace"))
]


def _setups():
    cache = {}

    def get(device: str, frontend: str = "tree-sitter"):
        if (device, frontend) not in cache:
            config = Config(root=str(REPO), devices=(device,), frontend=frontend)
            cache[device, frontend] = make_setup(config, use_cache=False)
        return cache[device, frontend]

    return get


setup_for = _setups()


@pytest.mark.parametrize("path,device", CASES, ids=[f"{p.relative_to(CORPUS)}@{d}" for p, d in CASES])
def test_corpus_file_matches_annotations(path: Path, device: str) -> None:
    text = path.read_text("utf-8", errors="replace")
    frontend = pinned_frontend(text)
    setup = setup_for(device, frontend)
    entries, problems = discover([str(path)], setup.config)
    assert not problems and len(entries) == 1
    result = analyse_file(entries[0], setup)
    actual = Counter((d.line, d.code) for d in result.diagnostics)
    wanted = expected(text, device, frontend)
    missing = wanted - actual
    extra = actual - wanted
    details = "\n".join(f"  {d.line}:{d.column} {d.code} {d.message}" for d in result.diagnostics)
    assert not missing and not extra, (
        f"{path.name} on {device}: missing {sorted(missing.elements())}, unexpected {sorted(extra.elements())}\n"
        f"kernlint reported:\n{details}"
    )


def _annotated() -> tuple[Counter, dict[str, set[str]]]:
    codes: Counter = Counter()
    suffixes: dict[str, set[str]] = {}
    for path in corpus_files(CORPUS):
        text = path.read_text("utf-8", errors="replace")
        for device in pinned_devices(text):
            for _line, code in expected(text, device).elements():
                codes[code] += 1
                suffixes.setdefault(code, set()).add(path.suffix)
    return codes, suffixes


def test_corpus_covers_every_mission_rule() -> None:
    """docs/contract.md §5's mission rules each have at least ten annotated findings (issues 2, 4 and 5), and
    the OpenMP rules are exercised in C, C++, free-form and fixed-form Fortran (KL708, about C pointers,
    in C and C++)."""
    codes, suffixes = _annotated()
    for code in ("KL101", "KL102", "KL103", "KL201", "KL202", "KL301", "KL401", "KL501", "KL502"):
        assert codes[code] >= 10, f"{code}: only {codes[code]} annotated findings"
    for code in ("KL102", "KL201", "KL401", "KL402", "KL403", "KL404", "KL405", "KL501"):
        assert {".c", ".cpp", ".f90", ".f"} <= suffixes[code], f"{code}: {sorted(suffixes[code])}"
    for code in ("KL209", "KL705", "KL706", "KL707"):  # issue 27's OpenMP offload checks
        assert {".c", ".cpp", ".f90", ".f"} <= suffixes[code], f"{code}: {sorted(suffixes[code])}"
    assert {".c", ".cpp"} <= suffixes["KL708"]  # pointers to pointers and pointer members: C and C++


def test_every_registered_rule_has_corpus_cases_and_documentation() -> None:
    from kernlint.plugins import load_plugins

    codes, _ = _annotated()
    for code, rule in load_plugins().rules.items():
        assert codes[code] > 0, f"{code} has no annotated corpus case"
        doc = rule.documentation()
        for section in ("What it does", "Why it matters", "Example", "Fix", "Occupancy basis"):
            assert section in doc, f"{code} documentation lacks {section!r}"


def test_whole_corpus_through_the_cli_json() -> None:
    """`kernlint corpus/ --format json` reports exactly the annotations (default device files)."""
    code, report = run_json("corpus/")
    by_file: dict[str, Counter] = {}
    for diagnostic in report["diagnostics"]:
        by_file.setdefault(diagnostic["path"], Counter())[(diagnostic["line"], diagnostic["code"])] += 1
    for path in corpus_files(CORPUS):
        text = path.read_text("utf-8", errors="replace")
        if pinned_devices(text) != ("xe-hpc",) or pinned_frontend(text) != "tree-sitter":
            continue
        relative = str(path.relative_to(REPO))
        assert by_file.get(relative, Counter()) == expected(text, "xe-hpc"), relative
    assert code == (1 if report["diagnostics"] else 0)
    assert report["summary"]["files"] == len(report["files"]) == len(corpus_files(CORPUS))
