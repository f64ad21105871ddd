// KL707 in C++: a constexpr-sized buffer of which a kernel uses the first rows, and its fix.
constexpr int kRows = 64;
constexpr int kCols = 256;

void first_rows(const float *field, float *row_sums) {
#pragma omp target teams distribute parallel for map(to: field[0:kRows * kCols]) map(from: row_sums[0:kRows]) // expect: KL707, KL707
  for (int r = 0; r < kRows / 4; ++r) {
    float sum = 0.0f;
    for (int c = 0; c < kCols; ++c)
      sum += field[r * kCols + c]; // expect: KL601
    row_sums[r] = sum;
  }
}

void first_rows_fixed(const float *field, float *row_sums) {
#pragma omp target teams distribute parallel for map(to: field[0:kRows / 4 * kCols]) \
    map(from: row_sums[0:kRows / 4])
  for (int r = 0; r < kRows / 4; ++r) {
    float sum = 0.0f;
    for (int c = 0; c < kCols; ++c)
      sum += field[r * kCols + c]; // expect: KL601
    row_sums[r] = sum;
  }
}
