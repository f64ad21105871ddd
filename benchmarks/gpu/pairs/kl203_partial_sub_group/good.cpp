// kernlint-devices: h100
// KL203, good: 128 work-items per work-group, 4 full warps; the same work in fewer warps.
// Each work-item runs a fixed chain of multiply-adds on its element, so every warp executes the same
// instructions and the partial warp's idle lanes are the only difference. n is a multiple of 12,800.
#include <sycl/sycl.hpp>

constexpr int WG = 128;
constexpr int STEPS = 256;

void relax(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    float x = in[i];
    for (int k = 0; k < STEPS; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  });
}
