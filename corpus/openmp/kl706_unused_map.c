// KL706: a mapped variable the region never reads or writes: its copy is wasted. Bad: an input left in
// the map after a refactoring, a `from` buffer nothing writes, a `tofrom` scalar, an unused array of a
// target data region. Good: every mapped variable used; uses the analysis cannot see (a call it is
// passed to, a global a called function may read, a macro from a header, a nested `target update`,
// a clause of a nested directive); and data an enclosing target data region already maps.
#define N 1024
#include "omp_tuning.h"

float coeffs[N];
#pragma omp declare target(coeffs)

void axpy_leftover(const double *x, const double *w, double *y, double a) {
#pragma omp target teams distribute parallel for map(to: x[0:N], w[0:N]) map(tofrom: y[0:N]) // expect: KL706
  for (int i = 0; i < N; ++i)
    y[i] += a * x[i];
}

void axpy(const double *x, double *y, double a) {
#pragma omp target teams distribute parallel for map(to: x[0:N]) map(tofrom: y[0:N])
  for (int i = 0; i < N; ++i)
    y[i] += a * x[i];
}

int count_positive(const float *v, float *scratch, int n) {
  int count = 0;
  int steps = 0;
#pragma omp target teams distribute parallel for reduction(+: count) map(to: v[0:n]) \
    map(from: scratch[0:n]) map(tofrom: count, steps) // expect: KL706, KL706
  for (int i = 0; i < n; ++i)
    count += v[i] > 0.0f;
  return count;
}

void pipeline(float *a, float *b, float *unused, int n, int iters) {
#pragma omp target data map(tofrom: a[0:n], b[0:n]) map(to: unused[0:n]) // expect: KL706
  {
    for (int it = 0; it < iters; ++it) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        b[i] = 0.5f * (a[i] + b[i]);
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        a[i] = b[i];
    }
  }
}

void external_kernel(float *data, int n);
float weight(int i);
float table[N];
float lookup(int i); /* defined elsewhere: may read `table` */

void not_provably_unused(float *a, float *b, float *c, float *d, float *e, int n) {
#pragma omp target data map(tofrom: a[0:n])
  external_kernel(a, n);
#pragma omp target teams distribute parallel for map(to: b[0:n]) map(from: c[0:n])
  for (int i = 0; i < n; ++i)
    c[i] = SQUARE(i);
#pragma omp target data map(tofrom: d[0:n])
  {
#pragma omp target update to(d[0:n])
  }
#pragma omp target teams distribute parallel for map(to: e[0:n]) map(from: c[0:n]) if (e != 0)
  for (int i = 0; i < n; ++i)
    c[i] = coeffs[i] * weight(i);
#pragma omp target teams distribute parallel for map(to: table) map(from: c[0:n])
  for (int i = 0; i < n; ++i)
    c[i] = lookup(i);
}

void resident(float *a, int n) {
#pragma omp target data map(tofrom: a[0:n])
  {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; ++i)
      a[i] *= 2.0f;
  }
}
