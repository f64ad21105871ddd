// CUDA twin of good.cpp (see bad.cu): the parts in two arrays, read at unit stride. The inputs are
// other random values than bad.cu's, so the checksums differ.
#include "../common.cuh"

__global__ void magnitudes(const float *re, const float *im, float *mag) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  mag[i] = re[i] * re[i] + im[i] * im[i];
}

int main(int argc, char **argv) {
  const size_t n = 1 << 24;
  float *re = random_floats(n, 2), *im = random_floats(n, 3), *mag = poisoned_floats(n);
  const float ms = median_ms([&] { magnitudes<<<n / 256, 256>>>(re, im, mag); }, reps_from(argc, argv));
  return report(ms, mag, n);
}
