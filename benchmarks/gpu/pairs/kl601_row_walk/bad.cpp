// kernlint-devices: h100
// KL601, bad: each work-item sums its own row of a row-major matrix, so at every step the 32 lanes of
// a warp read elements a row (64 floats, 256 bytes) apart: one 32-byte sector per lane, 32 sectors per
// warp-wide load where the 128 bytes it uses would fill 4. The row sums are the kernel's only loads.
#include <sycl/sycl.hpp>

constexpr int COLS = 64;

void row_sums(sycl::queue &q, const float *m, float *sums, size_t rows) {
  q.parallel_for(sycl::nd_range<1>(rows, 256), [=](sycl::nd_item<1> it) {
    const size_t r = it.get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < COLS; ++k)
      acc += m[r * COLS + k]; // expect: KL601
    sums[r] = acc;
  });
}
