// KL401: prefetch indices that can leave the array, and near misses that cannot (or that are
// guarded). Prefetch hints come from macros; loops use macros and constants for their bounds.
#define HINT 4
#define AHEAD 8
#define BLOCK 32

void stream(float *restrict dst, const float *restrict src, const int *restrict idx, int n) {
#pragma omp target teams distribute parallel for map(to: src[0:n], idx[0:n]) map(from: dst[0:n])
  for (int i = 0; i < n; ++i) {
#pragma ompx prefetch data(HINT: src[i])              /* within the loop's range: fine */
#pragma ompx prefetch data(HINT: src[i + AHEAD])      // expect: KL401
#pragma ompx prefetch data(HINT: src[i + AHEAD]) if (i + AHEAD < n)
#pragma ompx prefetch data(HINT: src[i - 1])          // expect: KL401
#pragma ompx prefetch data(HINT: src[idx[i]])         /* indirect: cannot be bounded, not reported */
#pragma ompx prefetch data(HINT: src[i:4])            /* a section starting at i: fine */
    dst[i] = src[i] * 2.0f;
  }
}

void stencil(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[1:n-2])
  for (int i = 1; i < n - 1; ++i) {
#pragma ompx prefetch data(HINT: in[i - 1])           /* i starts at 1: in[0] is the first element */
#pragma ompx prefetch data(HINT: in[i + 1])           /* i stops at n - 2: in[n - 1] is the last */
#pragma ompx prefetch data(HINT: in[i + 2])           // expect: KL401
    out[i] = in[i - 1] + in[i] + in[i + 1];
  }
}

void tiled(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int t = 0; t < n; t += BLOCK) {
    for (int k = 0; k < BLOCK; ++k) {
      int here = t + k;
      int next = t + BLOCK + k;
#pragma ompx prefetch data(HINT: in[here])            /* the current block: fine */
      if (next < n) {
#pragma ompx prefetch data(HINT: in[next])            /* guarded by the enclosing if: fine */
      }
      if (next % 16 == 0) {
#pragma ompx prefetch data(HINT: in[next]) if (next % 64 == 0)  // expect: KL401
      }
#pragma ompx prefetch data(HINT: \
                           in[next])                  // expect[xe-hpc]: KL401
      out[here] = in[here];
    }
  }
}

void unknown_step(float *out, const float *in, int n, int step) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; k += step) {
#pragma ompx prefetch data(HINT: in[k + step])        /* step unknown: not reported */
      out[i] += in[k];
    }
  }
}
