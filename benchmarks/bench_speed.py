"""How fast kernlint is against the floor of its own parser, and against the targets of issue 14.

Run by hand: `python benchmarks/bench_speed.py PATH ... [--repeat N]`, e.g. on HeCBench's SYCL and
OpenMP folders (`/path/HeCBench/src/*-sycl /path/HeCBench/src/*-omp`); with no PATH, on the generated
tree of `bench_throughput.py`. Every figure comes from the same run on the same machine, so the
ratios hold even where the absolute times do not. Each is the median of `--repeat` whole processes
(wall time, as a user waits for them), of at least 7 for a figure under a second (a warm run,
start-up), except the language server's, which is the median over edits.

`--sweep 1,2,16` measures only how the run scales: for each job count, the floor, a cold run and a
warm one (nothing changed), their ratios and how busy the workers were (CPU ÷ wall × jobs);
`--copies N` analyses N copies of the tree (each run then has N times the files). It needs nothing but
the standard library and an installed kernlint, so a venv or wheel carried to a many-core host runs it:
`python benchmarks/bench_speed.py --sweep 1,2,16 /path/HeCBench/src/*-sycl /path/HeCBench/src/*-omp`.

The tree is copied to a temporary directory first, so the cache and the edited file stay out of it;
the processes run with compiled bytecode kept there too (as any installed package has it), so
start-up is not charged for compiling kernlint's modules. CI runs `--smoke` (a tiny generated tree,
one repeat), which only proves the benchmark still works: timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench_throughput import TEMPLATE, generate

FLOOR_QUERY = "(call_expression function: (_) @function)"
LSP_FILE_LINES = 1000
LSP_EDITS = 21
CLANG_SAMPLE = 40
# Runs of a figure under a second (a warm run, start-up): one run of that length swings by tens of
# per cent on a shared host, and these runs are cheap, so their median is taken over at least this many.
QUICK_REPEAT = 7


@dataclass
class Timing:
    """A median over repeats: wall seconds, CPU seconds (user + system, workers included) and the
    largest peak RSS in MB of any one process."""

    wall: float
    cpu: float
    peak_mb: float


@dataclass
class Figure:
    """One line of the report: what was measured, in seconds (or MB), and the target it answers."""

    label: str
    value: float
    unit: str = "s"
    target: str = ""
    met: bool | None = None
    cpu: float | None = None  # user + system seconds of the process and its workers


def _median(values: Sequence[float]) -> float:
    return statistics.median(values)


class Runner:
    """Runs whole processes in the copied tree and measures their wall time and peak memory."""

    def __init__(self, work: Path, repeat: int) -> None:
        self.work = work
        self.repeat = repeat
        # kernlint's cache (and its key) in the scratch tree, not in the user's cache directory
        self.cache_home = work / "cache-home"
        self.env = {**os.environ, "PYTHONPYCACHEPREFIX": str(work / "pycache"), "XDG_CACHE_HOME": str(self.cache_home)}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        script = Path(sys.executable).with_name("kernlint")
        self.kernlint = [str(script)] if script.exists() else [sys.executable, "-m", "kernlint"]

    def once(self, command: list[str]) -> Timing:
        """One run of `command`; its peak RSS is that of the largest process among it and its workers."""
        started = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=self.work, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert process.stderr is not None
        errors = process.stderr.read()
        _pid, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {errors.decode()[-2000:]}")
        return Timing(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)

    def median(
        self, command: list[str], before: Callable[[int], None] | None = None, repeat: int | None = None
    ) -> Timing:
        """Median wall and CPU times over the repeats, and the largest peak RSS seen."""
        runs = []
        for index in range(repeat or self.repeat):
            if before is not None:
                before(index)
            runs.append(self.once(command))
        return Timing(_median([r.wall for r in runs]), _median([r.cpu for r in runs]), max(r.peak_mb for r in runs))

    def check(self, paths: list[str], *more: str) -> list[str]:
        return [*self.kernlint, *paths, "--quiet", "--exit-zero", *more]


def copy_tree(paths: list[str], target: Path) -> list[str]:
    """Copy each PATH under `target` (kept apart by position, as names may repeat); the copies' paths."""
    copies = []
    for index, path in enumerate(paths):
        source = Path(path)
        destination = target / f"{index:04}" / source.name
        if source.is_dir():
            shutil.copytree(source, destination, symlinks=True)
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
        copies.append(str(destination))
    return copies


