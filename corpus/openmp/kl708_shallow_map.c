// KL708: data behind a second level of pointers mapped shallowly. Bad: a pointer to pointers mapped
// whole, as its row pointers, or as a two-level section; a struct whose pointer member the region
// dereferences. Good: the deep-copy pattern (row pointers, then each row, with target enter data), a
// contiguous matrix, a struct mapped with its member's data, and a struct whose pointer the region
// does not follow.
#include <stdlib.h>

typedef struct {
  int n;
  double *values;
  double scale;
} Vector;

void bump_diagonal(int **A, int n) {
#pragma omp target teams distribute parallel for map(tofrom: A) // expect: KL708
  for (int i = 0; i < n; ++i)
    A[i][i] += 1;
}

void scale_rows(float **rows, int n, int m) {
#pragma omp target teams distribute parallel for map(tofrom: rows[0:n][0:m]) // expect: KL708
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      rows[i][j] *= 2.0f;
}

void row_pointers_only(float **rows, float *out, int n, int m) {
#pragma omp target teams distribute parallel for map(to: rows[0:n]) map(from: out[0:n]) // expect: KL708
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int j = 0; j < m; ++j)
      s += rows[i][j];
    out[i] = s;
  }
}

void scale_rows_deep(float **rows, int n, int m) {
#pragma omp target enter data map(to: rows[0:n])
  for (int i = 0; i < n; ++i) {
#pragma omp target enter data map(to: rows[i][0:m])
  }
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      rows[i][j] *= 2.0f;
  for (int i = 0; i < n; ++i) {
#pragma omp target exit data map(from: rows[i][0:m])
  }
#pragma omp target exit data map(release: rows[0:n])
}

void scale_flat(float *matrix, int n, int m) {
#pragma omp target teams distribute parallel for map(tofrom: matrix[0:n * m])
  for (int i = 0; i < n * m; ++i)
    matrix[i] *= 2.0f;
}

double norm_shallow(Vector v) {
  double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+: sum) map(to: v) map(tofrom: sum) // expect: KL708
  for (int i = 0; i < v.n; ++i)
    sum += v.values[i] * v.values[i];
  return sum;
}

double norm_deep(Vector v) {
  double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+: sum) map(to: v, v.values[0:v.n]) map(tofrom: sum)
  for (int i = 0; i < v.n; ++i)
    sum += v.values[i] * v.values[i];
  return sum;
}

double scaled_length(Vector v) {
  double out = 0.0;
#pragma omp target map(to: v) map(from: out)
  out = v.scale * v.n;
  return out;
}
