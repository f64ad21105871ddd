// kernlint-frontend: clang
// Work-group and sub-group sizes computed by constexpr functions and static members: the values
// only a compiler evaluates.
#include <sycl/sycl.hpp>

template <typename T> constexpr size_t tile_bytes() { return 64 * 1024; }
template <typename T> constexpr size_t work_group_for() { return tile_bytes<T>() / sizeof(T); }

struct narrow_config {
  static constexpr int simd() { return 2 * 4; }
  static constexpr size_t group = 256;
};

void too_large(sycl::queue &q, float *x, size_t n) {
  // 65536 / 4 = 16384 work-items in a work-group.
  q.parallel_for(sycl::nd_range<1>(n, work_group_for<float>()), [=](sycl::nd_item<1> it) { // expect: KL201
    x[it.get_global_id(0)] += 1.0f;
  });
}

void narrow(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, narrow_config::group),
                 [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(narrow_config::simd())]] { // expect: KL204
                   x[it.get_global_id(0)] *= 2.0f;
                 });
}
