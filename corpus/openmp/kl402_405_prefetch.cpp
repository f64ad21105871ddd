// KL402-KL405 in C++: constexpr hints and sizes, a hint from a quoted header, a lambda-free
// kernel inside a class template, and prefetches placed inside and outside simd loops.
#include <cstddef>
#include "omp_tuning.h"

constexpr int kNoHint = 0;
constexpr int kBadHint = 1 + OMP_HINT_L1;  // 5
constexpr int kSimd = OMP_LINE_FLOATS;

template <typename T>
struct Pipeline {
  void hints(T *out, const T *in, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
    for (int i = 0; i < n; ++i) {
#pragma ompx prefetch data(kNoHint: in[i])         // expect: KL402
#pragma ompx prefetch data(kBadHint: in[i])        // expect: KL403
#pragma ompx prefetch data(OMP_HINT_L2: in[i])
      out[i] = in[i];
    }
  }

  void simd(T *out, const T *in, int n) {
#pragma omp target teams distribute parallel for thread_limit(kTeamSize / kSimd) map(to: in[0:n]) map(from: out[0:n])
    for (int i = 0; i < n; i += kSimd) {
#pragma omp simd simdlen(kSimd)
      for (int v = 0; v < kSimd; ++v) {
        out[i + v] = in[i + v];
#pragma ompx prefetch data(OMP_HINT_L1: in[i + v]) if (i + v < n)  // expect: KL404
      }
      const int next = i + kSimd;
#pragma ompx prefetch data(OMP_HINT_L1: in[next]) if (next < n)
    }
  }
};

template struct Pipeline<float>;

void rows(float *out, const float *m, int rows, int cols) {
#pragma omp target teams distribute parallel for map(to: m[0:rows * cols]) map(from: out[0:rows])
  for (int r = 0; r < rows; ++r) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) {
#pragma ompx prefetch data(OMP_HINT_L1: m[r * cols + c + 64])   /* not linear in r: not reported */
      s += m[r * cols + c]; // expect: KL601
    }
    out[r] = s;
  }
}

void columns(float *out, const float *m, int n) {
#pragma omp target teams distribute parallel for map(to: m[0:n * 64]) map(from: out[0:n])
  for (int r = 0; r < n; ++r) {
    float s = 0.0f;
    for (int c = 0; c < 64; ++c) {
      int ahead = c + 1;
#pragma ompx prefetch data(OMP_HINT_L1: m[ahead]) if (ahead < 64)   // expect: KL405
      s += m[c];
    }
    out[r] = s;
  }
}
