// KL102 for OpenMP maps: `map(tofrom: x)` (or `map(x)`, tofrom by default) where the region only
// reads x (map it `to`) or overwrites all of it without reading (map it `from`); target data regions
// too. Near misses: read-modify-write, partial or conditional writes, escapes, target update.
#define N 4096

void scale(float *x, float *y, float a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) /* a comment */ map(tofrom: y[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void fill(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for map(out[0:n]) map(to: in[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i) {
    out[i] = 2.0f * in[i];
  }
}

void continued(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for \
    map(to: in[0:n]) \
    map(tofrom: out[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    out[i] = in[i] + 1.0f;
}

void fixed_size(void) {
  static float grid[N], src[N];
#pragma omp target teams distribute parallel for map(tofrom: grid) map(to: src) // expect: KL102
  for (int i = 0; i < N; ++i)
    grid[i] = src[i];
}

void data_region(float *a, float *b, float *c, int n, int steps) {
#pragma omp target data map(tofrom: a[0:n]) map(tofrom: b[0:n], c[0:n]) // expect: KL102
  {
    for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
      for (int i = 0; i < n; ++i)
        b[i] = a[i] * 0.5f;
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        c[i] += b[i];
    }
  }
}

int helper(float *p, int n);

void near_misses(float *a, float *b, float *c, float *d, float *e, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] += 1.0f;                      /* read-modify-write: tofrom is right */
#pragma omp target teams distribute parallel for map(tofrom: b[0:n]) /* expect: KL707 */
  for (int i = 0; i < n / 2; ++i)
    b[i] = 0.0f;                       /* half the section: the rest must be copied in */
#pragma omp target teams distribute parallel for map(tofrom: c[0:n])
  for (int i = 0; i < n; ++i)
    if (i % 3 == 0) c[i] = 1.0f;       /* conditional write (and divergent) expect: KL501 */
#pragma omp target map(tofrom: d[0:n])
  helper(d, n);                        /* passed on: unknown use */
#pragma omp target data map(tofrom: e[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = e[i];
#pragma omp target update from(e[0:n])
  }
#pragma omp target enter data map(to: a[0:n])
#pragma omp target exit data map(from: a[0:n])
}
