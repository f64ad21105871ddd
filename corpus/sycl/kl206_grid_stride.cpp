// kernlint-devices: xe-hpc h100
// A fixed grid that loops over its data (grid-stride) is small by choice: sizing it from the device
// fills the GPU, and KL206 warns. A launch as large as its problem (one item per work-item, here a
// last reduction stage over 64 partial sums) is small by design, an info.
#include <sycl/sycl.hpp>

constexpr size_t GRID = 16 * 256;

void scale_all(sycl::queue &q, float *v, size_t n, float a) {
  q.parallel_for(sycl::nd_range<1>(GRID, 256), [=](sycl::nd_item<1> it) { // expect: KL206 (warning, grid-stride)
    const size_t stride = it.get_global_range(0);
    for (size_t i = it.get_global_id(0); i < n; i += stride)
      v[i] *= a;
  });
}

void sum_blocks(sycl::queue &q, const float *v, float *partial, size_t n) {
  q.parallel_for(sycl::nd_range<1>(64 * 128, 128), [=](sycl::nd_item<1> it) { // expect: KL206 (warning, grid-stride)
    float acc = 0.0f;
    for (size_t i = it.get_global_id(0); i < n; i += it.get_group_range(0) * it.get_local_range(0))
      acc += v[i];
    partial[it.get_global_id(0)] = sycl::reduce_over_group(it.get_group(), acc, sycl::plus<float>());
  });
}

void last_stage(sycl::queue &q, const float *partial, float *total) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) { // expect: KL206 (info, one-item-per-work-item)
    const float s = sycl::reduce_over_group(it.get_group(), partial[it.get_local_id(0)], sycl::plus<float>());
    if (it.get_local_id(0) == 0)
      *total = s;
  });
}

// One work-group striding over the partial sums: a final stage whose size is the algorithm's.
void final_sum(sycl::queue &q, const float *partial, float *total, size_t blocks) {
  q.parallel_for(sycl::nd_range<1>(256, 256), [=](sycl::nd_item<1> it) { // expect: KL206 (info, single-work-group)
    float acc = 0.0f;
    for (size_t i = it.get_local_id(0); i < blocks; i += 256)
      acc += partial[i];
    acc = sycl::reduce_over_group(it.get_group(), acc, sycl::plus<float>());
    if (it.get_local_id(0) == 0)
      *total = acc;
  });
}
