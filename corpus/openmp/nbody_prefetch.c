// N-body force kernel (1-D), OpenMP offload with a software prefetch of the next tile.
// Shape of the guide's C kernel: the parallel loop runs over i, the tiles of b over j and u,
// and one prefetch in sixteen brings in the next tile. The prefetch is guarded: no findings.
#include <math.h>

#define WG_SIZE 1024
#define HINT_L1_L2 4 /* 4: into L1 and L2, 2: L2 only */
#define TILE 64

void nbody_forces(float *forces, float *pos, float *other, int n_self, int n_other) {
#pragma omp target teams distribute parallel for thread_limit(WG_SIZE)
  for (int i = 0; i < n_self; i++) {
    const float k0 = 0.269327f, k1 = -0.0750978f, k2 = 0.0114808f;
    const float k3 = -0.00109313f, k4 = 0.0000605491f, k5 = -0.00000147177f;
    const float soft = 0.01f;
    float acc = 0.0f;
    float tile[TILE];
    for (int j = 0; j < n_other; j += TILE) {
      /* stage the current tile */
      for (int u = 0; u < TILE; ++u) {
        tile[u] = other[j + u];
#ifdef PREFETCH
        int ahead = j + TILE + u;
        if ((ahead % 16) == 0) {
#pragma ompx prefetch data(HINT_L1_L2 : other[ahead]) if (ahead < n_other)
        }
#endif
      }
#pragma unroll(TILE)
      for (int u = 0; u < TILE; ++u) {
        float d = tile[u] - pos[i];
        float d2 = d * d;
        float r = 1.0f / sqrtf(d2 + soft);
        float f = (r * r * r) - (k0 + d2 * (k1 + d2 * (k2 + d2 * (k3 + d2 * (k4 + k5)))));
        acc += f * d;
      }
    }
    forces[i] = acc * 0.23f;
  }
}
