// kernlint-devices: h100
// KL501 serial leader, good: the work-group sums its values together (reduce_over_group) and work-item 0
// only publishes the result. Same sums as bad.cpp, up to the order of the additions.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void tile_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const float total = sycl::reduce_over_group(it.get_group(), in[it.get_global_id(0)], sycl::plus<>());
    if (it.get_local_id(0) == 0)
      sums[it.get_group(0)] = total;
  });
}
