// Queues in loops that are not rebuilt per iteration: arrays of queues, loops that run once.
#include <sycl/sycl.hpp>
#include <vector>

constexpr int kStreams = 4;

// One in-order queue per stream, on purpose: reported as information, with one shared context advised.
void streams(float *x, size_t n) {
  sycl::queue pool[kStreams];
  for (int s = 0; s < kStreams; ++s) {
    pool[s] = sycl::queue(sycl::gpu_selector_v, sycl::property::queue::in_order()); // expect: KL207
  }
  for (int s = 0; s < kStreams; ++s)
    pool[s].parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] += 1.0f; });
}

void streams_in_vector(std::vector<sycl::queue> &qs) {
  for (int s = 0; s < kStreams; ++s) qs.push_back(sycl::queue(sycl::gpu_selector_v)); // expect: KL207
}

// The same array, built from one context: nothing to say.
void streams_shared(float *x, size_t n) {
  sycl::device dev{sycl::gpu_selector_v};
  sycl::context ctx{dev};
  std::vector<sycl::queue> qs;
  for (int s = 0; s < kStreams; ++s) qs.push_back(sycl::queue(ctx, dev, sycl::property::queue::in_order()));
  qs[0].parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 0.0f; }).wait();
}

// A loop with one iteration (a leftover parameter sweep) and a do-while(0) macro body run once.
#define RUN_ONCE(body) do { body } while (0)
void single_pass(float *x, size_t n) {
  const int sizes[] = {1024};
  for (int k = 0; k < 1; ++k) {
    sycl::queue q{sycl::gpu_selector_v};
    q.parallel_for(sycl::range<1>(n + sizes[k] * 0), [=](sycl::id<1> i) { x[i] = 1.0f; }).wait();
  }
  do {
    sycl::queue q{sycl::gpu_selector_v};
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 2.0f; }).wait();
  } while (0);
}

// A loop of one iteration inside a repeated loop still repeats.
void single_inside_repeat(float *x, size_t n, int reps) {
  for (int r = 0; r < reps; ++r) {
    for (int k = 0; k < 1; ++k) {
      sycl::queue q{sycl::gpu_selector_v}; // expect: KL207
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 3.0f; }).wait();
    }
  }
}
