"""Throughput of `kernlint check` on generated SYCL and OpenMP sources.

Run by hand: `python benchmarks/bench_throughput.py [--files N] [--jobs J] [--density dense|realistic]`.
`dense` files hold nothing but kernels (eight SYCL launches and eight OpenMP loops in 8 kB), the worst
case per byte; `realistic` files look like benchmark programs (about 5.5 kB: a licence header, host
helpers, a CPU reference, argument parsing, two or three kernels, verification and timing), two SYCL
files for each OpenMP one. CI runs `--smoke`, which only proves the benchmark still works; timings are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import run
from kernlint.session import make_setup

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


HEADER = """/*
 * Copyright (c) 2024 Example Lab {i}. All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without modification, are permitted
 * provided that the following conditions are met: redistributions of source code must retain the
 * above copyright notice, this list of conditions and the following disclaimer; redistributions in
 * binary form must reproduce the above copyright notice in the documentation.
 *
 * THIS SOFTWARE IS PROVIDED "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES ARE DISCLAIMED.
 */
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "reference.h"

#define NUM_ITERATIONS 100
#define CHECK_TOLERANCE 1e-3f

struct Params {{
  int n;
  int repeat;
  int block;
  bool verify;
  Params(int argc, char **argv) : n(1 << 22), repeat(NUM_ITERATIONS), block(256), verify(true) {{
    for (int a = 1; a < argc; a++) {{
      if (!strcmp(argv[a], "-n") && a + 1 < argc) n = atoi(argv[++a]);
      else if (!strcmp(argv[a], "-r") && a + 1 < argc) repeat = atoi(argv[++a]);
      else if (!strcmp(argv[a], "-b") && a + 1 < argc) block = atoi(argv[++a]);
      else if (!strcmp(argv[a], "--no-verify")) verify = false;
      else {{ fprintf(stderr, "usage: %s [-n N] [-r R] [-b B] [--no-verify]\\n", argv[0]); exit(1); }}
    }}
  }}
}};

static void init_input(std::vector<float> &x, unsigned seed) {{
  srand(seed);
  for (size_t i = 0; i < x.size(); i++) x[i] = (rand() % 1000) / 1000.0f;
}}

static void reference_{i}(const float *in, float *out, int n, float alpha) {{
  for (int i = 0; i < n; i++) {{
    float acc = 0.0f;
    for (int k = -2; k <= 2; k++) {{
      int j = i + k;
      if (j >= 0 && j < n) acc += in[j] * (k == 0 ? 0.5f : 0.125f);
    }}
    out[i] = alpha * acc + (1.0f - alpha) * in[i];
  }}
}}

// Summary statistics of a result, printed after the run so that runs can be compared by eye.
// The stencil below is a five-point smoothing filter blended with the input: out = a*S(in) + (1-a)*in.
// Boundary points use only the neighbours that exist, which the GPU versions reproduce exactly.
struct Stats {{
  double mean = 0.0, stddev = 0.0, min = 0.0, max = 0.0;
}};

static Stats summarise(const std::vector<float> &v) {{
  Stats s;
  if (v.empty()) return s;
  s.min = s.max = v[0];
  double sum = 0.0, sq = 0.0;
  for (size_t i = 0; i < v.size(); i++) {{
    sum += v[i];
    sq += static_cast<double>(v[i]) * v[i];
    if (v[i] < s.min) s.min = v[i];
    if (v[i] > s.max) s.max = v[i];
  }}
  s.mean = sum / v.size();
  s.stddev = std::sqrt(std::fmax(0.0, sq / v.size() - s.mean * s.mean));
  return s;
}}

static void histogram(const std::vector<float> &v, int bins, std::vector<int> &counts) {{
  counts.assign(bins, 0);
  Stats s = summarise(v);
  const double width = (s.max - s.min) / bins;
  for (size_t i = 0; i < v.size(); i++) {{
    int b = width > 0.0 ? static_cast<int>((v[i] - s.min) / width) : 0;
    if (b >= bins) b = bins - 1;
    counts[b]++;
  }}
}}

static void report(const char *name, const std::vector<float> &v) {{
  Stats s = summarise(v);
  std::vector<int> counts;
  histogram(v, 8, counts);
  printf("%s: mean %.4f stddev %.4f range [%.4f, %.4f]\\n", name, s.mean, s.stddev, s.min, s.max);
  for (int b = 0; b < 8; b++) printf("  bin %d: %d\\n", b, counts[b]);
}}

static bool check(const float *got, const float *want, int n) {{
  int errors = 0;
  for (int i = 0; i < n; i++) {{
    if (std::fabs(got[i] - want[i]) > CHECK_TOLERANCE) {{
      if (errors++ < 10) printf("mismatch at %d: %f != %f\\n", i, got[i], want[i]);
    }}
  }}
  return errors == 0;
}}
"""

SYCL_MAIN = """#include <sycl/sycl.hpp>

constexpr int kTile{i} = {wg};

