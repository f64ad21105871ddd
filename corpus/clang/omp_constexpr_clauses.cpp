// kernlint-frontend: clang
// Clause arguments that are constants only a compiler evaluates: static constexpr members of a
// template from a header, and a constexpr function. The kernels are written in the OpenMP SIMD model
// (the parallel loop steps by the SIMD width, a `simd simdlen(V)` loop inside spreads each step over V
// lanes), where thread_limit counts EU threads of V lanes each.
#include "omp_include/omp_device.h"

constexpr int kLanes = Xe16::lanes;
constexpr int team_threads(int work_items, int lanes) { return work_items / lanes; }

// thread_limit written as a work-item count: 512 EU threads x 16 lanes = 8192 work-items per team.
void axpy_items(float *y, const float *x, float a, int n) {
#pragma omp target teams distribute parallel for thread_limit(Xe16::work_items) map(tofrom: y[0:n]) map(to: x[0:n]) // expect: KL201
  for (int i = 0; i < n; i += kLanes) {
#pragma omp simd simdlen(kLanes)
    for (int v = 0; v < kLanes; ++v)
      y[i + v] += a * x[i + v];
  }
}

// thread_limit as EU threads: 32 threads x 16 lanes = 512 work-items per team.
void axpy_threads(float *y, const float *x, float a, int n) {
#pragma omp target teams distribute parallel for thread_limit(team_threads(Xe16::work_items, kLanes)) map(tofrom: y[0:n]) map(to: x[0:n])
  for (int i = 0; i < n; i += kLanes) {
#pragma omp simd simdlen(kLanes)
    for (int v = 0; v < kLanes; ++v)
      y[i + v] += a * x[i + v];
  }
}
