"""How analysis time and memory grow with the size of one file (issue 19, item 6).

Generated files of 12,500, 25,000 and 100,000 lines, one per language: SYCL C++ (a kernel per
function, with local memory, a barrier, divergent branches and constants), OpenMP C++ (target regions
in host loops, constants as macros and `static const`) and OpenMP Fortran. Each block of a file reuses
the same local names (`i`, `lid`, `v`), as real code does, so a scan of every declaration of a name,
or of every launch, branch or region, for each use shows up as time that grows with the square of
the file's size. A linear analysis takes about 8 times as long for 100k lines as for 12.5k.

Run by hand: `python benchmarks/bench_file_size.py [--lines 12500,25000,100000] [--kind sycl,...]`.
Each file is analysed by a fresh `kernlint` process (no cache, no time limit); the report gives its
wall and CPU seconds and its peak memory. Timings are printed, never asserted (CI runs `--smoke`:
small files, to keep the script working); tests/test_scaling.py checks the indexes functionally.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def sycl_block(k: int) -> str:
    """A host function launching one nd_range kernel in a loop: buffer, accessors, local memory."""
    return f"""
constexpr int WG_{k} = 64;
static const int N_{k} = 1024 * {k % 7 + 1};
#define SCALE_{k} {k % 5 + 2}
void step_{k}(sycl::queue &q, float *data, int n) {{
  for (int it = 0; it < 4; ++it) {{
    sycl::buffer<float, 1> buf(data, sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {{
      sycl::accessor acc(buf, h, sycl::read_write);
      sycl::local_accessor<float, 1> tile(sycl::range<1>(WG_{k}), h);
      h.parallel_for(sycl::nd_range<1>(N_{k}, WG_{k}), [=](sycl::nd_item<1> item) {{
        int i = item.get_global_id(0);
        int lid = item.get_local_id(0);
        float v = acc[i] * SCALE_{k};
        if (lid % 2 == 0) v += 1.0f;
        if (v > 0.5f) v = 0.5f;
        tile[lid] = v;
        sycl::group_barrier(item.get_group());
        acc[i] = tile[(lid + 1) % WG_{k}];
      }});
    }});
  }}
}}
"""


def openmp_block(k: int) -> str:
    """A host function with a target region in a loop, a `target update` and a host reduction."""
    return f"""
#define N_{k} (1024 * {k % 7 + 1})
static const int TEAMS_{k} = {k % 9 + 4};
void step_{k}(float *a, float *b, int n) {{
  float m = 0.0f;
  for (int it = 0; it < 4; ++it) {{
    #pragma omp target teams distribute parallel for map(to: a[0:N_{k}]) map(tofrom: b[0:N_{k}]) \\
        num_teams(TEAMS_{k}) thread_limit(128)
    for (int i = 0; i < N_{k}; ++i) {{
      float v = a[i] * 2.0f;
      if (i % 2 == 0) v += 1.0f;
      if (v > 0.5f) v = 0.5f;
      b[i] = v;
    }}
  }}
  #pragma omp target update from(b[0:N_{k}])
  for (int i = 0; i < n; ++i) if (b[i] > m) m = b[i];
  a[0] = m;
}}
"""


def fortran_block(k: int) -> str:
    """A subroutine with a parameter constant and a target region in a loop."""
    return f"""
subroutine step_{k}(a, b, n)
  integer, parameter :: m_{k} = {1024 * (k % 7 + 1)}
  integer :: n, i, it
  real :: a(m_{k}), b(m_{k}), v
  do it = 1, 4
    !$omp target teams distribute parallel do map(to: a) map(tofrom: b) thread_limit(128)
    do i = 1, m_{k}
      v = a(i) * 2.0
      if (mod(i, 2) == 0) v = v + 1.0
      if (v > 0.5) v = 0.5
      b(i) = v
    end do
  end do
end subroutine step_{k}
"""


KINDS: dict[str, tuple[str, str, Callable[[int], str]]] = {
    "sycl": ("big.cpp", "#include <sycl/sycl.hpp>\n", sycl_block),
    "openmp-c++": ("big_omp.cpp", "#include <omp.h>\n", openmp_block),
    "fortran": ("big.f90", "", fortran_block),
}


def generate(kind: str, lines: int) -> tuple[str, bytes]:
    """A file of `kind` with at least `lines` lines: its name and contents."""
    name, head, block = KINDS[kind]
    parts, count, k = [head], head.count("\n"), 0
    while count < lines:
        text = block(k)
        parts.append(text)
        count += text.count("\n")
        k += 1
    return name, "".join(parts).encode()


def measure(path: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of one `kernlint` run on `path`."""
    command = [sys.executable, "-m", "kernlint", str(path), "--no-cache", "--exit-zero", "--quiet", "--timeout", "0"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"kernlint failed on {path}: {errors.decode()[-2000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="12500,25000,100000", help="comma-separated line counts")
    parser.add_argument("--kind", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--smoke", action="store_true", help="small files only, to check the script runs")
    args = parser.parse_args()
    sizes = [500, 1000] if args.smoke else [int(n) for n in args.lines.split(",")]
    print(f"{'file':12} {'lines':>8} {'bytes':>10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as scratch:
        for kind in args.kind.split(","):
            for lines in sizes:
                name, data = generate(kind, lines)
                path = Path(scratch) / name
                path.write_bytes(data)
                wall, cpu, peak = measure(path)
                count = data.count(b"\n")
                print(f"{kind:12} {count:>8,} {len(data):>10,} {wall:8.2f} {cpu:8.2f} {peak:8.0f}")


if __name__ == "__main__":
    main()
