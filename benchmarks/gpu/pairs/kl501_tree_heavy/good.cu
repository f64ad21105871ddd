// CUDA twin of good.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// local_accessor -> __shared__; group_barrier -> __syncthreads(); sycl::fmin/fmax/fabs -> fminf/fmaxf/
// fabsf; reduce_over_group(sub_group, x, op) -> a butterfly of __shfl_xor_sync over the 32-lane warp.
// Lines marked `measured` do the last five steps' work, for comparison with bad.cu's.
#include "../common.cuh"

constexpr int WG = 256;

__device__ float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

__device__ float warp_min(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fminf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

__device__ float warp_max(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

__global__ void tile_stats(const float *in, float *stats) {
  __shared__ float sum[WG], lo[WG], hi[WG], sq[WG], cube[WG], l1[WG];
  const int lid = threadIdx.x;
  const float x = in[blockIdx.x * size_t(blockDim.x) + threadIdx.x];
  sum[lid] = x;
  lo[lid] = x;
  hi[lid] = x;
  sq[lid] = x * x;
  cube[lid] = x * x * x;
  l1[lid] = fabsf(x);
  for (int s = WG / 2; s >= 32; s >>= 1) {
    __syncthreads();
    if (lid < s) {
      sum[lid] += sum[lid + s];
      lo[lid] = fminf(lo[lid], lo[lid + s]);
      hi[lid] = fmaxf(hi[lid], hi[lid + s]);
      sq[lid] += sq[lid + s];
      cube[lid] += cube[lid + s];
      l1[lid] += l1[lid + s];
    }
  }
  __syncthreads();
  if (lid < 32) {
    const float total = warp_sum(sum[lid]); // measured
    const float low = warp_min(lo[lid]); // measured
    const float high = warp_max(hi[lid]); // measured
    const float squares = warp_sum(sq[lid]); // measured
    const float cubes = warp_sum(cube[lid]); // measured
    const float norm = warp_sum(l1[lid]); // measured
    if (lid == 0) {
      const size_t g = blockIdx.x;
      stats[6 * g] = total;
      stats[6 * g + 1] = low;
      stats[6 * g + 2] = high;
      stats[6 * g + 3] = squares;
      stats[6 * g + 4] = cubes;
      stats[6 * g + 5] = norm;
    }
  }
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 9), *stats = poisoned_floats(6 * (n / WG));
  const float ms = median_ms([&] { tile_stats<<<n / WG, WG>>>(in, stats); }, reps_from(argc, argv));
  return report(ms, stats, 6 * (n / WG));
}
