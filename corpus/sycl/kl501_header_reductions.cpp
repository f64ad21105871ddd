// Launches of the reduction kernels that `kl501_header_reductions.hpp` defines: the branches that
// diverge are reported in the header, where they are written, not here.
#include <sycl/sycl.hpp>
#include "kl501_header_reductions.hpp"

constexpr int kBlock = 256;

void reduce_all(sycl::queue &q, const float *x, const int *flags, float *maxima, float *squares, int *counts,
                float *minima, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(kBlock), h);
    h.parallel_for(sycl::nd_range<1>(n, kBlock), [=](sycl::nd_item<1> item) {
      block_max<kBlock>(x, maxima, &scratch[0], item);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(kBlock), h);
    h.parallel_for(sycl::nd_range<1>(n, kBlock), BlockSquares{x, squares, scratch});
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(sycl::range<1>(kBlock), h);
    h.parallel_for(sycl::nd_range<1>(n, kBlock), make_block_count(flags, counts, scratch));
  });
  q.parallel_for(sycl::nd_range<1>(n, kBlock), [=](sycl::nd_item<1> item) { block_min(x, minima, item); });
}
