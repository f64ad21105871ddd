// kernlint-devices: h100
// KL501 heavy arms with shrinking lanes, bad: a tree over six statistics of a tile in local memory.
// While the stride is 32 or more whole warps drop out together; in the last five steps (stride 16, 8,
// 4, 2, 1) one warp runs the six updates with 16, 8, 4, 2 and then 1 of its 32 lanes busy: 31 of 160
// lane-steps (19.4 %). The arm is long enough that the compiler branches around it.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void tile_stats(sycl::queue &q, const float *in, float *stats, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> sum(WG, h), lo(WG, h), hi(WG, h), sq(WG, h), cube(WG, h), l1(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      const float x = in[it.get_global_id(0)];
      sum[lid] = x;
      lo[lid] = x;
      hi[lid] = x;
      sq[lid] = x * x;
      cube[lid] = x * x * x;
      l1[lid] = sycl::fabs(x);
      for (int s = WG / 2; s > 0; s >>= 1) {
        sycl::group_barrier(it.get_group());
        if (lid < s) { // expect: KL501
          sum[lid] += sum[lid + s];
          lo[lid] = sycl::fmin(lo[lid], lo[lid + s]);
          hi[lid] = sycl::fmax(hi[lid], hi[lid + s]);
          sq[lid] += sq[lid + s];
          cube[lid] += cube[lid + s];
          l1[lid] += l1[lid + s];
        }
      }
      if (lid == 0) {
        const size_t g = it.get_group(0);
        stats[6 * g] = sum[0];
        stats[6 * g + 1] = lo[0];
        stats[6 * g + 2] = hi[0];
        stats[6 * g + 3] = sq[0];
        stats[6 * g + 4] = cube[0];
        stats[6 * g + 5] = l1[0];
      }
    });
  });
}
