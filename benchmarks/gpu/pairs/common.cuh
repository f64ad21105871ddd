// Host side shared by every CUDA twin in pairs/: argument parsing, random inputs, event timing and a
// checksum, so that each twin's .cu file holds only its kernel and its launch.
//
// A twin is run as `./twin REPS`: one launch to warm up, then REPS timed launches (CUDA events around
// each), and one line `RESULT median_ms=… checksum=…`. Under ncu it is run with REPS = 1 and
// `--launch-count 1`, so exactly one launch of the measured kernel is profiled.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    cudaError_t err_ = (call);                                                                      \
    if (err_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));            \
      std::exit(2);                                                                                 \
    }                                                                                               \
  } while (0)

// A device array of n floats filled with reproducible values in [0, 1) (never zeros: they hide
// unwritten outputs).
inline float *random_floats(size_t n, unsigned seed) {
  std::vector<float> host(n);
  unsigned state = seed * 2654435761u + 1u;
  for (size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    host[i] = (state >> 8) * (1.0f / 16777216.0f);
  }
  float *device = nullptr;
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  CHECK(cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return device;
}

// A device array of n floats set to NaN, so that an element the kernel fails to write shows up.
inline float *poisoned_floats(size_t n) {
  float *device = nullptr;
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  CHECK(cudaMemset(device, 0xff, n * sizeof(float)));
  return device;
}

inline int reps_from(int argc, char **argv) { return argc > 1 ? std::max(1, std::atoi(argv[1])) : 20; }

// Median time of `reps` launches of `launch` (after one warm-up launch), in milliseconds.
template <typename Launch> float median_ms(Launch launch, int reps) {
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Sum of the first n elements (in double), and whether every one is finite (was written).
inline double checksum(const float *device, size_t n, bool *all_written) {
  std::vector<float> host(n);
  CHECK(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0.0;
  *all_written = true;
  for (float v : host) {
    if (!(v == v) || v > 3.0e38f || v < -3.0e38f) *all_written = false;
    sum += v;
  }
  return sum;
}

// The one line the harness reads.
inline int report(float ms, const float *out, size_t n) {
  bool written = false;
  const double sum = checksum(out, n, &written);
  std::printf("RESULT median_ms=%.6f checksum=%.9e written=%d\n", ms, sum, written ? 1 : 0);
  return written ? 0 : 3;
}
