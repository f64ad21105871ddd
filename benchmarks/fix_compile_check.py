"""Do kernlint's fixes compile? For each benchmark folder where kernlint offers a fix, compile every
C/C++ source of a copy of the folder before and after `--fix`, and again after `--fix --unsafe-fixes`,
and compare the error counts: a fix that keeps the program must keep them equal (issue 19, item 1).

    python benchmarks/fix_compile_check.py /work/HeCBench/src/*-omp /work/HeCBench/src/*-sycl

Compilers: OpenMP folders with `g++ -fsyntax-only -fopenmp` (`gcc` for `.c` files); SYCL folders with
`g++ -fsyntax-only -fpermissive` against the declaration-only SYCL headers in
kernlint/frontends/clang/include (no SYCL compiler here: a kernel body is type-checked as ordinary C++,
which is what a min/max or select rewrite needs). Include folders come from the folder's Makefile
(`-I...`, `-D...`). Not a test: it needs the benchmark sources and a compiler, and takes minutes.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SYCL_HEADERS = Path(__file__).resolve().parent.parent / "kernlint" / "frontends" / "clang" / "include"
SOURCES = (".c", ".cpp", ".cc", ".cxx")
MODES = {"safe": ["--fix"], "unsafe": ["--fix", "--unsafe-fixes"]}


def folders_with_fixes(folders: list[Path]) -> dict[Path, dict[str, int]]:
    """The folders where kernlint offers a fix, with how many safe and unsafe ones."""
    run = subprocess.run(
        [sys.executable, "-m", "kernlint", *map(str, folders), "--format", "json", "--no-cache", "--exit-zero"],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[Path, dict[str, int]] = {}
    by_name = {folder.name: folder for folder in folders}
    for diagnostic in json.loads(run.stdout)["diagnostics"]:
        if diagnostic.get("fix") is None:
            continue
        path = Path(diagnostic["path"])
        folder = next((f for f in folders if path.is_relative_to(f)), None) or by_name.get(path.parts[0])
        if folder is None:
            continue
        counts = found.setdefault(folder, {"safe": 0, "unsafe": 0})
        counts["safe" if diagnostic["fix"]["safe"] else "unsafe"] += 1
    return found


def makefile_flags(folder: Path) -> list[str]:
    """The `-I` folders and `-D` macros the benchmark's Makefile names."""
    makefile = folder / "Makefile"
    if not makefile.is_file():
        return []
    text = makefile.read_text(errors="replace")
    includes = [f"-I{(folder / m).resolve()}" for m in re.findall(r"-I\s*([^\s\\)$]+)", text)]
    return includes + sorted(set(re.findall(r"(?<!\S)(-D[A-Za-z_]\w*(?:=[^\s\\)$]+)?)", text)))


def compile_errors(folder: Path, flags: list[str]) -> dict[str, list[str]]:
    """The compiler's error lines per source file of `folder` (line numbers dropped, so a rewrite that
    moves lines compares equal)."""
    sycl = folder.name.endswith("-sycl")
    errors: dict[str, list[str]] = {}
    for source in sorted(p for p in folder.rglob("*") if p.suffix in SOURCES):
        c = source.suffix == ".c"
        command = ["gcc" if c else "g++", "-fsyntax-only", "-fopenmp", f"-I{source.parent}", f"-I{folder}", *flags]
        command += ["-std=c11"] if c else ["-std=c++17"]
        if sycl:
            command += ["-fpermissive", "-w", f"-I{SYCL_HEADERS}"]
        try:
            run = subprocess.run(
                [*command, source.name], cwd=source.parent, capture_output=True, text=True, timeout=300
            )
            output = run.stderr
        except subprocess.TimeoutExpired:
            output = "error: timed out\n"
        lines = [re.sub(r":\d+:\d+:", ":", line) for line in output.splitlines() if "error:" in line]
        errors[str(source.relative_to(folder))] = lines
    return errors


def fixed_copy(folder: Path, mode: list[str], into: Path) -> tuple[Path, bool]:
    """A copy of `folder` with kernlint's fixes of `mode` applied (none: a plain copy), and whether any
    file changed."""
    copy = into / folder.name
    shutil.copytree(folder, copy, symlinks=True)
    if not mode:
        return copy, False
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file() and not p.is_symlink()}
    subprocess.run(
        [sys.executable, "-m", "kernlint", str(copy), *mode, "--no-cache", "--exit-zero", "--quiet"],
        capture_output=True,
        check=False,
    )
    changed = any(p.read_bytes() != data for p, data in before.items())
    return copy, changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args()
    folders = [f.resolve() for f in args.folders if f.is_dir()]
    offered = folders_with_fixes(folders)
    print(f"{len(offered)} of {len(folders)} folders have a fix offered")
    print(f"{'folder':32} {'fixes s/u':>9} {'errors':>7} {'--fix':>7} {'+unsafe':>8}  verdict")
    mismatches = 0
    for folder in sorted(offered):
        flags = makefile_flags(folder)
        counts = offered[folder]
        with tempfile.TemporaryDirectory() as scratch:
            unchanged, _ = fixed_copy(folder, [], Path(scratch) / "original")  # compiled where the fixed ones are
            original = compile_errors(unchanged, flags)
            after: dict[str, str] = {}
            notes: list[str] = []
            for name, mode in MODES.items():
                copy, changed = fixed_copy(folder, mode, Path(scratch) / name)
                if not changed:
                    after[name] = "same"
                    continue
                errors = compile_errors(copy, flags)
                total = sum(map(len, errors.values()))
                after[name] = str(total)
                for source, lines in errors.items():
                    old = original.get(source, [])
                    new = [line for line in lines if line not in old]
                    gone = [line for line in old if line not in lines]
                    if len(lines) != len(old) or new:
                        notes.append(f"{name}: {source}: {len(old)} -> {len(lines)} errors")
                        notes.extend(f"{name}: {source}: + {line.strip()[:160]}" for line in new[:3])
                        notes.extend(f"{name}: {source}: - {line.strip()[:160]}" for line in gone[:3])
        total_before = sum(map(len, original.values()))
        verdict = "ok" if not notes else "CHANGED"
        mismatches += bool(notes)
        fixes = f"{counts['safe']}/{counts['unsafe']}"
        print(f"{folder.name:32} {fixes:>9} {total_before:>7} {after['safe']:>7} {after['unsafe']:>8}  {verdict}")
        for note in notes:
            print(f"    {note}")
    print(f"{mismatches} folder(s) where a fix changed what the compiler says ('same': no file changed)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
