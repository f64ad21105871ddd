// kernlint-devices: h100
// KL501 divergent loop, good: the running sums of the work-group computed together by the group scan;
// no work-item loops. Same sums, up to the order of the additions.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void running_sums(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const float x = in[it.get_global_id(0)];
    out[it.get_global_id(0)] = sycl::inclusive_scan_over_group(it.get_group(), x, sycl::plus<>());
  });
}
