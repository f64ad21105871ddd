// kernlint-devices: h100
// KL501 cheap arms, bad: every fourth element is rescaled under a branch; the arm is one statement, and
// 8 of each warp's 32 lanes (25 %) take it.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void rescale_every_fourth(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const size_t i = it.get_global_id(0);
    float x = in[i];
    if (i % 4 == 0) // expect: KL501
      x = sycl::sqrt(x) * 3.0f;
    out[i] = x;
  });
}
