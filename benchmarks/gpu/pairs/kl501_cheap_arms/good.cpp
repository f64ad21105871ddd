// kernlint-devices: h100
// KL501 cheap arms, good: both values are computed and one is chosen, with no branch. Same output.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void rescale_every_fourth(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const size_t i = it.get_global_id(0);
    const float x = in[i];
    out[i] = i % 4 == 0 ? sycl::sqrt(x) * 3.0f : x;
  });
}
