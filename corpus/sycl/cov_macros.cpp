// Code behind attribute macros, which a parser of unpreprocessed text cannot read as written:
// migration-tool and CUDA-compatible spellings, and a project's own attribute macro. kernlint expands
// them in place (blanks, keeping every column), so the helper below is analysed as the kernel's code.
#include <sycl/sycl.hpp>

#define MYLIB_INLINE inline __attribute__((always_inline))

struct __dpct_align__(16) Pair {
  float first, second;
};

__dpct_inline__ float blend(float a, float b, float t) { return a + (b - a) * t; }

SYCL_EXTERNAL __forceinline__ float clamp01(float v) { return sycl::fmin(sycl::fmax(v, 0.0f), 1.0f); }

MYLIB_INLINE void stage(float *__restrict__ tile, const float *__restrict in, const sycl::nd_item<1> &it) {
  const size_t lid = it.get_local_id(0);
  tile[lid] = in[it.get_global_id(0)];
  if (lid % 2 == 0) // expect: KL501
    it.barrier(sycl::access::fence_space::local_space); // expect: KL502
}

__device__ __host__ inline float square(float x) { return x * x; }

void run(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(128), cgh);
    cgh.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      stage(&tile[0], in, it);
      out[it.get_global_id(0)] = square(clamp01(blend(tile[127 - lid], 1.0f, 0.5f)));
    });
  });
}
