// kernlint-devices: h100
// KL203, bad: 100 work-items per work-group run as 4 warps of 32 lanes; the last warp has 4 busy lanes
// and 28 idle ones in every instruction: 28 of 128 lanes (21.9 %) idle.
// Each work-item runs a fixed chain of multiply-adds on its element, so every warp executes the same
// instructions and the partial warp's idle lanes are the only difference. n is a multiple of 12,800.
#include <sycl/sycl.hpp>

constexpr int WG = 100;
constexpr int STEPS = 256;

void relax(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) { // expect: KL203
    const size_t i = it.get_global_id(0);
    float x = in[i];
    for (int k = 0; k < STEPS; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  });
}
