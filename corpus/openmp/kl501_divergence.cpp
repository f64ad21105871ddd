// KL501 for OpenMP offload in C++: collapsed loops, ids through locals, helper constants, and
// conditions that look divergent but are not.
#include <vector>
#include "omp_tuning.h"

void image(std::vector<float> &img, int h, int w, bool flip) {
  float *p = img.data();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: p[0:h * w])
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int idx = y * w + x;
      if (flip) p[idx] = -p[idx];             /* a kernel argument: uniform */
      if ((x ^ y) & 1) p[idx] = 0.0f;         // expect: KL501
      if (x == 0 || x == w - 1) p[idx] = 1.0f;  /* halo check: boundary */
    }
}

void histogram(const std::vector<int> &keys, std::vector<int> &bins, int n) {
  const int *k = keys.data();
  int *b = bins.data();
#pragma omp target teams distribute parallel for map(to: k[0:n]) map(tofrom: b[0:kTile]) // only b[0] is used: expect: KL707
  for (int i = 0; i < n; ++i) {
    switch (k[i] % 4) {                       // expect: KL501
    case 0:
#pragma omp atomic
      b[0] += 1;
      break;
    default:
      break;
    }
  }
}

void rows(float *m, int rows, int cols) {
#pragma omp target teams distribute map(tofrom: m[0:rows * cols])
  for (int r = 0; r < rows; ++r) {            /* distribute only: one row per team, uniform */
    if (r % 2) m[r * cols] = 0.0f;
#pragma omp parallel for
    for (int c = 0; c < cols; ++c)
      if (c % 2) m[r * cols + c] = 1.0f;      // expect: KL501
  }
}
