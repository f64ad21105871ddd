"""Severities and classes the corpus pins: an annotation may add them after the code,
`// expect: KL501 (info, inherent)` or `// expect: KL502 (error)`, and the finding of that code on that
line must have that severity (and that evidence `class`). The plain annotation check (test_corpus.py)
ignores what follows the codes; this one makes issue 18's severity policy testable on real-looking
kernels: an inherent CSR row loop is an info, a tree reduction behind barriers a warning."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import CORPUS
from corpus_annotations import corpus_files, pinned_devices, pinned_frontend
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from test_corpus import setup_for

_PINNED = re.compile(
    r"expect(?:\[(?P<device>[\w.-]+)\])?:\s*(?P<code>KL\d{3})\s*\((?P<severity>error|warning|info)"
    r"(?:,\s*(?P<klass>[\w-]+))?\)"
)


def pinned(text: str, device: str) -> list[tuple[int, str, str, str | None]]:
    """(line, code, severity, class) for every annotation that pins a severity on `device`."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _PINNED.finditer(line):
            if match.group("device") in (None, device):
                found.append((number, match.group("code"), match.group("severity"), match.group("klass")))
    return found


CASES = [
    (path, device)
    for path in corpus_files(CORPUS)
    for device in pinned_devices(path.read_text("utf-8", errors="replace"))
    if pinned(path.read_text("utf-8", errors="replace"), device)
]


def test_the_corpus_pins_severities() -> None:
    assert len(CASES) >= 8  # the issue-18 corpus files, at least


@pytest.mark.parametrize(("path", "device"), CASES, ids=[f"{p.relative_to(CORPUS)}@{d}" for p, d in CASES])
def test_pinned_severity_and_class(path: Path, device: str) -> None:
    text = path.read_text("utf-8", errors="replace")
    setup = setup_for(device, pinned_frontend(text))
    entries, problems = discover([str(path)], setup.config)
    assert not problems and len(entries) == 1
    result = analyse_file(entries[0], setup)
    wrong = []
    for line, code, severity, klass in pinned(text, device):
        got = [
            (d.severity.value, d.evidence.get("class")) for d in result.diagnostics if (d.line, d.code) == (line, code)
        ]
        if not any(s == severity and (klass is None or c == klass) for s, c in got):
            wrong.append(f"line {line} {code}: wanted ({severity}, {klass}), got {got}")
    assert not wrong, f"{path.name} on {device}:\n" + "\n".join(wrong)
