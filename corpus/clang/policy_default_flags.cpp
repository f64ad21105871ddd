// kernlint-frontend: clang
// No compile_commands.json reaches this file, so it is read with kernlint's default flags. Which arm
// of `#ifdef SMALL_GROUPS` the build takes is then unknown: clang would pick the `#else` (nobody
// defined the macro here), but that is a guess about the build, so the work-group size stays unknown
// and no KL201 is reported. policy_build/ holds the same kernel with a compile database.
#include <sycl/sycl.hpp>

#ifdef SMALL_GROUPS
#define GROUP 256
#else
#define GROUP 2048
#endif

constexpr size_t rows_per_group = GROUP / 32;

void scale(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, GROUP), [=](sycl::nd_item<1> it) {
    x[it.get_global_id(0)] *= 2.0f;
  });
}

void scale_rows(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<2>({n, 32 * rows_per_group}, {1, 32 * rows_per_group}), [=](sycl::nd_item<2> it) {
    x[it.get_global_id(0)] *= 2.0f;
  });
}
