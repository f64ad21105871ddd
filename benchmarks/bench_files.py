"""Per-file analysis time over real files (by default the test corpus), against parse-only time.

Run by hand: `python benchmarks/bench_files.py [PATH ...] [--repeat N] [--slowest K]`. Each repeat is a
fresh process that analyses every file once, in this order, without a pool or a cache, so per-process
memos (directive texts, included headers) help only as much as they would in a real run; per-file
medians over the repeats are reported. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
# Analysed once before timing, so the first measured file of each language does not pay for imports
# (lazy in the front-ends and rules) and query compilation.
WARM_UP = {
    "warm_up.cpp": b"""#include <sycl/sycl.hpp>
constexpr int N = 64;
void f(sycl::queue &q, float *x) {
  q.parallel_for(sycl::nd_range<1>(N * 4, N), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0; });
#pragma omp target teams distribute parallel for map(tofrom: x[0:N])
  for (int i = 0; i < N; ++i) x[i] += 1;
#pragma omp prefetch data(x[0:4])
}
""",
    "warm_up.f90": b"""subroutine f(x, n)
  integer :: n, i
  real :: x(n)
  !$omp target teams distribute parallel do map(tofrom: x)
  do i = 1, n
    x(i) = x(i) + 1.0
  end do
end subroutine
""",
    "warm_up.f": b"""      SUBROUTINE F(X, N)
      INTEGER N, I
      REAL X(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: X)
      DO 10 I = 1, N
         X(I) = X(I) + 1.0
   10 CONTINUE
      END
""",
}


def one_pass(paths: list[str]) -> list[tuple[str, int, float, float]]:
    """(path, bytes, parse seconds, analysis seconds) of each file, analysed once in this process."""
    from kernlint.config import Config
    from kernlint.discovery import SourceEntry, discover, family_of
    from kernlint.engine import analyse_file, analyse_source
    from kernlint.frontends import warm_up
    from kernlint.frontends.common import treesitter
    from kernlint.session import make_setup

    setup = make_setup(Config(root=paths[0]), use_cache=False)
    entries, _ = discover(paths, setup.config)
    warm_up()
    for name, data in WARM_UP.items():
        family = family_of(name)
        assert family is not None, name
        analyse_source(SourceEntry(name, *family), data, setup)
    rows = []
    for entry in entries:
        data = Path(entry.path).read_bytes()
        parser = treesitter.parser("fortran" if entry.family == "fortran" else "cpp")
        started = time.perf_counter()
        parser.parse(data)
        parsed = time.perf_counter() - started
        started = time.perf_counter()
        analyse_file(entry, setup)
        rows.append((entry.path, len(data), parsed, time.perf_counter() - started))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes; per-file medians are kept")
    parser.add_argument("--slowest", type=int, default=5, help="list this many slowest files")
    parser.add_argument("--one-pass", action="store_true", help=argparse.SUPPRESS)  # a child process
    args = parser.parse_args()
    if args.one_pass:
        json.dump(one_pass(args.paths), sys.stdout)
        return
    passes = [
        json.loads(
            subprocess.run(
                [sys.executable, __file__, "--one-pass", *args.paths], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(args.repeat)
    ]
    rows = [
        (
            statistics.median(p[i][3] for p in passes),
            statistics.median(p[i][2] for p in passes),
            passes[0][i][1],
            passes[0][i][0],
        )
        for i in range(len(passes[0]))
    ]
    if not rows:
        raise SystemExit("no files to analyse")
    total = sum(r[0] for r in rows)
    parse = sum(r[1] for r in rows)
    size = sum(r[2] for r in rows)
    print(
        f"{len(rows)} files, {size / 1e3:.0f} kB: analysis {total * 1e3:.1f} ms "
        f"({total / len(rows) * 1e3:.2f} ms/file, {size / 1e6 / total:.2f} MB/s), "
        f"parse only {parse * 1e3:.1f} ms ({parse / total:.0%} of analysis)"
    )
    for elapsed, parsed, length, path in sorted(rows, reverse=True)[: args.slowest]:
        print(f"  {elapsed * 1e3:7.2f} ms  (parse {parsed * 1e3:5.2f} ms, {length / 1e3:5.1f} kB)  {path}")


if __name__ == "__main__":
    main()
