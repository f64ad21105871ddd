// A project macro kernlint cannot see (defined by the build, or in a header it does not find): the
// line it stands on does not parse, and kernlint says so once for the file, naming the lines and the
// word that reads as the macro, so the user can name it in the `macros` configuration key.
#include <sycl/sycl.hpp>

MYLIB_API MYLIB_NODISCARD float saturate(float v) { return sycl::fmin(sycl::fmax(v, 0.0f), 1.0f); } // expect: KL000

void run(sycl::queue &q, float *data, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) < 8)
      it.barrier(); // expect: KL502
    data[it.get_global_id(0)] = saturate(data[it.get_global_id(0)]);
  });
}
