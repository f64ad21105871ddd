"""Reading the `expect:` annotations of corpus files (docs/contract.md §7)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

_EXPECT = re.compile(
    r"(?://|!|/\*)[^\n]*?\bexpect(?:\[(?P<device>[\w.-]+)\])?:\s*(?P<codes>KL\d{3}(?:\s*,\s*KL\d{3})*)"
)
_DEVICES = re.compile(r"kernlint-devices:\s*(?P<ids>[\w.\- ]+)")
_FRONTEND = re.compile(r"kernlint-frontend:\s*(?P<name>[\w-]+)")
DEFAULT_DEVICES = ("xe-hpc",)
FRONTENDS = ("tree-sitter", "clang")


def pinned_devices(text: str) -> tuple[str, ...]:
    """Devices a corpus file pins in its first lines, or the default device."""
    for line in text.splitlines()[:5]:
        match = _DEVICES.search(line)
        if match:
            return tuple(match.group("ids").split())
    return DEFAULT_DEVICES


def pinned_frontend(text: str) -> str:
    """The front-end a corpus file is checked with: `// kernlint-frontend: clang` in its first lines
    for a case only a compiler front-end gets right, else tree-sitter (the default)."""
    for line in text.splitlines()[:5]:
        match = _FRONTEND.search(line)
        if match:
            return match.group("name")
    return "tree-sitter"


def expected(text: str, device: str, frontend: str = "tree-sitter") -> Counter[tuple[int, str]]:
    """(line, code) pairs a file must produce on `device` with `frontend`, counted (a line may expect a
    code twice). `expect[ID]:` is for one device or, when ID names a front-end, for that front-end
    only (`expect[tree-sitter]:` marks what the precise front-end rightly does not report)."""
    result: Counter[tuple[int, str]] = Counter()
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _EXPECT.finditer(line):
            qualifier = match.group("device")
            if qualifier not in (None, device, frontend) or (qualifier in FRONTENDS and qualifier != frontend):
                continue
            for code in re.split(r"\s*,\s*", match.group("codes")):
                result[(number, code)] += 1
    return result


def corpus_files(root: Path) -> list[Path]:
    suffixes = {".cpp", ".cc", ".cxx", ".hpp", ".h", ".c", ".f90", ".F90", ".f", ".F", ".f08", ".for"}
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes)
