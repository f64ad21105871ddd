// CUDA twin of good.cpp (see bad.cu): the column-major copy, read with neighbouring lanes on
// neighbouring floats. The input is the same random values (their order does not change the sums'
// total, so both checksums agree up to rounding).
#include "../common.cuh"

constexpr int COLS = 8;

__global__ void row_sums(const float *mt, float *sums, size_t rows) {
  const size_t r = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < COLS; ++k)
    acc += mt[k * rows + r];
  sums[r] = acc;
}

int main(int argc, char **argv) {
  const size_t rows = 1 << 21;
  float *mt = random_floats(rows * COLS, 1), *sums = poisoned_floats(rows);
  const float ms = median_ms([&] { row_sums<<<rows / 256, 256>>>(mt, sums, rows); }, reps_from(argc, argv));
  return report(ms, sums, rows);
}
