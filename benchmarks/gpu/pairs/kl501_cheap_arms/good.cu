// CUDA twin of good.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_global_id(0) ->
// blockIdx.x * blockDim.x + threadIdx.x; sycl::sqrt -> sqrtf; the sub-group is the 32-lane warp.
// nvcc still branches here (around sqrtf's rarely taken slow path), so both twins compile to much the
// same code: for cheap arms the rewrite buys little, which is why KL501 reports them as info.
// Its one line also holds the load's use and the store, so it is not compared line by line.
#include "../common.cuh"

constexpr int WG = 256;

__global__ void rescale_every_fourth(const float *in, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const float x = in[i];
  out[i] = i % 4 == 0 ? sqrtf(x) * 3.0f : x;
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 5), *out = poisoned_floats(n);
  const float ms = median_ms([&] { rescale_every_fourth<<<n / WG, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
