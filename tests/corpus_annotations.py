"""Reading the `expect:` annotations of corpus files (SPEC.md §7)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

_EXPECT = re.compile(r"(?://|!|/\*)[^\n]*?\bexpect(?:\[(?P<device>[\w.-]+)\])?:\s*(?P<codes>KL\d{3}(?:\s*,\s*KL\d{3})*)")
_DEVICES = re.compile(r"kernlint-devices:\s*(?P<ids>[\w.\- ]+)")
DEFAULT_DEVICES = ("xe-hpc",)


def pinned_devices(text: str) -> tuple[str, ...]:
    """Devices a corpus file pins in its first lines, or the default device."""
    for line in text.splitlines()[:5]:
        match = _DEVICES.search(line)
        if match:
            return tuple(match.group("ids").split())
    return DEFAULT_DEVICES


def expected(text: str, device: str) -> Counter[tuple[int, str]]:
    """(line, code) pairs a file must produce on `device`, counted (a line may expect a code twice)."""
    result: Counter[tuple[int, str]] = Counter()
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _EXPECT.finditer(line):
            if match.group("device") not in (None, device):
                continue
            for code in re.split(r"\s*,\s*", match.group("codes")):
                result[(number, code)] += 1
    return result


def corpus_files(root: Path) -> list[Path]:
    suffixes = {".cpp", ".cc", ".cxx", ".hpp", ".h", ".c", ".f90", ".F90", ".f", ".F", ".f08", ".for"}
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes)
