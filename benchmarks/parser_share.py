"""How much of the cold-run target (issue 24: at most 2.0x the parser floor) kernlint's own tree-sitter work
already takes, and how much is left for everything else.

Run by hand: `python benchmarks/parser_share.py PATH ...` (e.g. every 6th HeCBench folder). It measures, at
jobs 1 and from compiled bytecode, the floor of `bench_speed.py` (read, parse and one query per file), a cold
kernlint run, and the same run under cProfile: the profile's own time of tree-sitter's C calls (parsing,
running queries, compiling them) is what kernlint spends in the parser library, whatever the Python around
it costs. The rest (the analyses, the rules, start-up, reporting) is what the target leaves
`2 x floor - tree-sitter` for; the report says how many times faster it would have to be. CPU seconds
throughout (user + system), so a busy machine skews the figures less than wall time would.
"""

from __future__ import annotations

import argparse
import os
import pstats
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_speed import Runner, copy_tree, source_files

#: The C calls of the tree-sitter binding, as cProfile names them, by what they do.
TREE_SITTER_CALLS = {
    "parse": ("<method 'parse' of 'tree_sitter.Parser' objects>",),
    "run queries": (
        "<method 'matches' of 'tree_sitter.QueryCursor' objects>",
        "<method 'captures' of 'tree_sitter.QueryCursor' objects>",
    ),
}


def tree_sitter_seconds(profile: Path) -> dict[str, float]:
    """Own seconds of each kind of tree-sitter call in a cProfile dump."""
    stats = pstats.Stats(str(profile)).stats  # type: ignore[attr-defined]
    own = {kind: 0.0 for kind in TREE_SITTER_CALLS}
    for (_file, _line, name), (_calls, _primitive, tottime, _cumtime, _callers) in stats.items():
        for kind, names in TREE_SITTER_CALLS.items():
            if name in names:
                own[kind] += tottime
    return own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the floor and of kernlint; the median is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kernlint-share-") as temp:
        work = Path(temp)
        paths = copy_tree(args.paths, work / "copies")
        files = source_files(paths)
        list_file = work / "files.txt"
        list_file.write_text("".join(f"{path}\t{family}\n" for path, family in files))
        runner = Runner(work, args.repeat)
        this = [sys.executable, str(Path(__file__).with_name("bench_speed.py"))]
        check = runner.check(paths, "--no-cache", "--jobs", "1")
        runner.once(check)  # compile every module's bytecode once
        floor = runner.median([*this, "--floor", str(list_file), "--jobs", "1"]).cpu
        cold = runner.median(check).cpu
        profile = work / "cold.prof"
        arguments = check[len(runner.kernlint) :]
        command = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "kernlint", *arguments]
        subprocess.run(command, cwd=work, env=runner.env, stdout=subprocess.DEVNULL, check=False)
        own = tree_sitter_seconds(profile)
    spent = sum(own.values())
    rest = cold - spent
    left = 2 * floor - spent
    print(f"{len(files)} files; CPU seconds at jobs 1, median of {args.repeat}")
    print(f"floor (read, parse, one query):        {floor:6.2f} s")
    print(f"kernlint cold:                         {cold:6.2f} s  ({cold / floor:.2f}x floor)")
    for kind, seconds in own.items():
        print(f"  tree-sitter, {kind + ':':<24} {seconds:6.2f} s  ({seconds / floor:.2f}x floor)")
    print(f"  everything else:                     {rest:6.2f} s")
    if left > 0:
        print(f"the 2.0x target leaves {left:.2f} s for everything else: {rest / left:.1f}x less than now")
    else:
        print("the 2.0x target is spent on tree-sitter alone")


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
