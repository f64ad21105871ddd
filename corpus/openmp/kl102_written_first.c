// KL102 for OpenMP maps whose region reads the data only after overwriting all of it: the first
// thing the region does with `y` is a device loop over exactly the mapped section that stores every
// element unconditionally, so what `tofrom` copies in is never seen (map it `from`). Near misses:
// the initialising loop is conditional, partial, in a host loop, on the host, `nowait`, or
// something reads `y` first.
#include <stdlib.h>

void relax(float *y, const float *src, int n, int steps) {
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n]) // expect: KL102
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] = src[i];
    for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
      for (int i = 1; i < n - 1; ++i)
        y[i] = 0.5f * y[i] + 0.25f * (src[i - 1] + src[i + 1]);
    }
  }
}

void histogram(int *bins, const int *keys, int nbins, int nkeys) {
#pragma omp target data map(tofrom: bins[0:nbins]) map(to: keys[0:nkeys]) // expect: KL102
  {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < nbins; b++) {
      bins[b] = 0;
    }
#pragma omp target teams distribute parallel for
    for (int k = 0; k < nkeys; k++) {
#pragma omp atomic update
      bins[keys[k] % nbins] += 1;
    }
  }
}

// Silent: something may see the old contents of `y`.
void near_misses(float *y, const float *src, int n, int steps, int warm) {
  // Only the first half is written before the reads.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n / 2; ++i)
      y[i] = src[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] *= src[i];
  }
  // The initialisation may not run.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
    if (warm) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        y[i] = src[i];
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] += 1.0f;
  }
  // Read before it is written.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] = src[i] - y[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] = src[i];
  }
  // Written on the host: the device copy is still the one copied in.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      y[i] = src[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] += src[i];
  }
  // Inside a host loop that may run no iteration.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
    for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        y[i] = src[i];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        y[i] += src[i];
    }
  }
  // Asynchronous: the reader is not ordered after the writer.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i)
      y[i] = src[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] += src[i];
#pragma omp taskwait
  }
  // Conditionally stored inside the loop.
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      if (src[i] > 0.0f) y[i] = src[i]; // expect: KL501
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] += src[i];
  }
}

// The section's length changes before the loop that would cover it.
void shrinking(float *y, const float *src, int n) {
#pragma omp target data map(tofrom: y[0:n]) map(to: src[0:n])
  {
    n = n - 1;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] = src[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] += src[i];
  }
}

// Each iteration of the mapped construct's own loop stores its element first and only then reads it
// back (an accumulator reset, then a sum into it): the copy in is never seen either.
void row_sums(float *sum, const float *m, int rows, int cols) {
#pragma omp target teams distribute parallel for map(tofrom: sum[0:rows]) map(to: m[0:rows * cols]) // expect: KL102
  for (int r = 0; r < rows; r++) {
    sum[r] = 0.0f;
    for (int c = 0; c < cols; c++)
      sum[r] += m[r * cols + c]; // expect: KL601
  }
}

// Silent: the old value may be read in the same iteration.
void row_sums_near(float *sum, const float *m, const int *skip, int rows, int cols) {
  // Read in the statement that stores it: the old value is added.
#pragma omp target teams distribute parallel for map(tofrom: sum[0:rows]) map(to: m[0:rows * cols])
  for (int r = 0; r < rows; r++)
    sum[r] = sum[r] + m[r * cols];
  // A `continue` may skip the store: the skipped rows keep what the host had.
#pragma omp target teams distribute parallel for map(tofrom: sum[0:rows]) map(to: m[0:rows * cols], skip[0:rows])
  for (int r = 0; r < rows; r++) {
    if (skip[r]) // expect: KL501
      continue;
    sum[r] = 0.0f;
    for (int c = 0; c < cols; c++)
      sum[r] += m[r * cols + c]; // expect: KL601
  }
  // The same early exit without any read: the plain overwrite is not proven either.
#pragma omp target teams distribute parallel for map(tofrom: sum[0:rows]) map(to: m[0:rows * cols], skip[0:rows])
  for (int r = 0; r < rows; r++) {
    if (skip[r]) // expect: KL501
      continue;
    sum[r] = m[r * cols];
  }
  // A neighbour's element is read: another iteration may not have stored it yet.
#pragma omp target teams distribute parallel for map(tofrom: sum[0:rows]) map(to: m[0:rows * cols])
  for (int r = 0; r < rows; r++) {
    sum[r] = m[r * cols];
    sum[r] += r > 0 ? sum[r - 1] : 0.0f;
  }
}
