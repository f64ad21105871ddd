// kernlint-devices: h100
// KL603, good: the masses in an array of their own (a struct of arrays): unit stride, 4 sectors a load.
#include <sycl/sycl.hpp>

void scale_masses(sycl::queue &q, const float *mass, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    out[i] = 2.0f * mass[i];
  });
}
