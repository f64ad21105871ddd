// KL703 for OpenMP: updates and target regions that take data to the host and back unchanged.
#include <stdlib.h>

// The copy out undoes the copy back: nothing on the host touched the array in between.
void refresh(float *a, int n, int steps) {
#pragma omp target data map(tofrom: a[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) a[i] += 1.0f;
#pragma omp target update from(a[0:n]) // expect: KL702
#pragma omp target update to(a[0:n]) // expect: KL703
  }
}

// Two regions in a row on a local array: the first copies it back, the second copies it out again.
float pipeline(int n) {
  float *work = (float *) malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) work[i] = (float) i;
#pragma omp target teams distribute parallel for map(tofrom: work[0:n])
  for (int i = 0; i < n; ++i) work[i] *= 2.0f;
#pragma omp target teams distribute parallel for map(tofrom: work[0:n]) // expect: KL703
  for (int i = 0; i < n; ++i) work[i] += 1.0f;
  float first = work[0];
  free(work);
  return first;
}

// Not reported: the host edits the array between the regions.
float pipeline_edited(int n) {
  float *work = (float *) malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) work[i] = (float) i;
#pragma omp target teams distribute parallel for map(tofrom: work[0:n])
  for (int i = 0; i < n; ++i) work[i] *= 2.0f;
  work[0] = -1.0f;
#pragma omp target teams distribute parallel for map(tofrom: work[0:n])
  for (int i = 0; i < n; ++i) work[i] += 1.0f;
  float first = work[0];
  free(work);
  return first;
}

// Not reported: an array the caller passes in may be mapped by the caller.
void passes(float *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
