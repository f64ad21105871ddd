// kernlint-frontend: clang
// The build (compile_commands.json beside this file) compiles it without -DSMALL_GROUPS: the
// `#else` arm is the one built, so a work-group of 2048 work-items is launched: more than the
// device allows. Only clang, reading the build's flags, can tell; tree-sitter leaves the arm
// unknown. ../policy_default_flags.cpp is the same kernel read with default flags.
#include <sycl/sycl.hpp>

#ifdef SMALL_GROUPS
#define GROUP 256
#else
#define GROUP 2048
#endif

constexpr size_t rows_per_group = GROUP / 32;

void scale(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, GROUP), [=](sycl::nd_item<1> it) { // expect: KL201
    x[it.get_global_id(0)] *= 2.0f;
  });
}

void scale_rows(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<2>({n, 32 * rows_per_group}, {1, 32 * rows_per_group}), [=](sycl::nd_item<2> it) { // expect: KL201
    x[it.get_global_id(0)] *= 2.0f;
  });
}
