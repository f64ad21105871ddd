// kernlint-devices: h100
// KL202, good: 256 work-items per work-group: 8 blocks of 8 warps fill all 64 warp slots of an SM.
// Each work-group relaxes its tile in local memory: every step averages each element with its pair
// partner (lid ^ 1), between two barriers. The result does not depend on the work-group size.
#include <sycl/sycl.hpp>

constexpr int WG = 256;
constexpr int STEPS = 32;

void relax_pairs(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      const size_t gid = it.get_global_id(0);
      tile[lid] = in[gid];
      for (int k = 0; k < STEPS; ++k) {
        sycl::group_barrier(it.get_group());
        const float next = 0.5f * (tile[lid] + tile[lid ^ 1]) + 0.001f * k;
        sycl::group_barrier(it.get_group());
        tile[lid] = next;
      }
      out[gid] = tile[lid];
    });
  });
}
