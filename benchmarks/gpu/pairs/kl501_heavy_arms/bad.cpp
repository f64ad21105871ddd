// kernlint-devices: h100
// KL501 heavy arms, bad: even and odd work-items take different multi-step updates, so every warp runs
// both loops one after the other, each with 16 of its 32 lanes busy (50 %).
#include <sycl/sycl.hpp>

constexpr int WG = 256;
constexpr int STEPS = 256;

void settle(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const size_t i = it.get_global_id(0);
    float x = in[i];
    if (i % 2 == 0) { // expect: KL501
      for (int k = 0; k < STEPS; ++k)
        x = x * 0.99f + 0.01f;
    } else {
      for (int k = 0; k < STEPS; ++k)
        x = x * 0.98f - 0.02f;
    }
    out[i] = x;
  });
}
