// KL705: a pointer mapped without an array section copies the pointer (8 bytes), not the data; the
// device then dereferences a host address. Bad: pointer parameters and a malloc'd buffer mapped bare,
// on a target construct, a target data region and a target enter data. Good: explicit sections, device
// pointers (omp_target_alloc, is_device_ptr), a pointer whose data the function maps too, and a
// pointer that the region never dereferences.
#include <stdlib.h>
#include <omp.h>

void vadd(const float *a, const float *b, float *c, int n) {
#pragma omp target teams distribute parallel for map(to: a, b) map(from: c) // expect: KL705, KL705, KL705
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

void vadd_sections(const float *a, const float *b, float *c, int n) {
#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

double *histogram_buffer(int bins) {
  double *h = (double *) malloc(4096 * sizeof(double));
#pragma omp target data map(tofrom: h) // expect: KL705
  {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < bins; ++b)
      h[b] = 0.0;
  }
  return h;
}

void stage(int *keys, int n) {
#pragma omp target enter data map(to: keys) // expect: KL705
}

void device_owned(int n, int dev) {
  float *d = (float *) omp_target_alloc(n * sizeof(float), dev);
#pragma omp target teams distribute parallel for map(to: d)
  for (int i = 0; i < n; ++i)
    d[i] = 1.0f;
  omp_target_free(d, dev);
}

void device_pointer_clause(float *p, int n) {
#pragma omp target data map(to: p) use_device_ptr(p)
  {
#pragma omp target teams distribute parallel for is_device_ptr(p)
    for (int i = 0; i < n; ++i)
      p[i] *= 2.0f;
  }
}

void attached(float *x, int n) {
#pragma omp target enter data map(to: x[0:n])
#pragma omp target teams distribute parallel for map(to: x)
  for (int i = 0; i < n; ++i)
    x[i] += 1.0f;
#pragma omp target exit data map(from: x[0:n])
}

void not_dereferenced(float *x, float *y, int n) {
#pragma omp target teams distribute parallel for map(to: x) map(from: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = (x != 0) ? 1.0f : 0.0f;
}
