// CUDA twin of good.cpp: nd_range<1>(n / PER_ITEM, WG) -> <<<n / TILE, WG>>>; get_local_id(0) ->
// threadIdx.x; get_group(0) -> blockIdx.x; local_accessor -> __shared__; group_barrier -> __syncthreads().
#include "../common.cuh"

constexpr int WG = 256;
constexpr int PER_ITEM = 20;
constexpr int TILE = WG * PER_ITEM;

__global__ void pair_average(const float *in, float *out) {
  __shared__ float tile[TILE];
  const unsigned lid = threadIdx.x;
  const size_t base = blockIdx.x * size_t(TILE);
  for (int k = 0; k < PER_ITEM; ++k)
    tile[k * WG + lid] = in[base + k * WG + lid];
  __syncthreads();
  for (int k = 0; k < PER_ITEM; ++k)
    out[base + k * WG + lid] = 0.5f * (tile[k * WG + lid] + tile[(k * WG + lid) ^ 1]);
}

int main(int argc, char **argv) {
  const size_t n = size_t(10240) * 6600; // 10 full waves of 5 work-groups per SM on 132 SMs
  float *in = random_floats(n, 8), *out = poisoned_floats(n);
  const float ms = median_ms([&] { pair_average<<<n / TILE, WG>>>(in, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
