// The SIMD-model N-body kernel without the prefetch guard, and with the thread_limit written as
// if it counted work-items: in the SIMD model it counts EU threads of SIMD_W lanes each.
#include <cmath>

#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64
#define SIMD_W 16

void nbody_forces_simd(float *forces, const float *pos, const float *other, int n_self, int n_other) {
#pragma omp target teams distribute parallel for thread_limit(WG_SIZE) // expect: KL201
  for (int i = 0; i < n_self; i += SIMD_W) {
    float acc[SIMD_W], mine[SIMD_W], tile[TILE];
#pragma omp simd simdlen(SIMD_W)
    for (int v = 0; v < SIMD_W; ++v) {
      acc[v] = 0.0f;
      mine[v] = pos[i + v];
    }
    for (int j = 0; j < n_other; j += TILE) {
      for (int u = 0; u < TILE; u += SIMD_W) {
#pragma omp simd simdlen(SIMD_W)
        for (int v = 0; v < SIMD_W; ++v)
          tile[u + v] = other[j + u + v];
        int ahead = j + TILE + u;
#pragma ompx prefetch data(HINT_L1_L2 : other[ahead]) // expect: KL401
      }
#pragma omp simd simdlen(SIMD_W)
      for (int v = 0; v < SIMD_W; ++v)
        for (int u = 0; u < TILE; ++u)
          acc[v] += (tile[u] - mine[v]) * 0.5f;
    }
#pragma omp simd simdlen(SIMD_W)
    for (int v = 0; v < SIMD_W; ++v)
      forces[i + v] = acc[v];
  }
}
