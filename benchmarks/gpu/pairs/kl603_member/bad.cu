// CUDA twin of bad.cpp: nd_range<1>(n, 256) -> <<<n / 256, 256>>>; the particles are 4 floats each,
// laid out as the SYCL struct (16 bytes), of which the kernel reads the fourth.
#include "../common.cuh"

struct Particle {
  float x, y, z;
  float mass;
};

__global__ void scale_masses(const Particle *p, float *out) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  out[i] = 2.0f * p[i].mass;
}

int main(int argc, char **argv) {
  const size_t n = 1 << 24;
  const Particle *p = reinterpret_cast<const Particle *>(random_floats(4 * n, 5));
  float *out = poisoned_floats(n);
  const float ms = median_ms([&] { scale_masses<<<n / 256, 256>>>(p, out); }, reps_from(argc, argv));
  return report(ms, out, n);
}
