// KL707: a map section larger than the range the region reaches. Bad: constant sections twice the
// loop, a section of n for a loop to n / 2, a target data region, a halo mapped but never read.
// Good: sections that match the loop, stencils that reach the ends, a one-element slack (below the
// threshold), and accesses the analysis cannot bound (a computed index, a pointer passed on).
#define LEN 1000
#define HALF (LEN / 2)

void add_half(void) {
  int a[LEN], b[LEN], s[LEN];
  for (int i = 0; i < LEN; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
#pragma omp target teams distribute parallel for map(to: a[0:LEN], b[0:LEN]) map(from: s[0:LEN]) // expect: KL707, KL707, KL707
  for (int i = 0; i < HALF; ++i)
    s[i] = a[i] + b[i];
}

void add_half_fixed(void) {
  int a[LEN], b[LEN], s[LEN];
  for (int i = 0; i < LEN; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
#pragma omp target teams distribute parallel for map(to: a[0:HALF], b[0:HALF]) map(from: s[0:HALF])
  for (int i = 0; i < HALF; ++i)
    s[i] = a[i] + b[i];
}

void first_half(const double *x, double *y, int n) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: y[0:n / 2]) // expect: KL707
  for (int i = 0; i < n / 2; ++i)
    y[i] = 2.0 * x[i];
}

void real_parts(const float *spectrum, float *power, int n) {
  /* spectrum holds n real parts, then n imaginary parts: only the real half is read */
#pragma omp target data map(to: spectrum[0:2 * n]) map(from: power[0:n]) // expect: KL707
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      power[i] = spectrum[i] * spectrum[i];
  }
}

void stencil_fits(const float *in, float *out, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(tofrom: out[0:n])
  for (int i = 1; i < n - 1; ++i)
    out[i] = in[i - 1] + in[i] + in[i + 1];
}

void one_short(const float *in, float *out) {
#pragma omp target teams distribute parallel for map(to: in[0:LEN]) map(from: out[0:LEN - 1])
  for (int i = 0; i < LEN - 1; ++i)
    out[i] = in[i] + in[i + 1];
}

void unbounded(const int *idx, const float *in, float *out, int n) {
#pragma omp target teams distribute parallel for map(to: idx[0:n], in[0:4 * n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = in[idx[i]] + in[i * i % n];
}

void tiles(float *grid, int tile, int ntiles) {
  for (int t = 0; t < ntiles; ++t) {
#pragma omp target teams distribute parallel for map(tofrom: grid[t * tile:tile])
    for (int i = 0; i < tile; ++i)
      grid[t * tile + i] *= 0.5f;
  }
}
