// CUDA twin of good.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// reduce_over_group(group, x, plus) -> a sum within each warp (shuffles, as a sub-group reduction
// compiles), the 8 warp sums through __shared__ memory, and a last sum by the first warp.
#include "../common.cuh"

constexpr int WG = 256;

__device__ float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

__global__ void tile_sums(const float *in, float *sums) {
  __shared__ float partial[WG / 32];
  const unsigned lid = threadIdx.x;
  const float mine = warp_sum(in[blockIdx.x * size_t(blockDim.x) + threadIdx.x]);
  if (lid % 32 == 0)
    partial[lid / 32] = mine;
  __syncthreads();
  const float total = warp_sum(lid % 32 < WG / 32 ? partial[lid % 32] : 0.0f);
  if (lid == 0)
    sums[blockIdx.x] = total;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 4), *sums = poisoned_floats(n / WG);
  const float ms = median_ms([&] { tile_sums<<<n / WG, WG>>>(in, sums); }, reps_from(argc, argv));
  return report(ms, sums, n / WG);
}