def source_files(paths: list[str]) -> list[tuple[str, str]]:
    """(path, family) of every file kernlint would analyse under `paths`, in its order."""
    from kernlint.config import Config
    from kernlint.discovery import discover

    entries, _problems = discover(paths, Config(root=os.path.commonpath(paths)))
    return [(entry.path, entry.family) for entry in entries]


def pick_small_file(files: list[tuple[str, str]]) -> str:
    """A small file with a kernel in it, as a pre-commit hook sees: the one nearest 2 kB."""
    kernels = [path for path, family in files if family != "fortran" and _has_kernel(path)]
    return min(kernels or [path for path, _ in files], key=lambda path: (abs(os.path.getsize(path) - 2048), path))


def _has_kernel(path: str) -> bool:
    data = Path(path).read_bytes()
    return b"parallel_for" in data or b"omp target" in data


def lsp_file(files: list[tuple[str, str]], work: Path) -> str:
    """The SYCL file nearest 1,000 lines (one is generated when the tree has none over 800)."""
    sycl = [
        (abs(len(Path(path).read_bytes().splitlines()) - LSP_FILE_LINES), path)
        for path, family in files
        if family == "cpp" and b"parallel_for" in Path(path).read_bytes()
    ]
    best = min(sycl, default=(LSP_FILE_LINES, ""))
    if best[0] <= 200:
        return best[1]
    generated = work / "lsp_kernels.cpp"
    parts, lines, index = [], 0, 0
    while lines < LSP_FILE_LINES:
        part = TEMPLATE.format(i=index, wg=64 << (index % 3))
        parts.append(part)
        lines += part.count("\n")
        index += 1
    generated.write_text("\n".join(parts))
    return str(generated)


# -- what runs in the measured child processes -----------------------------------------------------


def floor_main(list_file: str, jobs: int) -> None:
    """The floor: read each file, parse it with tree-sitter and run one small query, from Python."""
    paths = [line.split("\t") for line in Path(list_file).read_text().splitlines()]
    if jobs == 1:
        count = sum(_floor_file(item) for item in paths)
    else:
        import multiprocessing

        _floor_query("cpp")
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            count = sum(pool.imap_unordered(_floor_file, paths, chunksize=8))
    print(count)


def _floor_query(grammar: str) -> tuple[object, object]:
    import tree_sitter

    if grammar not in _FLOOR:
        import tree_sitter_cpp
        import tree_sitter_fortran

        fortran = grammar == "fortran"
        language = tree_sitter.Language((tree_sitter_fortran if fortran else tree_sitter_cpp).language())
        text = "(comment) @function" if fortran else FLOOR_QUERY
        _FLOOR[grammar] = (tree_sitter.Parser(language), tree_sitter.Query(language, text))
    return _FLOOR[grammar]


_FLOOR: dict[str, tuple[object, object]] = {}


def _floor_file(item: list[str]) -> int:
    import tree_sitter

    path, family = item
    parser, query = _floor_query("fortran" if family == "fortran" else "cpp")
    assert isinstance(parser, tree_sitter.Parser) and isinstance(query, tree_sitter.Query)
    tree = parser.parse(Path(path).read_bytes())
    return len(tree_sitter.QueryCursor(query).captures(tree.root_node).get("function", []))


