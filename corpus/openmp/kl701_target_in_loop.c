// KL701: target regions in host loops that map arrays to and from the device on every iteration.
#include <stdio.h>
#include <stdlib.h>
#define N 4096
#define STEPS 200

// Every step copies both arrays in and the result back, and the host never looks at them in the loop.
void advect(float *rho, float *flux, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(to: flux[0:n]) map(tofrom: rho[0:n]) // expect: KL701
    for (int i = 1; i < n; ++i) rho[i] -= 0.1f * (flux[i] - flux[i - 1]);
  }
}

// Arrays with a size are mapped tofrom without a clause.
float grid[N], next_grid[N];
void jacobi(void) {
  for (int s = 0; s < STEPS; ++s) {
#pragma omp target teams distribute parallel for // expect: KL701
    for (int i = 1; i < N - 1; ++i) next_grid[i] = 0.5f * (grid[i - 1] + grid[i + 1]);
  }
}

// One call level: the kernel's function is called from the loop.
static void scale(float *x, int n, float by) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) // expect: KL701
  for (int i = 0; i < n; ++i) x[i] *= by;
}
void damp(float *x, int n, int steps) {
  for (int s = 0; s < steps; ++s) scale(x, n, 0.99f);
}

// Fixed: a data region keeps the arrays on the device across the loop.
void advect_resident(float *rho, float *flux, int n, int steps) {
#pragma omp target data map(to: flux[0:n]) map(tofrom: rho[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(to: flux[0:n]) map(tofrom: rho[0:n])
    for (int i = 1; i < n; ++i) rho[i] -= 0.1f * (flux[i] - flux[i - 1]);
  }
}

// Fixed: entered once, present afterwards; scratch allocated, not copied.
void advect_entered(float *rho, float *flux, float *tmp, int n, int steps) {
#pragma omp target enter data map(to: rho[0:n], flux[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(present, tofrom: rho[0:n]) map(alloc: tmp[0:n])
    for (int i = 1; i < n; ++i) {
      tmp[i] = flux[i] - flux[i - 1];
      rho[i] -= 0.1f * tmp[i];
    }
  }
#pragma omp target exit data map(from: rho[0:n]) map(delete: flux[0:n])
}

// Not reported: the host reads and rewrites the array between the regions, so the copies are the exchange.
void coupled(float *halo, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(tofrom: halo[0:n])
    for (int i = 0; i < n; ++i) halo[i] += 1.0f;
    halo[0] = halo[n - 1];
  }
}

// Not reported: device memory from omp_target_alloc is named with is_device_ptr.
void device_pointer(float *d_buf, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for is_device_ptr(d_buf)
    for (int i = 0; i < n; ++i) d_buf[i] += 1.0f;
  }
}

// Not reported: a map the program asks to repeat.
void always_copy(float *x, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(always, tofrom: x[0:n])
    for (int i = 0; i < n; ++i) x[i] += 1.0f;
  }
}
