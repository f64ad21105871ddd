// KL102 on buffers built from a range alone (no host memory behind them): a read_write accessor the
// kernel only overwrites costs no copy in until the host has touched the buffer, so that finding is
// info, as KL103's is; one that is only read still orders later kernels after it. Accessors written
// with braces, index copies taken from `get_global_id()[0]` and buffers held as class members are read
// the same way as the usual spellings.
#include <sycl/sycl.hpp>

constexpr size_t kCells = 1 << 18;
constexpr size_t kGroup = 128;

class Lattice {
  sycl::buffer<float, 1> density{sycl::range<1>(kCells)};
  sycl::buffer<float, 1> flux{sycl::range<1>(kCells)};

 public:
  void reset(sycl::queue &q) {
    q.submit([&](sycl::handler &h) {
      auto d = density.get_access<sycl::access_mode::read_write>(h); // expect: KL102
      h.parallel_for(sycl::nd_range<1>(kCells, kGroup), [=](sycl::nd_item<1> it) {
        auto cell = it.get_global_id()[0];
        d[cell] = 1.0f;
      });
    });
  }

  void transport(sycl::queue &q, float rate) {
    q.submit([&](sycl::handler &h) {
      auto d{density.get_access<sycl::access_mode::read_write>(h)}; // expect: KL102
      sycl::accessor f{flux, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(kCells), [=](sycl::id<1> i) { f[i] = rate * d[i]; });
    });
  }
};

void scratch(sycl::queue &q) {
  sycl::buffer<int, 1> tags{sycl::range<1>(kCells)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor t{tags, h, sycl::read_write}; // expect: KL102
    h.parallel_for(sycl::range<1>(kCells), [=](sycl::id<1> i) { t[i] = static_cast<int>(i[0]); });
  });
}
