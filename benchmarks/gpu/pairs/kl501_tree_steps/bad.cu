// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// local_accessor -> __shared__; group_barrier -> __syncthreads(); the sub-group is the 32-lane warp.
// The stride loop is written as two loops, split at 32, so that the last five steps, the ones the
// claim is about, have their own source line (marked `measured`); the steps run are the same.
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
  for (int s = 16; s > 0; s >>= 1) {
    __syncthreads();
    if (lid < s)
      tile[lid] += tile[lid + s]; // measured
  }
  if (lid == 0)
    sums[blockIdx.x] = tile[0];
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 6), *sums = poisoned_floats(n / WG);
  const float ms = median_ms([&] { tile_sums<<<n / WG, WG>>>(in, sums); }, reps_from(argc, argv));
  return report(ms, sums, n / WG);
}
