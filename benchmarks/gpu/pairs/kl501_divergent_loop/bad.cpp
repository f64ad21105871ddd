// kernlint-devices: h100
// KL501 divergent loop, bad: a running sum over a tile in local memory where work-item lid adds up
// elements 0..lid itself, so its trip count is lid + 1: the lanes of a warp leave the loop one
// iteration apart, and each warp runs as long as its last lane.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void running_sums(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      float sum = 0.0f;
      for (int k = 0; k <= lid; ++k) // expect: KL501
        sum += tile[k];
      out[it.get_global_id(0)] = sum;
    });
  });
}
