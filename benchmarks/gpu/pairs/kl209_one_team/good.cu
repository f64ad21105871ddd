// CUDA twin of good.cpp: `target teams distribute parallel for` -> a block per team, n / 256 blocks of
// 256 threads, each thread one iteration (what a runtime does for a loop this long).
#include "../common.cuh"

constexpr int THREADS = 256;
constexpr int STEPS = 256;

__global__ void relax(const float *in, float *out, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    float x = in[i];
    for (int k = 0; k < STEPS; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  }
}

int main(int argc, char **argv) {
  const size_t n = 1 << 18;
  float *in = random_floats(n, 1), *out = poisoned_floats(n);
  const float ms = median_ms([&] { relax<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n); }, reps_from(argc, argv));
  return report(ms, out, n);
}
