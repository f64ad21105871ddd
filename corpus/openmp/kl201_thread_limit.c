// kernlint-devices: xe-hpc xe-lp
// KL201 for OpenMP: a constant thread_limit above the device's maximum work-group size is clamped
// by the runtime (a warning); in the SIMD model thread_limit counts EU threads of simdlen lanes.
#define TEAM 1024
#define BIG_TEAM 2048
#define VEC 16

void spmd(float *a, int n, int team_from_caller) {
#pragma omp target teams distribute parallel for thread_limit(BIG_TEAM) map(tofrom: a[0:n]) // expect: KL201
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
#pragma omp target teams distribute parallel for thread_limit(TEAM) map(tofrom: a[0:n]) // expect[xe-lp]: KL201
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
#pragma omp target teams distribute parallel for thread_limit(256) map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
#pragma omp target teams distribute parallel for thread_limit(team_from_caller) map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
}

void simd_model(float *a, int n) {
#pragma omp target teams distribute parallel for thread_limit(TEAM) map(tofrom: a[0:n]) // expect: KL201
  for (int i = 0; i < n; i += VEC) {
#pragma omp simd simdlen(VEC)
    for (int v = 0; v < VEC; ++v) a[i + v] += 1.0f;
  }
#pragma omp target teams distribute parallel for thread_limit(TEAM / VEC) map(tofrom: a[0:n]) // expect[xe-lp]: KL201
  for (int i = 0; i < n; i += VEC) {
#pragma omp simd simdlen(VEC)
    for (int v = 0; v < VEC; ++v) a[i + v] += 1.0f;
  }
  /* SPMD code with a simd loop inside a unit-stride parallel loop: not the SIMD model */
#pragma omp target teams distribute parallel for thread_limit(256) map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i) {
#pragma omp simd simdlen(VEC)
    for (int v = 0; v < VEC; ++v) a[i] += 0.5f;
  }
}
