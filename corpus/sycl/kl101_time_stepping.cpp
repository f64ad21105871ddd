// Heat diffusion on a 1-D rod: the classic "buffer per time step" mistake and its fix.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kCells = 1 << 16;

void diffuse_slow(sycl::queue &q, std::vector<float> &temp, int steps) {
  for (int step = 0; step < steps; ++step) {
    sycl::buffer<float, 1> rod(temp.data(), sycl::range<1>(kCells)); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor t(rod, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(kCells - 2), [=](sycl::id<1> i) {
        const size_t c = i[0] + 1;
        t[c] = 0.25f * t[c - 1] + 0.5f * t[c] + 0.25f * t[c + 1];
      });
    });
  }
}

void diffuse_fast(sycl::queue &q, std::vector<float> &temp, int steps) {
  sycl::buffer<float, 1> rod(temp.data(), sycl::range<1>(kCells));
  for (int step = 0; step < steps; ++step) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor t(rod, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(kCells - 2), [=](sycl::id<1> i) {
        const size_t c = i[0] + 1;
        t[c] = 0.25f * t[c - 1] + 0.5f * t[c] + 0.25f * t[c + 1];
      });
    });
  }
  sycl::host_accessor result(rod, sycl::read_only);
}
