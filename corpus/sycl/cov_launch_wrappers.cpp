// Kernels handed to launch wrappers, and launched through SYCL's free functions (the enqueue-functions
// extension): the lambda is written at the wrapper's call, the launch itself inside the wrapper.
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

// A project's launch helper: it owns the command group, the caller brings the kernel.
template <typename Name, typename Kernel>
void launch_1d(sycl::queue &q, size_t n, size_t wg, const Kernel &kernel) {
  q.submit([&](sycl::handler &cgh) { cgh.parallel_for<Name>(sycl::nd_range<1>(n, wg), kernel); });
}

// A wrapper with a fixed, too large work-group: reported once, at its launch.
template <typename Kernel>
void launch_wide(sycl::queue &q, size_t n, Kernel kernel) {
  q.parallel_for(sycl::nd_range<1>(n * 2048, 2048), kernel); // expect: KL201
}

class ReduceBad;
class ReduceGood;
class Histogram;

void reduce(sycl::queue &q, const int *in, int *out, size_t n) {
  // Bad: the leader waits at a barrier the other work-items never reach.
  launch_1d<ReduceBad>(q, n, 128, [=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) == 0) {
      it.barrier(); // expect: KL502
      out[it.get_group(0)] = in[it.get_global_id(0)];
    }
  });
  // Good: all work-items synchronise, then the leader writes.
  launch_1d<ReduceGood>(q, n, 128, [=](sycl::nd_item<1> it) {
    it.barrier();
    if (it.get_local_id(0) == 0)
      out[it.get_group(0)] = in[it.get_global_id(0)];
  });
  // A kernel stored first, then handed to the wrapper by name.
  auto histogram = [=](sycl::nd_item<1> it) {
    const int bin = in[it.get_global_id(0)] & 15;
    if (it.get_local_id(0) < 16)
      sycl::group_barrier(it.get_group()); // expect: KL502
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> slot(out[bin]);
    slot += 1;
  };
  launch_1d<Histogram>(q, n, 64, histogram);
  launch_wide(q, n, [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 0; });
}

// The enqueue-functions extension: the queue is the first argument, the kernel the third.
void scale(sycl::queue &q, float *data, size_t n) {
  syclex::parallel_for(q, sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
    if (lid >= 128)
      return;
    sycl::group_barrier(it.get_group()); // expect: KL502
    data[it.get_global_id(0)] *= 2.0f;
  });
  syclex::nd_launch(q, sycl::nd_range<1>(n, 3000), [=](sycl::nd_item<1> it) { // expect: KL201
    data[it.get_global_id(0)] += 1.0f;
  });
  syclex::single_task(q, [=]() { data[0] = 0.0f; });
}
