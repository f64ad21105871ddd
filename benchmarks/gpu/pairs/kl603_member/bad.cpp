// kernlint-devices: h100
// KL603, bad: particles stored as an array of 16-byte structs and the kernel reads one member: the
// lanes of a warp read floats 16 bytes apart, 512 bytes, 16 sectors where the 128 bytes they use fill 4.
#include <sycl/sycl.hpp>

struct Particle {
  float x, y, z;
  float mass;
};

void scale_masses(sycl::queue &q, const Particle *p, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    out[i] = 2.0f * p[i].mass; // expect: KL603
  });
}
