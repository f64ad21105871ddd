// `#if` groups whose arms a parser cannot read together: a directive inside an argument list, and
// arms that each open the same call. kernlint reads such a group one arm at a time (every offset kept),
// so what each arm holds is analysed.
#include <sycl/sycl.hpp>

// The device choice inside the constructor's argument list, the queue rebuilt every step.
void steps(float *out, size_t n, int count) {
  for (int step = 0; step < count; ++step) {
    sycl::queue q( // expect: KL207
#ifdef USE_GPU
        sycl::gpu_selector_v
#else
        sycl::cpu_selector_v
#endif
    );
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = step; }).wait();
  }
}

// Its fixed form: one queue, built before the loop.
void steps_fixed(float *out, size_t n, int count) {
  sycl::queue q(
#ifdef USE_GPU
      sycl::gpu_selector_v
#else
      sycl::cpu_selector_v
#endif
  );
  for (int step = 0; step < count; ++step)
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = step; }).wait(); // expect: KL702
}

// Each arm opens its own launch; the second one's kernel synchronises only the odd work-items.
void filter(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &cgh) {
#if USE_SIMPLE_FILTER
    cgh.parallel_for<class SimpleFilter>(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      out[it.get_global_id(0)] = in[it.get_global_id(0)];
#else
    cgh.parallel_for<class RecursiveFilter>(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      if (it.get_local_id(0) & 1) // expect: KL501
        it.barrier(); // expect: KL502
      out[it.get_global_id(0)] = 0.5f * in[it.get_global_id(0)];
#endif
    });
  });
}
