"""Throughput of `kernlint check` on generated SYCL and OpenMP sources.

Run by hand: `python benchmarks/bench_throughput.py [--files N] [--jobs J]`. CI runs `--smoke`, which
only proves the benchmark still works; timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from kernlint.cli import make_setup
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import run

TEMPLATE = """#include <sycl/sycl.hpp>
#include <vector>
constexpr int kWG{i} = {wg};

void stage_{i}(sycl::queue &q, std::vector<float> &host, int steps) {{
  sycl::buffer<float, 1> data(host.data(), sycl::range<1>(host.size()));
  for (int s = 0; s < steps; ++s) {{
    q.submit([&](sycl::handler &h) {{
      sycl::accessor a(data, h, sycl::read_write);
      sycl::local_accessor<float, 1> tile(sycl::range<1>(kWG{i}), h);
      h.parallel_for<class K{i}>(sycl::nd_range<1>(sycl::range<1>(1 << 20), sycl::range<1>(kWG{i})),
                                 [=](sycl::nd_item<1> it) {{
        const size_t g = it.get_global_id(0);
        tile[it.get_local_id(0)] = a[g];
        it.barrier(sycl::access::fence_space::local_space);
        if (it.get_local_id(0) % 2 == 0) a[g] = tile[it.get_local_id(0)] * 2.0f;
      }});
    }});
  }}
}}

void offload_{i}(float *x, float *y, int n) {{
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) thread_limit(256)
  for (int j = 0; j < n; ++j) y[j] += 2.0f * x[j];
}}
"""


def generate(directory: Path, files: int, functions_per_file: int) -> int:
    total = 0
    for f in range(files):
        text = "\n".join(TEMPLATE.format(i=f * functions_per_file + k, wg=64 << (k % 3))
                         for k in range(functions_per_file))
        path = directory / f"gen_{f:04}.cpp"
        path.write_text(text)
        total += len(text)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--functions", type=int, default=8, help="kernels per file")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--smoke", action="store_true", help="a few small files, to check it runs")
    args = parser.parse_args()
    if args.smoke:
        args.files, args.functions = 6, 2
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        size = generate(root, args.files, args.functions)
        setup = make_setup(Config(root=temp), use_cache=False)
        entries, _ = discover([temp], setup.config)
        started = time.perf_counter()
        result = run(entries, setup, jobs=args.jobs)
        elapsed = time.perf_counter() - started
    print(f"{len(entries)} files, {size / 1e6:.2f} MB, {len(result.diagnostics)} diagnostics in {elapsed:.2f} s "
          f"= {size / 1e6 / elapsed:.2f} MB/s ({args.jobs or 'all'} jobs)")
    if not result.files or any(f.status.value == "error" for f in result.files):
        raise SystemExit("benchmark run reported file errors")


if __name__ == "__main__":
    main()
