// CUDA twin of bad.cpp: nd_range<1>(n, WG) -> <<<n / WG, WG>>>; get_local_id(0) -> threadIdx.x;
// get_global_id(0) -> blockIdx.x * blockDim.x + threadIdx.x; get_group(0) -> blockIdx.x;
// local_accessor -> __shared__; group_barrier -> __syncthreads(); sycl::fmin/fmax/fabs -> fminf/fmaxf/
// fabsf; the sub-group is the 32-lane warp. The stride loop is written as two loops, split at 32, so
// that the last five steps, the ones the claim is about, have their own lines (marked `measured`).
#include "../common.cuh"

constexpr int WG = 256;

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
  for (int s = 16; s > 0; s >>= 1) {
    __syncthreads();
    if (lid < s) {
      sum[lid] += sum[lid + s];              // measured
      lo[lid] = fminf(lo[lid], lo[lid + s]); // measured
      hi[lid] = fmaxf(hi[lid], hi[lid + s]); // measured
      sq[lid] += sq[lid + s];                // measured
      cube[lid] += cube[lid + s];            // measured
      l1[lid] += l1[lid + s];                // measured
    }
  }
  if (lid == 0) {
    const size_t g = blockIdx.x;
    stats[6 * g] = sum[0];
    stats[6 * g + 1] = lo[0];
    stats[6 * g + 2] = hi[0];
    stats[6 * g + 3] = sq[0];
    stats[6 * g + 4] = cube[0];
    stats[6 * g + 5] = l1[0];
  }
}

int main(int argc, char **argv) {
  const size_t n = size_t(1) << 24;
  float *in = random_floats(n, 9), *stats = poisoned_floats(6 * (n / WG));
  const float ms = median_ms([&] { tile_stats<<<n / WG, WG>>>(in, stats); }, reps_from(argc, argv));
  return report(ms, stats, 6 * (n / WG));
}
