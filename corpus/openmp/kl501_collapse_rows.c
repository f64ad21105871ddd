// Collapsed loop nests: lanes are consecutive innermost iterations, so an outer index is the same
// along a whole row of inner iterations. With rows a multiple of 32 long, a test on the outer index
// splits no sub-group; with rows of unknown length, only a sub-group that straddles two rows splits
// (a boundary, shown with report-boundary); with rows of 8, every sub-group holds four rows.
#define NX 64

// Sparse rows over a (batch, row, column) grid: the row loop's bounds depend on b and r only.
void batched_rows(const int *start, const float *vals, float *out, int batches, int rows) {
#pragma omp target teams distribute parallel for collapse(3) map(to: start[0:rows + 1], vals[0:start[rows]]) map(from: out[0:batches * rows * NX])
  for (int b = 0; b < batches; b++)
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < NX; c++) {
        float acc = 0.0f;
        for (int k = start[r]; k < start[r + 1]; k++)
          acc += vals[k] * (float)(b + c);
        if (start[r + 1] - start[r] > 16)
          acc *= 0.5f;
        out[(b * rows + r) * NX + c] = acc;
      }
}

// The same with columns of unknown count: rows straddle sub-groups only at their ends.
void ragged_rows(const int *start, const float *vals, float *out, int rows, int cols) {
#pragma omp target teams distribute parallel for collapse(2) map(to: start[0:rows + 1], vals[0:start[rows]]) map(from: out[0:rows * cols])
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      float acc = 0.0f;
      for (int k = start[r]; k < start[r + 1]; k++)
        acc += vals[k];
      out[r * cols + c] = acc * (float)c;
    }
}

// Rows of 8: four rows share each sub-group of 32, whose lanes then run four different trip counts.
void short_rows(const int *start, const float *vals, float *out, int rows) {
#pragma omp target teams distribute parallel for collapse(2) map(to: start[0:rows + 1], vals[0:start[rows]]) map(from: out[0:rows * 8])
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < 8; c++) {
      float acc = 0.0f;
      for (int k = start[r]; k < start[r + 1]; k++) // expect: KL501 (info, inherent)
        acc += vals[k];
      out[r * 8 + c] = acc;
    }
}
