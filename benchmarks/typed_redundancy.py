"""How many device-code facts each version of a statement typed into host code changes: how much of the
re-analysis a keystroke triggers in the language server finds nothing new (issue 24's typing case).

Run by hand: `python benchmarks/typed_redundancy.py FILE LINE [--typed TEXT]`. Each prefix of TEXT (by
default `bench_lsp.py`'s first typed statement) is typed on a new line before LINE (counted from 1), and
the front-end's facts of that version are compared with those of the file as it was. Spans are taken
out (`reuse.without_spans`), because the typed line moves what follows it. The compared facts are the
branches of SYCL kernels and OpenMP regions, sub-group block accesses, barriers, memory accesses and
analysis limits. Each version that changes one is printed with its counts of facts gone or new. A
half-typed statement changes the reuse key of every kernel, so the worker analyses them all again (see
`kernlint/frontends/cpp/device/host_slice.py`). What this prints is how often that finds anything
new. Facts only, no timing; standard library and kernlint only.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from kernlint.facts import FileFacts
from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.device.reuse import without_spans

TYPED = "int kernlint_n0 = f(a, 0);"  # bench_lsp.py's first `--typed-at` statement
COMPARED = ("branches", "block_accesses", "barriers", "memory_accesses", "limits")


def _facts(path: str, data: bytes) -> dict[str, Counter[str]]:
    facts: FileFacts = frontend.extract(path, data)
    return {kind: Counter(repr(without_spans(fact)) for fact in getattr(facts, kind)) for kind in COMPARED}


def typed_versions(data: bytes, line: int, typed: str = TYPED) -> list[tuple[str, bytes]]:
    """Each prefix of `typed` (one character more each) on a new line before `line` of `data`."""
    lines = data.split(b"\n")
    return [
        (typed[:end], b"\n".join([*lines[: line - 1], typed[:end].encode(), *lines[line - 1 :]]))
        for end in range(1, len(typed) + 1)
    ]


def changed_facts(path: str, data: bytes, line: int, typed: str = TYPED) -> list[tuple[str, dict[str, int]]]:
    """For each typed prefix (see `typed_versions`), how many facts of each kind differ from `data`'s
    (gone plus new), spans taken out."""
    before = _facts(path, data)
    found = []
    for prefix, version in typed_versions(data, line, typed):
        now = _facts(path, version)
        differ = {kind: sum(((now[kind] - before[kind]) + (before[kind] - now[kind])).values()) for kind in COMPARED}
        found.append((prefix, differ))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("line", type=int, help="the line the statement is typed before, counted from 1")
    parser.add_argument("--typed", default=TYPED, metavar="TEXT", help=f"the statement typed ({TYPED})")
    args = parser.parse_args()
    data = Path(args.file).read_bytes()
    counted = {kind: sum(facts.values()) for kind, facts in _facts(args.file, data).items()}
    print(f"{args.file}: {', '.join(f'{count} {kind}' for kind, count in counted.items())}")
    found = changed_facts(args.file, data, args.line, args.typed)
    for prefix, counts in found:
        if any(counts.values()):
            print(f"  {prefix!r}: " + ", ".join(f"{kind} {count}" for kind, count in counts.items() if count))
    changed = sum(any(counts.values()) for _prefix, counts in found)
    print(f"{changed} of {len(found)} typed versions change a device-code fact")


if __name__ == "__main__":
    main()