def lsp_main(path: str) -> None:
    """The language server's re-analysis after an edit: the median over edits, in milliseconds, of
    what its change handler runs (the same `analyse_source` on the edited document)."""
    from kernlint.discovery import SourceEntry, family_of
    from kernlint.engine import analyse_source
    from kernlint.projects import ConfigResolver
    from kernlint.session import ProjectSetups

    setup = ProjectSetups(ConfigResolver(), use_cache=False).for_file(path)
    entry = SourceEntry(path, *(family_of(path) or ("cpp", False)))
    original = Path(path).read_bytes()
    lines = original.splitlines(keepends=True)
    analyse_source(entry, original, setup)  # the server has analysed the file once when it was opened
    times = []
    for edit in range(LSP_EDITS):
        # A keystroke's worth: one line gains a comment, somewhere in the file.
        at = (edit * 37) % len(lines)
        edited = b"".join(lines[:at]) + f"// edit {edit}\n".encode() + b"".join(lines[at:])
        started = time.perf_counter()
        analyse_source(entry, edited, setup)
        times.append(time.perf_counter() - started)
    print(f"{_median(times) * 1000:.2f}")


# -- the report ----------------------------------------------------------------------------------


def measure(paths: list[str], repeat: int, work: Path) -> list[Figure]:
    runner = Runner(work, repeat)
    (work / ".kernlint.toml").write_text("# the defaults; a config here keeps the cache in this directory\n")
    files = source_files(paths)
    list_file = work / "files.txt"
    list_file.write_text("".join(f"{path}\t{family}\n" for path, family in files))
    size = sum(os.path.getsize(path) for path, _ in files)
    small = pick_small_file(files)
    edited = files[len(files) // 2][0]
    lsp_path = lsp_file(files, work)
    print(
        f"{len(files)} files, {size / 1e6:.1f} MB; small file {small} ({os.path.getsize(small)} B); "
        f"edited file {edited}; LSP file {lsp_path}; median of {repeat} run(s)",
        file=sys.stderr,
    )

    this = [sys.executable, str(Path(__file__).resolve())]
    # Compile every module's bytecode once, so that no measured process pays for it.
    runner.once(runner.check([small], "--no-cache"))
    runner.once([*runner.kernlint, "rule"])
    runner.once([*this, "--floor", str(list_file), "--jobs", "1"])

    figures: list[Figure] = []
    floor = {jobs: runner.median([*this, "--floor", str(list_file), "--jobs", str(jobs)]) for jobs in (1, 2)}
    cold = {jobs: runner.median(runner.check(paths, "--no-cache", "--jobs", str(jobs))) for jobs in (1, 2)}
    for jobs in (1, 2):
        figures.append(Figure(f"floor: parse + one query, jobs {jobs}", floor[jobs].wall, cpu=floor[jobs].cpu))
    for jobs in (1, 2):
        ratio = cold[jobs].wall / floor[jobs].wall
        figures.append(
            Figure(
                f"kernlint cold (--no-cache), jobs {jobs}",
                cold[jobs].wall,
                cpu=cold[jobs].cpu,
                target=f"{ratio:.2f}x floor (<= 2.0x); CPU {cold[jobs].cpu / floor[jobs].cpu:.2f}x",
                met=ratio <= 2.0,
            )
        )

    shutil.rmtree(runner.cache_home, ignore_errors=True)
    filling = runner.once(runner.check(paths, "--jobs", "2"))
    figures.append(Figure("cold, filling the cache, jobs 2", filling.wall, cpu=filling.cpu))
    warm = runner.median(runner.check(paths, "--jobs", "2"), repeat=max(repeat, QUICK_REPEAT))
    share = warm.wall / cold[2].wall
    figures.append(
        Figure(
            "warm cache, nothing changed, jobs 2",
            warm.wall,
            cpu=warm.cpu,
            target=f"{share:.1%} of cold (<= 10 %)",
            met=share <= 0.10,
        )
    )
    original = Path(edited).read_bytes()

    def edit(index: int) -> None:
        Path(edited).write_bytes(original + f"\n// edit {index}\n".encode())

    one_edit = runner.median(runner.check(paths, "--jobs", "2"), before=edit)
    Path(edited).write_bytes(original)
    own = runner.median(runner.check([edited], "--no-cache", "--jobs", "1"))
    allowed = 0.10 * cold[2].wall + own.wall
    figures.append(
        Figure(
            "warm cache, one file edited, jobs 2",
            one_edit.wall,
            cpu=one_edit.cpu,
            target=f"{one_edit.wall / cold[2].wall:.1%} of cold; limit 10 % + its own {own.wall:.2f} s",
            met=one_edit.wall <= allowed,
        )
    )

    quick = max(repeat, QUICK_REPEAT)
    single = runner.median(runner.check([small], "--no-cache"), repeat=quick)
    figures.append(
        Figure(
            "one small file, whole process, no cache",
            single.wall,
            cpu=single.cpu,
            target="<= 0.25 s",
            met=single.wall <= 0.25,
        )
    )
    for label, command, limited in (
        ("kernlint --version", ["--version"], True),
        ("kernlint rule", ["rule"], True),
        ("kernlint rule KL501", ["rule", "KL501"], True),
        ("kernlint devices", ["devices"], False),  # loads the device models: no target of its own
    ):
        timing = runner.median([*runner.kernlint, *command], repeat=quick)
        met = timing.wall <= 0.1 if limited else None
        figures.append(Figure(label, timing.wall, cpu=timing.cpu, target="<= 0.1 s" if limited else "", met=met))
    bare = runner.median([sys.executable, "-c", "pass"], repeat=quick)
    figures.append(Figure("(python -c pass, for scale)", bare.wall, cpu=bare.cpu))

    lsp = subprocess.run(
        [*this, "--lsp", lsp_path], env=runner.env, cwd=work, check=True, capture_output=True, text=True
    )
    lsp_ms = float(lsp.stdout.split()[-1])
    figures.append(
        Figure(
            f"LSP re-analysis after an edit ({LSP_EDITS} edits)",
            lsp_ms,
            "ms",
            "<= 50 ms median (100 ms after an edit less the server's 50 ms pause; bench_lsp.py times the whole wait)",
            met=lsp_ms <= 50,
        )
    )
    for jobs in (1, 2):
        peak = cold[jobs].peak_mb
        figures.append(
            Figure(
                f"peak RSS of the largest process, cold jobs {jobs}", peak, "MB", "< 300 MB per worker", met=peak < 300
            )
        )
    figures.extend(clang_cost(runner, files))
    return figures


def sweep(paths: list[str], repeat: int, work: Path, job_counts: list[int]) -> list[Figure]:
    """For each job count: the floor, kernlint cold and warm, and the workers' use of their CPUs."""
    runner = Runner(work, repeat)
    (work / ".kernlint.toml").write_text("# the defaults; a config here keeps the cache in this directory\n")
    files = source_files(paths)
    list_file = work / "files.txt"
    list_file.write_text("".join(f"{path}\t{family}\n" for path, family in files))
    size = sum(os.path.getsize(path) for path, _ in files)
    print(f"{len(files)} files, {size / 1e6:.1f} MB; median of {repeat} run(s)", file=sys.stderr)
    this = [sys.executable, str(Path(__file__).resolve())]
    runner.once(runner.check([files[0][0]], "--no-cache"))  # compile every module's bytecode once
    figures: list[Figure] = []
    for jobs in job_counts:
        floor = runner.median([*this, "--floor", str(list_file), "--jobs", str(jobs)])
        cold = runner.median(runner.check(paths, "--no-cache", "--jobs", str(jobs)))
        shutil.rmtree(runner.cache_home, ignore_errors=True)
        runner.once(runner.check(paths, "--jobs", str(jobs)))  # fills the cache
        warm = runner.median(runner.check(paths, "--jobs", str(jobs)), repeat=max(repeat, QUICK_REPEAT))
        ratio, share = cold.wall / floor.wall, warm.wall / cold.wall
        figures += [
            Figure(f"jobs {jobs:>2}: floor (parse + one query)", floor.wall, cpu=floor.cpu, target=_busy(floor, jobs)),
            Figure(
                f"jobs {jobs:>2}: kernlint cold (--no-cache)",
                cold.wall,
                cpu=cold.cpu,
                target=f"{ratio:.2f}x floor (<= 2.0x), CPU {cold.cpu / floor.cpu:.2f}x; {_busy(cold, jobs)}",
                met=ratio <= 2.0,
            ),
            Figure(
                f"jobs {jobs:>2}: kernlint warm, nothing changed",
                warm.wall,
                cpu=warm.cpu,
                target=f"{share:.1%} of cold (<= 10 %)",
                met=share <= 0.10,
            ),
            Figure(f"jobs {jobs:>2}: peak RSS of the largest process, cold", cold.peak_mb, "MB"),
        ]
    return figures


def _busy(timing: Timing, jobs: int) -> str:
    """How much of the workers' CPUs the run used: CPU seconds ÷ (wall seconds × workers)."""
    workers = min(jobs, os.cpu_count() or 1)
    return f"CPUs {timing.cpu / (timing.wall * workers):.0%} busy"


def clang_cost(runner: Runner, files: list[tuple[str, str]]) -> list[Figure]:
    """Per-file cost of the clang front-end against tree-sitter's, over a sample of kernel files."""
    sample = [path for path, family in files if family == "cpp" and _has_kernel(path)][:CLANG_SAMPLE]
    if not sample:
        return []
    per_file = {}
    for frontend in ("tree-sitter", "clang"):
        try:
            timing = runner.median(runner.check(sample, "--no-cache", "--jobs", "2", "--frontend", frontend), repeat=1)
        except SystemExit as exc:
            return [Figure(f"clang front-end: not measured ({str(exc)[-80:]})", 0.0, "ms")]
        per_file[frontend] = timing.wall / len(sample) * 1000
    return [
        Figure(f"{frontend} front-end, per file (jobs 2, {len(sample)} files)", cost, "ms")
        for frontend, cost in per_file.items()
    ]


def report(figures: list[Figure]) -> str:
    width = max(len(f.label) for f in figures)
    lines = [f"{'':<{width}}  {'wall':>9}  {'(cpu)':>8}  target"]
    for figure in figures:
        value = f"{figure.value:7.3f} s " if figure.unit == "s" else f"{figure.value:7.1f} {figure.unit}"
        cpu = f"({figure.cpu:6.2f})" if figure.cpu is not None else ""
        verdict = "" if figure.met is None else ("  met" if figure.met else "  MISSED")
        lines.append(f"{figure.label:<{width}}  {value:>9}  {cpu:>8}  {figure.target}{verdict}".rstrip())
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", metavar="PATH", help="the tree (default: a generated one)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is shown")
    parser.add_argument("--smoke", action="store_true", help="a tiny generated tree and one run: does it work")
    parser.add_argument("--sweep", metavar="JOBS", help="only the scaling table, at these job counts (e.g. 1,2,16)")
    parser.add_argument("--copies", type=int, default=1, help="analyse this many copies of the tree (default 1)")
    parser.add_argument("--floor", metavar="LIST", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--lsp", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        floor_main(args.floor, args.jobs)
        return
    if args.lsp:
        lsp_main(args.lsp)
        return
    with tempfile.TemporaryDirectory(prefix="kernlint-speed-") as temp:
        work = Path(temp)
        tree = work / "tree"
        tree.mkdir()
        if args.smoke or not args.paths:
            generate(tree, 6 if args.smoke else 400, 2, "realistic")
            paths = [str(tree)] * args.copies
        else:
            paths = args.paths * args.copies
        paths = copy_tree(paths, work / "copies") if args.copies > 1 or args.paths else paths
        repeat = 1 if args.smoke else args.repeat
        if args.sweep:
            print(report(sweep(paths, repeat, work, [int(jobs) for jobs in args.sweep.split(",")])))
        else:
            print(report(measure(paths, repeat, work)))


if __name__ == "__main__":
    main()
