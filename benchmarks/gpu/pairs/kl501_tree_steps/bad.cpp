// kernlint-devices: h100
// KL501 cheap arms with shrinking lanes, bad: a tree sum in local memory. While the stride is 32 or more
// whole warps drop out together; in the last five steps (stride 16, 8, 4, 2, 1) one warp runs the
// add with 16, 8, 4, 2 and then 1 of its 32 lanes busy: 31 of 160 lane-steps (19.4 %).
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void tile_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      for (int s = WG / 2; s > 0; s >>= 1) {
        sycl::group_barrier(it.get_group());
        if (lid < s) // expect: KL501
          tile[lid] += tile[lid + s];
      }
      if (lid == 0)
        sums[it.get_group(0)] = tile[0];
    });
  });
}
