// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; local_accessor -> __shared__;
// group_barrier -> __syncthreads().
#include "../common.cuh"

constexpr int WG = 32;
constexpr int STEPS = 32;

__global__ void relax_pairs(const float *in, float *out) {
  __shared__ float tile[WG];
  const unsigned lid = threadIdx.x;
  const size_t gid = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  tile[lid] = in[gid];
  for (int k = 0; k < STEPS; ++k) {
    __syncthreads();
    const float next = 0.5f * (tile[lid] + tile[lid ^ 1]) + 0.001f * k;
    __syncthreads();
    tile[lid] = next;
  }
  out[gid] = tile[lid];
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 2), *out = poisoned_floats(n);
  const float ms = median_ms([&] { relax_pairs<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
