// kernlint-devices: h100
// KL601, short chunks: each work-item sums its own 8 floats (32 bytes), so at every step the 32 lanes of a
// warp read elements 32 bytes apart: one sector per lane, 32 sectors per warp-wide load for 4 useful. But
// each lane's whole run lies in the sector its first step fetched: the later steps find it in the cache.
#include <sycl/sycl.hpp>

constexpr int COLS = 8;

void row_sums(sycl::queue &q, const float *m, float *sums, size_t rows) {
  q.parallel_for(sycl::nd_range<1>(rows, 256), [=](sycl::nd_item<1> it) {
    const size_t r = it.get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < COLS; ++k)
      acc += m[r * COLS + k]; // expect: KL601
    sums[r] = acc;
  });
}
