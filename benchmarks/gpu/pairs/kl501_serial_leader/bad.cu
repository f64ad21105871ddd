// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// local_accessor -> __shared__; group_barrier -> __syncthreads(); the sub-group is the 32-lane warp.
// Lines marked `measured` are the leader's arm: the harness reads their per-line counters.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void tile_sums(const float *in, float *sums) {
  __shared__ float tile[WG];
  const unsigned lid = threadIdx.x;
  tile[lid] = in[blockIdx.x * size_t(blockDim.x) + threadIdx.x];
  __syncthreads();
  if (lid == 0) {
    float total = 0.0f;           // measured
    for (int k = 0; k < WG; ++k)  // measured
      total += tile[k];           // measured
    sums[blockIdx.x] = total;     // measured
  }
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 4), *sums = poisoned_floats(n / WG);
  const float ms = median_ms([&] { tile_sums<<<n / WG, WG>>>(in, sums); }, reps_from(argc, argv));
  return report(ms, sums, n / WG);
}
