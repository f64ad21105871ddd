// kernlint-devices: h100
// KL501 heavy arms, good: the first half of the range updates the even elements and the second half the
// odd ones, so the two kinds of work fall to different warps and no warp diverges. Same output as bad.cpp.
#include <sycl/sycl.hpp>

constexpr int WG = 256;
constexpr int STEPS = 256;

void settle(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const size_t i = it.get_global_id(0);
    const size_t half = n / 2;
    const size_t e = i < half ? 2 * i : 2 * (i - half) + 1;
    float x = in[e];
    if (i < half) {
      for (int k = 0; k < STEPS; ++k)
        x = x * 0.99f + 0.01f;
    } else {
      for (int k = 0; k < STEPS; ++k)
        x = x * 0.98f - 0.02f;
    }
    out[e] = x;
  });
}
