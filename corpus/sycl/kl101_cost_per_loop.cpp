// KL101 with every input of its cost known: the buffer's extent and element type are constants and
// the loop runs a constant number of times, so the finding states the copies per iteration and per loop.
#include <sycl/sycl.hpp>
#include <vector>

constexpr int kSteps = 100;
constexpr size_t kPoints = 4096;

void relax(sycl::queue &q, std::vector<float> &field) {
  for (int step = 0; step < kSteps; ++step) {
    sycl::buffer<float, 1> grid(field.data(), sycl::range<1>(kPoints)); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor g(grid, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(kPoints), [=](sycl::id<1> i) { g[i] = 0.5f * g[i]; });
    });
  }
}
