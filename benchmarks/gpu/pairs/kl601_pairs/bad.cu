// CUDA twin of bad.cpp: nd_range<1>(n, 256) -> <<<n / 256, 256>>>. `pairs` is a float pointer the
// compiler knows only 4-byte alignment of, so the two reads stay two 4-byte loads, as in the SYCL form
// (cudaMalloc's alignment puts each warp's 256 bytes on sector boundaries).
#include "../common.cuh"

__global__ void magnitudes(const float *pairs, float *mag) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const float re = pairs[2 * i];
  const float im = pairs[2 * i + 1];
  mag[i] = re * re + im * im;
}

int main(int argc, char **argv) {
  const size_t n = 1 << 24;
  float *pairs = random_floats(2 * n, 2), *mag = poisoned_floats(n);
  const float ms = median_ms([&] { magnitudes<<<n / 256, 256>>>(pairs, mag); }, reps_from(argc, argv));
  return report(ms, mag, n);
}
