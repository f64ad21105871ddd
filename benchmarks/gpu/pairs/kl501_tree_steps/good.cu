// CUDA twin of good.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// local_accessor -> __shared__; group_barrier -> __syncthreads();
// reduce_over_group(sub_group, x, plus) -> a butterfly of __shfl_xor_sync over the 32-lane warp.
// The line marked `measured` does the last five steps' work, for comparison with bad.cu's.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void tile_sums(const float *in, float *sums) {
  __shared__ float tile[WG];
  const int lid = threadIdx.x;
  tile[lid] = in[blockIdx.x * size_t(blockDim.x) + threadIdx.x];
  for (int s = WG / 2; s >= 32; s >>= 1) {
    __syncthreads();
    if (lid < s)
      tile[lid] += tile[lid + s];
  }
  __syncthreads();
  if (lid < 32) {
    float total = tile[lid];
    for (int offset = 16; offset > 0; offset >>= 1)
      total += __shfl_xor_sync(0xffffffffu, total, offset); // measured
    if (lid == 0)
      sums[blockIdx.x] = total;
  }
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 6), *sums = poisoned_floats(n / WG);
  const float ms = median_ms([&] { tile_sums<<<n / WG, WG>>>(in, sums); }, reps_from(argc, argv));
  return report(ms, sums, n / WG);
}
