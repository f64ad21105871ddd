// CUDA twin of good.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x;
// inclusive_scan_over_group(group, x, plus) -> a scan within each warp (__shfl_up_sync), the 8 warp
// totals scanned through __shared__ memory, and each warp's offset added.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void running_sums(const float *in, float *out) {
  __shared__ float warp_totals[WG / 32];
  const int lid = threadIdx.x, lane = lid % 32, warp = lid / 32;
  float sum = in[blockIdx.x * size_t(blockDim.x) + threadIdx.x];
  for (int offset = 1; offset < 32; offset <<= 1) {
    const float below = __shfl_up_sync(0xffffffffu, sum, offset);
    if (lane >= offset)
      sum += below;
  }
  if (lane == 31)
    warp_totals[warp] = sum;
  __syncthreads();
  float before = 0.0f;
  for (int w = 0; w < warp; ++w)
    before += warp_totals[w];
  out[blockIdx.x * size_t(blockDim.x) + threadIdx.x] = before + sum;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 7), *out = poisoned_floats(n);
  const float ms = median_ms([&] { running_sums<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
