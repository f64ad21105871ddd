// Buffers that are NOT constructed per iteration: none of these may be flagged.
#include <sycl/sycl.hpp>
#include <vector>

constexpr int kSteps = 100;

struct Solver {
  sycl::queue q;
  std::vector<float> field;
  sycl::buffer<float, 1> device_field;

  explicit Solver(size_t n) : field(n, 0.0f), device_field(field.data(), sycl::range<1>(n)) {}

  void run() {
    for (int s = 0; s < kSteps; ++s) {
      q.submit([&](sycl::handler &h) {
        sycl::accessor f(device_field, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(field.size()), [=](sycl::item<1> it) {
          // Loops inside the kernel are device code, not host loops.
          float acc = 0.0f;
          for (int k = 0; k < 4; ++k) acc += f[it] * 0.5f;
          f[it] = acc;
        });
      });
    }
  }
};

void usm_in_a_loop(sycl::queue &q, const std::vector<int> &host, int rounds) {
  // USM allocations are a different concern (not KL101).
  for (int r = 0; r < rounds; ++r) {
    int *dev = sycl::malloc_device<int>(host.size(), q);
    q.memcpy(dev, host.data(), host.size() * sizeof(int)).wait();
    sycl::free(dev, q);
  }
}

void buffer_before_loop(sycl::queue &q, std::vector<int> &v) {
  sycl::buffer<int> b(v.data(), sycl::range<1>(v.size()));
  sycl::buffer<int> *alias = &b;
  for (size_t pass = 0; pass < 8; ++pass) {
    q.submit([&](sycl::handler &h) {
      auto acc = alias->get_access<sycl::access::mode::read_write>(h); // expect: KL104
      h.parallel_for(sycl::range<1>(v.size()), [=](sycl::id<1> i) { acc[i] += 1; });
    });
  }
}

// A loop that merely mentions a buffer type (a vector of buffers declared before it).
void many_buffers(std::vector<std::vector<float>> &tiles) {
  std::vector<sycl::buffer<float>> buffers;
  buffers.reserve(tiles.size());
  for (auto &tile : tiles) {
    buffers.emplace_back(tile.data(), sycl::range<1>(tile.size()));
  }
}
