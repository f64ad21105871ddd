// The same N-body kernel with the prefetch's `if (ahead < n_other)` guard left out: on the last
// tile `ahead` runs up to 63 elements past the end of `other`, and prefetches fault on Intel
// Data Center GPU Max.
#include <math.h>

#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64

void nbody_forces(float *forces, float *pos, float *other, int n_self, int n_other) {
#pragma omp target teams distribute parallel for thread_limit(WG_SIZE)
  for (int i = 0; i < n_self; i++) {
    const float soft = 0.01f;
    float acc = 0.0f;
    float tile[TILE];
    for (int j = 0; j < n_other; j += TILE) {
      for (int u = 0; u < TILE; ++u) {
        tile[u] = other[j + u];
#ifdef PREFETCH
        int ahead = j + TILE + u;
        if ((ahead % 16) == 0) {
#pragma ompx prefetch data(HINT_L1_L2 : other[ahead]) // expect: KL401
        }
#endif
      }
      for (int u = 0; u < TILE; ++u) {
        float d = tile[u] - pos[i];
        float r = 1.0f / sqrtf(d * d + soft);
        acc += (r * r * r) * d;
      }
    }
    forces[i] = acc * 0.23f;
  }
}
