// kernlint-devices: h100
// KL601, bad: complex numbers stored as (re, im) pairs and each lane reads its own pair with two loads:
// each warp-wide load touches floats 8 bytes apart, 256 bytes, 8 sectors where its 128 bytes fill 4.
#include <sycl/sycl.hpp>

void magnitudes(sycl::queue &q, const float *pairs, float *mag, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    const float re = pairs[2 * i];     // expect: KL601
    const float im = pairs[2 * i + 1]; // folded into line 9 (one finding for the pair)
    mag[i] = re * re + im * im;
  });
}