int main(int argc, char **argv) {{
  Params p(argc, argv);
  const int n = p.n;
  std::vector<float> h_in(n), h_out(n), h_ref(n);
  init_input(h_in, 123);

  sycl::queue q(sycl::gpu_selector_v, sycl::property::queue::in_order());
  float *d_in = sycl::malloc_device<float>(n, q);
  float *d_out = sycl::malloc_device<float>(n, q);
  q.memcpy(d_in, h_in.data(), sizeof(float) * n).wait();

  sycl::range<1> gws((n + kTile{i} - 1) / kTile{i} * kTile{i});
  sycl::range<1> lws(kTile{i});
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < p.repeat; r++) {{
    q.submit([&](sycl::handler &cgh) {{
      sycl::local_accessor<float, 1> tile(sycl::range<1>(kTile{i} + 4), cgh);
      cgh.parallel_for<class stencil_{i}>(sycl::nd_range<1>(gws, lws), [=](sycl::nd_item<1> item) {{
        const int gid = item.get_global_id(0);
        const int lid = item.get_local_id(0);
        tile[lid + 2] = gid < n ? d_in[gid] : 0.0f;
        if (lid < 2) {{
          tile[lid] = gid >= 2 ? d_in[gid - 2] : 0.0f;
          tile[lid + kTile{i} + 2] = gid + kTile{i} < n ? d_in[gid + kTile{i}] : 0.0f;
        }}
        item.barrier(sycl::access::fence_space::local_space);
        if (gid < n) {{
          float acc = 0.0f;
          for (int k = -2; k <= 2; k++) acc += tile[lid + 2 + k] * (k == 0 ? 0.5f : 0.125f);
          d_out[gid] = 0.9f * acc + 0.1f * tile[lid + 2];
        }}
      }});
    }});
  }}
  q.wait();
  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  printf("Average kernel execution time: %f (us)\\n", (time * 1e-3f) / p.repeat);

  {{
    sycl::buffer<float, 1> scale(h_out.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler &cgh) {{
      sycl::accessor s(scale, cgh, sycl::write_only, sycl::no_init);
      cgh.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ s[i] = d_out[i] * 2.0f; }});
    }});
  }}

  if (p.verify) {{
    reference_{i}(h_in.data(), h_ref.data(), n, 0.9f);
    for (int i = 0; i < n; i++) h_ref[i] *= 2.0f;
    printf("%s\\n", check(h_out.data(), h_ref.data(), n) ? "PASS" : "FAIL");
  }}
  report("output", h_out);
  sycl::free(d_in, q);
  sycl::free(d_out, q);
  return 0;
}}
"""

OPENMP_MAIN = """#include <omp.h>

#define BLOCK_SIZE {wg}

static void saxpy_{i}(const float *x, float *y, int n, float a) {{
  #pragma omp target teams distribute parallel for thread_limit(BLOCK_SIZE)
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}}

int main(int argc, char **argv) {{
  Params p(argc, argv);
  const int n = p.n;
  std::vector<float> in(n), out(n), ref(n);
  init_input(in, 42);
  float *d_in = in.data();
  float *d_out = out.data();

  double total = 0.0;
  #pragma omp target data map(to: d_in[0:n]) map(from: d_out[0:n])
  {{
    for (int r = 0; r < p.repeat; r++) {{
      auto start = std::chrono::steady_clock::now();
      #pragma omp target teams distribute parallel for num_teams((n + BLOCK_SIZE - 1) / BLOCK_SIZE) thread_limit(BLOCK_SIZE)
      for (int i = 0; i < n; i++) {{
        float acc = 0.0f;
        for (int k = -2; k <= 2; k++) {{
          int j = i + k;
          if (j >= 0 && j < n) acc += d_in[j] * (k == 0 ? 0.5f : 0.125f);
        }}
        d_out[i] = 0.9f * acc + 0.1f * d_in[i];
      }}
      auto end = std::chrono::steady_clock::now();
      total += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }}
    saxpy_{i}(d_in, d_out, n, 2.0f);
  }}
  printf("Average kernel execution time: %f (us)\\n", (total * 1e-3) / p.repeat);

  if (p.verify) {{
    reference_{i}(in.data(), ref.data(), n, 0.9f);
    for (int i = 0; i < n; i++) ref[i] = 2.0f * in[i] + ref[i];
    printf("%s\\n", check(out.data(), ref.data(), n) ? "PASS" : "FAIL");
  }}
  report("output", out);
  return 0;
}}
"""  # noqa: E501 (a realistic, long offload pragma)


def generate(directory: Path, files: int, functions_per_file: int, density: str = "dense") -> int:
    total = 0
    for f in range(files):
        if density == "dense":
            text = "\n".join(
                TEMPLATE.format(i=f * functions_per_file + k, wg=64 << (k % 3)) for k in range(functions_per_file)
            )
        else:
            body = OPENMP_MAIN if f % 3 == 2 else SYCL_MAIN
            text = HEADER.format(i=f) + body.format(i=f, wg=64 << (f % 3))
        path = directory / f"gen_{f:04}.cpp"
        path.write_text(text)
        total += len(text)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--functions", type=int, default=8, help="kernels per file (dense)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument(
        "--density",
        choices=("dense", "realistic"),
        default="dense",
        help="kernels only, or kernels among host code as in real programs",
    )
    parser.add_argument("--smoke", action="store_true", help="a few small files, to check it runs")
    args = parser.parse_args()
    if args.smoke:
        args.files, args.functions = 6, 2
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        size = generate(root, args.files, args.functions, args.density)
        setup = make_setup(Config(root=temp), use_cache=False)
        entries, _ = discover([temp], setup.config)
        started = time.perf_counter()
        result = run(entries, setup, jobs=args.jobs)
        elapsed = time.perf_counter() - started
    print(
        f"{len(entries)} files, {size / 1e6:.2f} MB, {len(result.diagnostics)} diagnostics in {elapsed:.2f} s "
        f"= {size / 1e6 / elapsed:.2f} MB/s ({args.jobs or 'all'} jobs, {args.density})"
    )
    if not result.files or any(f.status.value == "error" for f in result.files):
        raise SystemExit("benchmark run reported file errors")


if __name__ == "__main__":
    main()
