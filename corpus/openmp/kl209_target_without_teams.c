// kernlint-devices: xe-hpc h100
// KL209: a target region whose loop is shared by `parallel for` with no `teams` runs one team, on one
// Xe-core/SM. Bad: stacked `target` + `parallel for`, combined `target parallel for`, a `for` inside a
// `parallel` region inside the target. Good: teams on the combined construct, a nested
// `teams distribute parallel for`, a `teams` block around the worksharing, and regions with no
// worksharing loop at all.
#include <math.h>
#define NX 2048

void saxpy_one_team(float a, const float *x, float *y, int n) {
#pragma omp target map(to: x[0:n]) map(tofrom: y[0:n]) // expect: KL209
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void relu_combined(const float *in, float *out, int n) {
#pragma omp target parallel for map(to: in[0:n]) map(from: out[0:n]) // expect: KL209
  for (int i = 0; i < n; ++i)
    out[i] = fmaxf(in[i], 0.0f);
}

void smooth_rows(const double *u, double *v, int rows) {
#pragma omp target map(to: u[0:rows * NX]) map(from: v[0:rows * NX]) // expect: KL209
  {
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int r = 0; r < rows; ++r)
        for (int c = 1; c < NX - 1; ++c)
          v[r * NX + c] = 0.25 * u[r * NX + c - 1] + 0.5 * u[r * NX + c] + 0.25 * u[r * NX + c + 1]; // expect: KL601, KL601
    }
  }
}

void saxpy_teams(float a, const float *x, float *y, int n) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void relu_nested_teams(const float *in, float *out, int n) {
#pragma omp target map(to: in[0:n]) map(from: out[0:n])
#pragma omp teams distribute parallel for
  for (int i = 0; i < n; ++i)
    out[i] = fmaxf(in[i], 0.0f);
}

void smooth_rows_teams(const double *u, double *v, int rows) {
#pragma omp target map(to: u[0:rows * NX]) map(from: v[0:rows * NX])
#pragma omp teams num_teams(rows)
  {
#pragma omp distribute
    for (int r = 0; r < rows; ++r) {
#pragma omp parallel for
      for (int c = 1; c < NX - 1; ++c)
        v[r * NX + c] = 0.25 * u[r * NX + c - 1] + 0.5 * u[r * NX + c] + 0.25 * u[r * NX + c + 1];
    }
  }
}

void scalar_setup(double *norm) {
#pragma omp target map(from: norm[0:1])
  norm[0] = 0.0;
}

void simd_only(const float *x, float *y, int n) {
#pragma omp target simd map(to: x[0:n]) map(from: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
}
