// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_global_id(0) ->
// blockIdx.x * blockDim.x + threadIdx.x; the sub-group is the 32-lane warp.
#include "../common.cuh"

constexpr int WG = 100;
constexpr int STEPS = 256;

__global__ void relax(const float *in, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float x = in[i];
  for (int k = 0; k < STEPS; ++k)
    x = x * 0.999f + 0.001f;
  out[i] = x;
}

int main(int argc, char **argv) {
  const size_t n = 12800 * 1024;
  float *in = random_floats(n, 1), *out = poisoned_floats(n);
  const float ms = median_ms([&] { relax<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
