// KL702 for OpenMP offload: taskwait after nowait target tasks, and target update from, per iteration.
#include <stdio.h>

// Two independent sweeps per step run as target tasks; the host waits for both every step.
void sweeps(float *u, float *v, int n, int steps) {
#pragma omp target data map(tofrom: u[0:n], v[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i) u[i] = 0.5f * u[i] + 1.0f;
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i) v[i] = 0.5f * v[i] - 1.0f;
#pragma omp taskwait // expect: KL702
  }
}

// The same without nowait: each target region already blocks, the taskwait waits for nothing.
void blocking_sweeps(float *u, int n, int steps) {
#pragma omp target data map(tofrom: u[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) u[i] = 0.5f * u[i] + 1.0f;
#pragma omp taskwait
  }
}

// The temperature comes back on every step but the host only prints it at the end.
void diffuse(float *temp, int n, int steps) {
#pragma omp target enter data map(to: temp[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; ++i) temp[i] = 0.25f * (temp[i - 1] + 2.0f * temp[i] + temp[i + 1]);
#pragma omp target update from(temp[0:n]) // expect: KL702
  }
#pragma omp target exit data map(from: temp[0:n])
  printf("%f\n", temp[n / 2]);
}

// Needed: the host tests the energy every step.
int settle(float *energy, int n, int limit) {
  int s = 0;
#pragma omp target enter data map(to: energy[0:n])
  for (s = 0; s < limit; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) energy[i] *= 0.5f;
#pragma omp target update from(energy[0:1])
    if (energy[0] < 1e-6f) break;
  }
#pragma omp target exit data map(delete: energy[0:n])
  return s;
}

// Not reported: a loop of updates alone is what the code is for (copy timing, chunked output).
void copy_back_chunks(float *out, int n, int chunks) {
  for (int c = 0; c < chunks; ++c) {
#pragma omp target update from(out[c * n:n])
  }
}
