// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_global_id(0) ->
// blockIdx.x * blockDim.x + threadIdx.x; the sub-group is the 32-lane warp.
// Lines marked `measured` are the branch's arms: the harness reads their per-line counters.
#include "../common.cuh"

constexpr int WG = 256;
constexpr int STEPS = 256;

__global__ void settle(const float *in, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float x = in[i];
  if (i % 2 == 0) {
    for (int k = 0; k < STEPS; ++k) // measured
      x = x * 0.99f + 0.01f;        // measured
  } else {
    for (int k = 0; k < STEPS; ++k) // measured
      x = x * 0.98f - 0.02f;        // measured
  }
  out[i] = x;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 3), *out = poisoned_floats(n);
  const float ms = median_ms([&] { settle<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
