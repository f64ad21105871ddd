// CUDA twin of bad.cpp: `target` + `parallel for` without `teams` -> one team = one block (<<<1, 256>>>,
// 256 threads as a runtime's default team); `parallel for` shares i among the team's threads (a
// block-stride loop). The data is already on the device (the twins time the kernel, not the maps).
#include "../common.cuh"

constexpr int THREADS = 256;
constexpr int STEPS = 256;

__global__ void relax(const float *in, float *out, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
    float x = in[i];
    for (int k = 0; k < STEPS; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  }
}

int main(int argc, char **argv) {
  const size_t n = 1 << 18;
  float *in = random_floats(n, 1), *out = poisoned_floats(n);
  const float ms = median_ms([&] { relax<<<1, THREADS>>>(in, out, n); }, reps_from(argc, argv));
  return report(ms, out, n);
}
