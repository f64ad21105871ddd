// Buffers a setup loop builds to keep: one per device, per level or per input, stored for the
// iterations that follow. Nothing is rebuilt per iteration, so KL101 stays silent; the buffer the time
// loop builds and drops each step is the one that costs a copy every iteration.
#include <sycl/sycl.hpp>
#include <memory>
#include <vector>

struct Level {
  std::vector<float> coarse;
  int n;
};

void multigrid(sycl::queue &q, std::vector<Level> &levels, float *fine, int n, int cycles) {
  std::vector<sycl::buffer<float, 1>> grids;
  std::vector<std::unique_ptr<sycl::buffer<float, 1>>> owned;
  sycl::buffer<float, 1> *residual[16];
  for (size_t l = 0; l < levels.size(); ++l) {
    grids.push_back(sycl::buffer<float, 1>(levels[l].coarse.data(), sycl::range<1>(levels[l].n)));
    owned.push_back(std::make_unique<sycl::buffer<float, 1>>(sycl::range<1>(levels[l].n)));
    residual[l] = new sycl::buffer<float, 1>(sycl::range<1>(levels[l].n));
    sycl::buffer<float, 1> correction(levels[l].coarse.data(), sycl::range<1>(levels[l].n));
    grids.push_back(correction);
  }
  for (int c = 0; c < cycles; ++c) {
    sycl::buffer<float, 1> top(fine, sycl::range<1>(n)); // expect: KL101 (warning)
    q.submit([&](sycl::handler &h) {
      sycl::accessor t(top, h, sycl::read_write);
      sycl::accessor g(grids[0], h, sycl::read_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { t[i] += g[i % 4]; });
    });
  }
  for (size_t l = 0; l < levels.size(); ++l)
    delete residual[l];
}
