// CUDA twin of bad.cpp: nd_range<1>(rows, 256) -> <<<rows / 256, 256>>>; get_global_id(0) ->
// blockIdx.x * blockDim.x + threadIdx.x. `#pragma unroll 1` keeps one 4-byte load per step (an unrolled
// loop could merge neighbouring steps into wider loads, which the SYCL form does not promise).
#include "../common.cuh"

constexpr int COLS = 8;

__global__ void row_sums(const float *m, float *sums) {
  const size_t r = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < COLS; ++k)
    acc += m[r * COLS + k];
  sums[r] = acc;
}

int main(int argc, char **argv) {
  const size_t rows = 1 << 21;
  float *m = random_floats(rows * COLS, 1), *sums = poisoned_floats(rows);
  const float ms = median_ms([&] { row_sums<<<rows / 256, 256>>>(m, sums); }, reps_from(argc, argv));
  return report(ms, sums, rows);
}
