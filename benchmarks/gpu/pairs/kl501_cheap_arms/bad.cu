// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_global_id(0) ->
// blockIdx.x * blockDim.x + threadIdx.x; sycl::sqrt -> sqrtf; the sub-group is the 32-lane warp.
// The line marked `measured` is the branch's arm: the harness reads its per-line counters.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void rescale_every_fourth(const float *in, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float x = in[i];
  if (i % 4 == 0)
    x = sqrtf(x) * 3.0f; // measured
  out[i] = x;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 5), *out = poisoned_floats(n);
  const float ms = median_ms([&] { rescale_every_fourth<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
