// Work-group sizes that are not their initialiser: set element-wise, filled by a helper, or chosen by
// an #ifdef the build decides. None is known, so none is reported.
#include <sycl/sycl.hpp>

static void pick_local(sycl::range<3> &local, int wide) { local[2] = wide ? 256 : 64; }
static size_t total(const sycl::range<3> &r) { return r[0] * r[1] * r[2]; }

void stencil(sycl::queue &q, float *a, int wide) {
  sycl::range<3> global(1, 8, 4096);
  sycl::range<3> local(1, 1, 1);
  local[2] = 128;  // the real size is written after the declaration
  q.parallel_for(sycl::nd_range<3>(global, local), [=](sycl::nd_item<3> it) {
    a[it.get_global_linear_id()] *= 2.0f;
  });

  sycl::range<3> tuned(1, 1, 1);
  pick_local(tuned, wide);  // filled through a non-const reference
  q.parallel_for(sycl::nd_range<3>(global, tuned), [=](sycl::nd_item<3> it) {
    a[it.get_global_linear_id()] += 1.0f;
  });

  int block = 1;
  block += 31;  // compound assignment: not the initialiser either
  q.parallel_for(sycl::nd_range<1>(4096, block), [=](sycl::nd_item<1> it) { a[it.get_global_id(0)] = 0.0f; });

#ifdef USE_GPU
  const int group = 256;
#else
  const int group = 1;  // the host build's size is not the GPU's
#endif
  q.parallel_for(sycl::nd_range<1>(65536, group), [=](sycl::nd_item<1> it) { a[it.get_global_id(0)] -= 1.0f; });

  // Read through a const reference only: the size stays known.
  sycl::range<3> rows(1, 1, 64);
  (void)total(rows);
  q.parallel_for(sycl::nd_range<3>(sycl::range<3>(1, 1, 1000001), rows), [=](sycl::nd_item<3> it) { // expect: KL208
    a[it.get_global_linear_id()] *= 0.5f;
  });
}
