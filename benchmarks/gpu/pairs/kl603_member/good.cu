// CUDA twin of good.cpp (see bad.cu): the masses in an array of their own. The values are other
// random numbers than bad.cu's fourth members, so the checksums differ.
#include "../common.cuh"

__global__ void scale_masses(const float *mass, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  out[i] = 2.0f * mass[i];
}

int main(int argc, char **argv) {
  const size_t n = 1 << 24;
  float *mass = random_floats(n, 5), *out = poisoned_floats(n);
  const float ms = median_ms([&] { scale_masses<<<n / 256, 256>>>(mass, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
