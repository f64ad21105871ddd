// N-body kernel in the OpenMP SIMD programming model (compiled with -fopenmp-target-simd): each
// parallel iteration covers SIMD_W particles, thread_limit counts EU threads (hence / SIMD_W), and
// the prefetch sits outside the simd loops so one lane issues it per step of u (which advances by
// SIMD_W floats = one 64-byte line): no masking needed. Guarded: no findings.
#include <cmath>

#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64
#define SIMD_W 16

void nbody_forces_simd(float *forces, const float *pos, const float *other, int n_self, int n_other) {
#pragma omp target teams distribute parallel for thread_limit(WG_SIZE / \
                                                              SIMD_W)
  for (int i = 0; i < n_self; i += SIMD_W) {
    const float soft = 0.01f;
    float acc[SIMD_W];
    float mine[SIMD_W], tile[TILE];
#pragma omp simd simdlen(SIMD_W)
#pragma unroll(0)
    for (int v = 0; v < SIMD_W; ++v) {
      acc[v] = 0.0f;
      mine[v] = pos[i + v];
    }
    for (int j = 0; j < n_other; j += TILE) {
      for (int u = 0; u < TILE; u += SIMD_W) {
#pragma omp simd simdlen(SIMD_W)
#pragma unroll(0)
        for (int v = 0; v < SIMD_W; ++v)
          tile[u + v] = other[j + u + v];
#ifdef PREFETCH
        int ahead = j + TILE + u;
#pragma ompx prefetch data(HINT_L1_L2 : other[ahead]) if (ahead < n_other)
#endif
      }
#pragma omp simd simdlen(SIMD_W)
#pragma unroll(0)
      for (int v = 0; v < SIMD_W; ++v) {
#pragma unroll(TILE)
        for (int u = 0; u < TILE; ++u) {
          float d = tile[u] - mine[v];
          float r = 1.0f / std::sqrt(d * d + soft);
          acc[v] += (r * r * r) * d;
        }
      }
    }
#pragma omp simd simdlen(SIMD_W)
#pragma unroll(0)
    for (int v = 0; v < SIMD_W; ++v) {
      forces[i + v] = acc[v] * 0.23f;
    }
  }
}
