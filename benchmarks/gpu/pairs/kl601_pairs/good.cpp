// kernlint-devices: h100
// KL601, good: the real and imaginary parts in two arrays (a struct of arrays): unit stride.
#include <sycl/sycl.hpp>

void magnitudes(sycl::queue &q, const float *re, const float *im, float *mag, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    mag[i] = re[i] * re[i] + im[i] * im[i];
  });
}
