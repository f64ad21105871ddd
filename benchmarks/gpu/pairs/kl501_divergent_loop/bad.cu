// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; local_accessor -> __shared__;
// group_barrier -> __syncthreads(); the sub-group is the 32-lane warp.
// The lines marked `measured` are the divergent loop: the harness reads their per-line counters.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void running_sums(const float *in, float *out) {
  __shared__ float tile[WG];
  const int lid = threadIdx.x;
  tile[lid] = in[blockIdx.x * size_t(blockDim.x) + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k <= lid; ++k) // measured
    sum += tile[k];              // measured
  out[blockIdx.x * size_t(blockDim.x) + threadIdx.x] = sum;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 7), *out = poisoned_floats(n);
  const float ms = median_ms([&] { running_sums<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
