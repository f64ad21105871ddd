// KL402 (no-op hint), KL403 (invalid hint), KL404 (prefetch inside simd) and KL405 (a prefetch for
// every element of a sequential loop), with near misses for each.
#define HINT_NONE 0
#define HINT_L1 4
#define HINT_L2 2
#define HINT_L3 3
#define TILE 64
#define SIMD_W 16

void hints(float *out, const float *in, int n, int hint_at_run_time) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
#pragma ompx prefetch data(in[i])                      // expect: KL402
#pragma ompx prefetch data(0: in[i])                   // expect: KL402
#pragma ompx prefetch data(HINT_NONE: in[i])           // expect: KL402
#pragma ompx prefetch data(HINT_L3: in[i])             // expect: KL403
#pragma ompx prefetch data(1 : in[i])                  // expect: KL403
#pragma ompx prefetch data(HINT_L1: in[i])
#pragma ompx prefetch data(HINT_L2: in[i])
#pragma ompx prefetch data(2 * HINT_L2: in[i])
#pragma ompx prefetch data(PREFETCH_HINT: in[i])       /* not defined here: unknown, not reported */
    out[i] = in[i];
  }
}

void tiles(float *out, const float *b, const double *d, int n) {
#pragma omp target teams distribute parallel for map(to: b[0:n], d[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int j = 0; j < n; j += TILE) {
      for (int u = 0; u < TILE; ++u) {
        int ahead = j + TILE + u;
#pragma ompx prefetch data(HINT_L1: b[ahead]) if (ahead < n)     // expect: KL405
        if (ahead % 16 == 0) {
#pragma ompx prefetch data(HINT_L1: b[ahead]) if (ahead < n)
        }
#pragma ompx prefetch data(HINT_L1: b[ahead]) if (ahead < n && ahead % 16 == 0)
        acc += b[j + u];
      }
      for (int u = 0; u < TILE; u += 16) {
        int ahead = j + TILE + u;
#pragma ompx prefetch data(HINT_L1: b[ahead]) if (ahead < n)     /* one per 64-byte line: fine */
      }
      for (int u = 0; u < TILE; u += 8) {
        int ahead = j + TILE + u;
#pragma ompx prefetch data(HINT_L1: d[ahead]) if (ahead < n)     /* 8 doubles = 64 bytes: fine */
#pragma ompx prefetch data(HINT_L1: b[ahead]) if (ahead < n)     // expect: KL405
      }
    }
#pragma ompx prefetch data(HINT_L1: b[i]) if (i < n)   /* follows the parallel index: vectorised */
    out[i] = acc;
  }
}

void simd_model(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for thread_limit(256 / SIMD_W) map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i += SIMD_W) {
#pragma omp simd simdlen(SIMD_W)
    for (int v = 0; v < SIMD_W; ++v) {
#pragma ompx prefetch data(HINT_L1: in[i + v]) if (i + v < n)    // expect: KL404
      out[i + v] = in[i + v];
    }
#pragma ompx prefetch data(HINT_L1: in[i + SIMD_W]) if (i + SIMD_W < n)   /* outside simd: fine */
  }
}

void combined_simd(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for simd map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
#pragma ompx prefetch data(HINT_L2: in[i]) // expect: KL404
    out[i] = in[i];
  }
}
