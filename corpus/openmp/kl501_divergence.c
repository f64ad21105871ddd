// KL501 for OpenMP offload in C: the parallel loop index and omp_get_thread_num() are the work-item
// ids; an inner sequential loop's index is uniform; tail guards are boundary conditions (info, off
// by default); in the SIMD model the simd loop index is the lane.
#include <omp.h>
#define TILE 32

void parity(float *a, const float *w, int n, int m) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: w[0:n])
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0)                           // expect: KL501
      a[i] = 0.0f;
    else
      a[i] = 1.0f;
    if (i < m) a[i] += 1.0f;                  /* tail guard: boundary, not reported by default */
    for (int k = 0; k < m; ++k)               /* uniform trip count */
      if (k % 2 == 0) a[i] += w[k];           /* depends on the sequential index only: uniform */
    for (int k = 0; k < i; ++k)               // expect: KL501
      a[i] += 0.5f;
    if (w[i] > 0.0f) a[i] = -a[i];            // expect: KL501
    const int lane_group = i & 7;
    if (lane_group == 3) a[i] *= 2.0f;        // expect: KL501
    a[i] = (i % 4 == 0) ? 1.0f : a[i];        /* a select of plain values: no branch */
  }
}

void tiles(float *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int t = 0; t < n; t += TILE) {
    if ((t + TILE) % 16 == 0) a[t] = 0.0f;    /* t steps by 32: the same for every work-item */
    if ((t + TILE) % 64 == 0) a[t] = 1.0f;    // expect: KL501
  }
}

void threads(float *a, int n) {
#pragma omp target teams map(tofrom: a[0:n])
#pragma omp parallel
  {
    const int tid = omp_get_thread_num();
    if (tid % 4 == 1) a[tid] = 0.0f;          // expect: KL501
    if (omp_get_team_num() == 0) a[0] = 1.0f; /* team id: uniform */
  }
}

void simd_model(float *a, int n) {
#pragma omp target teams distribute parallel for thread_limit(64) map(tofrom: a[0:n])
  for (int i = 0; i < n; i += 16) {
    if (i % 32 == 0) a[i] = 0.0f;             /* per EU thread in the SIMD model: uniform */
#pragma omp simd simdlen(16)
    for (int v = 0; v < 16; ++v) {
      if (v & 1) a[i + v] = 1.0f;             // expect: KL501
    }
  }
}

void host_loop(float *a, int n) {
  for (int i = 0; i < n; ++i)                 /* no OpenMP: host code is never a divergence */
    if (i % 2) a[i] = 0.0f;
}
