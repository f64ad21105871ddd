// kernlint-devices: h100
// KL501 heavy arms with shrinking lanes, good: the tree stops at the warp size and the first warp
// finishes each statistic with a sub-group reduction (shuffles, all lanes busy). Same statistics, up to
// the order of the additions.
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
      for (int s = WG / 2; s >= 32; s >>= 1) {
        sycl::group_barrier(it.get_group());
        if (lid < s) {
          sum[lid] += sum[lid + s];
          lo[lid] = sycl::fmin(lo[lid], lo[lid + s]);
          hi[lid] = sycl::fmax(hi[lid], hi[lid + s]);
          sq[lid] += sq[lid + s];
          cube[lid] += cube[lid + s];
          l1[lid] += l1[lid + s];
        }
      }
      sycl::group_barrier(it.get_group());
      if (lid < 32) {
        const sycl::sub_group sg = it.get_sub_group();
        const float total = sycl::reduce_over_group(sg, sum[lid], sycl::plus<>());
        const float low = sycl::reduce_over_group(sg, lo[lid], sycl::minimum<>());
        const float high = sycl::reduce_over_group(sg, hi[lid], sycl::maximum<>());
        const float squares = sycl::reduce_over_group(sg, sq[lid], sycl::plus<>());
        const float cubes = sycl::reduce_over_group(sg, cube[lid], sycl::plus<>());
        const float norm = sycl::reduce_over_group(sg, l1[lid], sycl::plus<>());
        if (lid == 0) {
          const size_t g = it.get_group(0);
          stats[6 * g] = total;
          stats[6 * g + 1] = low;
          stats[6 * g + 2] = high;
          stats[6 * g + 3] = squares;
          stats[6 * g + 4] = cubes;
          stats[6 * g + 5] = norm;
        }
      }
    });
  });
}
