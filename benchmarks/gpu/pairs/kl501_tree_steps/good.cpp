// kernlint-devices: h100
// KL501 cheap arms with shrinking lanes, good: the tree stops at the warp size and the last 32 values are
// summed by a sub-group reduction (shuffles, all lanes busy). Same sums, up to the order of additions.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void tile_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      for (int s = WG / 2; s >= 32; s >>= 1) {
        sycl::group_barrier(it.get_group());
        if (lid < s)
          tile[lid] += tile[lid + s];
      }
      sycl::group_barrier(it.get_group());
      if (lid < 32) {
        const float total = sycl::reduce_over_group(it.get_sub_group(), tile[lid], sycl::plus<>());
        if (lid == 0)
          sums[it.get_group(0)] = total;
      }
    });
  });
}
