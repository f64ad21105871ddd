"""Per-file cost of the two C/C++ front-ends, and how many kernels survive in libclang's AST.

Run by hand: `python benchmarks/clang_cost.py [--limit N] [--disagreements] PATH...` (files or
directories; `.cpp`, `.c`, `.sycl` and `.hpp` files are read, in sorted order, the first N of them).
For each file it times the tree-sitter front-end and the clang front-end (tree-sitter facts refined
by libclang), and counts the kernel launches (`parallel_for`, `single_task`,
`parallel_for_work_group`) written with their lambda in the call, as tree-sitter finds them and as
libclang keeps them in its AST: without SYCL headers it drops the whole `submit(…)` statement, with
kernlint's declaration-only headers it should keep them all. `--disagreements` also prints every
fact the two front-ends give differently (a fact added, dropped or with other values, by line).
Nothing here is timed in CI.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from dataclasses import fields
from pathlib import Path

from clang import cindex

from kernlint.facts import FileFacts
from kernlint.frontends.clang import frontend as clang_frontend
from kernlint.frontends.clang.flags import flags_for
from kernlint.frontends.clang.unit import ClangUnit
from kernlint.frontends.cpp import frontend as cpp_frontend

_SUFFIXES = {".cpp", ".c", ".sycl", ".hpp", ".cc", ".cxx"}
_INLINE_LAMBDA = re.compile(rb"\[[=&]?[\w\s,&=*]*\]\s*\(")  # `[=](`, `[&, n](`: a lambda written in the call
_LAUNCH_CALLEE = re.compile(rb"\b(parallel_for|single_task|parallel_for_work_group)\s*(<|$)")


def _files(paths: list[str], limit: int) -> list[str]:
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(str(p) for p in Path(path).rglob("*") if p.suffix in _SUFFIXES and p.is_file())
        else:
            found.append(path)
    return found[:limit]


def _surviving_kernels(unit: ClangUnit, data: bytes) -> int:
    """Launch calls of the main file that hold a lambda (the kernel) in the AST. The callee is read
    from the call's text: inside a template the call is unresolved and has no name of its own."""
    starts: set[int] = set()
    for cursor in unit.tu.cursor.walk_preorder():
        if cursor.kind != cindex.CursorKind.CALL_EXPR:
            continue
        location = cursor.location
        if location.file is None or location.file.name != unit.path:
            continue
        start, end = cursor.extent.start.offset, cursor.extent.end.offset
        callee = data[start:end].split(b"(", 1)[0]
        if _LAUNCH_CALLEE.search(callee) and any(
            c.kind == cindex.CursorKind.LAMBDA_EXPR for c in cursor.walk_preorder()
        ):
            starts.add(start)
    return len(starts)


def _disagreements(path: str, tree_sitter: FileFacts, clang: FileFacts) -> list[str]:
    """One line per fact the front-ends give differently: facts are matched by kind and position."""
    lines = []
    for field in fields(FileFacts):
        mine, theirs = getattr(tree_sitter, field.name), getattr(clang, field.name)
        if mine == theirs:
            continue
        if not isinstance(mine, tuple) or not all(hasattr(f, "span") for f in (*mine, *theirs)):
            lines.append(f"{path}: {field.name}: {_short(mine)} -> {_short(theirs)}")
            continue
        by_place = {f.span.start_byte: f for f in mine}
        others = {f.span.start_byte: f for f in theirs}
        for start in sorted(set(by_place) | set(others)):
            old, new = by_place.get(start), others.get(start)
            if old == new:
                continue
            line = (old or new).span.line  # type: ignore[union-attr]
            if old is None or new is None:
                lines.append(f"{path}:{line}: {field.name}: {'added by clang' if old is None else 'dropped by clang'}")
                continue
            changed = [
                f"{f.name} {_short(getattr(old, f.name))} -> {_short(getattr(new, f.name))}"
                for f in fields(old)
                if getattr(old, f.name) != getattr(new, f.name)
            ]
            lines.append(f"{path}:{line}: {field.name}: " + "; ".join(changed))
    return lines


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--disagreements", action="store_true", help="print every fact the front-ends give differently")
    args = parser.parse_args()
    files = _files(args.paths, args.limit)
    ts_times: list[float] = []
    clang_times: list[float] = []
    parse_times: list[float] = []
    launches = kernels = failed = errors = 0
    disagreements: list[str] = []
    for path in files:
        data = Path(path).read_bytes()
        start = time.process_time()
        facts = cpp_frontend.extract(path, data)
        ts_times.append(time.process_time() - start)
        launches += sum(
            1 for launch in facts.launches if _INLINE_LAMBDA.search(data[launch.span.start_byte : launch.span.end_byte])
        )
        start = time.process_time()
        try:
            refined = clang_frontend.extract(path, data)
            disagreements += _disagreements(path, facts, refined)
        except Exception as exc:  # a front-end bug: count it, go on
            print(f"{path}: clang front-end failed: {exc!r}", file=sys.stderr)
            failed += 1
        clang_times.append(time.process_time() - start)
        flags = flags_for(path)
        start = time.process_time()
        unit = clang_frontend.clang_unit(path, data, flags)
        parse_times.append(time.process_time() - start)
        kernels += _surviving_kernels(unit, data)
        errors += bool(unit.errors)

    # CPU time of the process (libclang's parse thread included): the machine's load does not inflate it.
    def ms(values: list[float]) -> str:
        return (
            f"mean {statistics.mean(values) * 1000:.1f} ms, median {statistics.median(values) * 1000:.1f} ms, "
            f"max {max(values) * 1000:.0f} ms"
        )

    print(f"{len(files)} files, {sum(len(Path(f).read_bytes()) for f in files) / 1e6:.2f} MB")
    print(f"tree-sitter front-end:      {ms(ts_times)}")
    print(f"clang front-end (hybrid):   {ms(clang_times)}")
    print(f"  of which one libclang parse: {ms(parse_times)}")
    print(f"launches with a lambda written in the call: tree-sitter finds {launches}; libclang keeps {kernels}")
    print(f"files with libclang errors: {errors}; clang front-end failures: {failed}")
    print(f"facts given differently: {len(disagreements)}")
    if args.disagreements:
        print("\n".join(disagreements))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
