// kernlint-devices: h100
// KL501 serial leader, bad: after the tile is staged in local memory, work-item 0 sums all 256 values
// alone while the other 31 lanes of its warp idle: 1 of 32 lanes (3.1 %) busy in the loop.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void tile_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const size_t lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      if (lid == 0) { // expect: KL501
        float total = 0.0f;
        for (int k = 0; k < WG; ++k)
          total += tile[k];
        sums[it.get_group(0)] = total;
      }
    });
  });
}
