// Queues constructed inside host loops without an existing context.
#include <sycl/sycl.hpp>
#include <vector>

static void handle_errors(sycl::exception_list errors) {
  for (auto &e : errors) std::rethrow_exception(e);
}

void time_steps(float *u, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
    sycl::queue q; // expect: KL207
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] *= 0.99f; }).wait();
  }
}

void until_converged(float *u, size_t n, const bool *done) {
  while (!*done) {
    sycl::queue q{sycl::gpu_selector_v}; // expect: KL207
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] += 1.0f; }).wait();
  }
}

void batches(std::vector<std::vector<float>> &work) {
  for (auto &batch : work) {
    auto q = sycl::queue(sycl::default_selector_v, sycl::property::queue::in_order{}); // expect: KL207
    float *p = batch.data();
    q.parallel_for(sycl::range<1>(batch.size()), [=](sycl::id<1> i) { p[i] = 0.0f; }).wait();
  }
}

void retries(int *flag) {
  int attempt = 0;
  do {
    sycl::queue *q = new sycl::queue(sycl::gpu_selector_v); // expect: KL207
    q->single_task([=]() { *flag = 1; }).wait();
    delete q;
  } while (++attempt < 3);
}

void with_handler(float *x, size_t n, int reps) {
  for (int r = 0; r < reps; ++r) {
    sycl::queue q(sycl::cpu_selector_v, sycl::async_handler{handle_errors}); // expect: KL207
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 0.0f; }).wait();
  }
}

void profiled(float *x, size_t n, int reps) {
  sycl::device dev{sycl::gpu_selector_v};
  for (int r = 0; r < reps; ++r) {
    sycl::queue q(dev, sycl::property_list{sycl::property::queue::enable_profiling()}); // expect: KL207
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 1.0f; }).wait();
  }
}

void nested(float *x, size_t n, int outer, int inner) {
  for (int o = 0; o < outer; ++o) {
    for (int i = 0; i < inner; ++i) {
      sycl::queue q(sycl::gpu_selector_v, [](sycl::exception_list) {}); // expect: KL207
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> k) { x[k] = float(o + i); }).wait();
    }
  }
}

void for_each_frame(std::vector<float *> &frames, size_t n) {
  for (float *f : frames) {
    sycl::queue(sycl::gpu_selector_v).parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { f[i] = 0.0f; }).wait(); // expect: KL207
  }
}

void in_ifdef(float *x, size_t n, int reps) {
  for (int r = 0; r < reps; ++r) {
#ifdef USE_GPU
    sycl::queue q{sycl::gpu_selector_v}; // expect: KL207
#else
    sycl::queue q{sycl::cpu_selector_v}; // the same queue in the other arm: reported once
#endif
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 2.0f; }).wait();
  }
}

// Near misses ------------------------------------------------------------------------------------

// One queue, created before the loop.
void hoisted(float *u, size_t n, int steps) {
  sycl::queue q{sycl::gpu_selector_v};
  for (int s = 0; s < steps; ++s) q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] *= 0.5f; }).wait(); // expect: KL702
}

// Queues built on one shared context: no new context, no new JIT.
void shared_context(float *u, size_t n, int steps) {
  sycl::device dev{sycl::gpu_selector_v};
  sycl::context ctx = sycl::context(dev);
  sycl::queue main_q(ctx, dev);
  for (int s = 0; s < steps; ++s) {
    sycl::queue q(ctx, dev);
    sycl::queue side(main_q.get_context(), main_q.get_device());
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] += 1.0f; }).wait();
  }
}

// A copy of an existing queue shares its context.
void copies(sycl::queue &base, float *u, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
    sycl::queue q = base;
    sycl::queue same(base);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] = 0.0f; }).wait();
  }
}

// One queue per device is what multi-device code needs; the device comes from the loop.
void per_device(std::vector<sycl::device> &devices, float *u, size_t n) {
  for (auto &dev : devices) {
    sycl::queue q(dev);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] = 1.0f; }).wait();
  }
}

// A helper that builds its own queue, called from a loop: not seen through the call.
void once(float *u, size_t n) {
  sycl::queue q;
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] = 3.0f; }).wait();
}
void calls_in_loop(float *u, size_t n, int reps) {
  for (int r = 0; r < reps; ++r) once(u, n);
}

// A reference to a queue is not a construction.
void reference(sycl::queue &outer, float *u, size_t n, int reps) {
  for (int r = 0; r < reps; ++r) {
    sycl::queue &q = outer;
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { u[i] = 4.0f; }).wait(); // expect: KL702
  }
}
