// CUDA twin of bad.cpp: nd_range<2>({n / 4, n}, {8, 32}) -> grid (n / 32, n / 32), block (32, 8);
// get_local_id(1) -> threadIdx.x, get_local_id(0) -> threadIdx.y; the local_accessor is a __shared__
// array; group_barrier -> __syncthreads.
#include "../common.cuh"

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose(const float *in, float *out, size_t n) {
  __shared__ float tile[TILE][TILE];
  const int lx = threadIdx.x, ly = threadIdx.y;
  const size_t bx = blockIdx.x * size_t(TILE), by = blockIdx.y * size_t(TILE);
  for (int j = 0; j < TILE; j += ROWS)
    tile[ly + j][lx] = in[(by + ly + j) * n + bx + lx];
  __syncthreads();
  for (int j = 0; j < TILE; j += ROWS)
    out[(bx + ly + j) * n + by + lx] = tile[lx][ly + j];
}

int main(int argc, char **argv) {
  const size_t n = 4096;
  float *in = random_floats(n * n, 4), *out = poisoned_floats(n * n);
  const dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  const float ms = median_ms([&] { transpose<<<grid, block>>>(in, out, n); }, reps_from(argc, argv));
  return report(ms, out, n * n);
}
