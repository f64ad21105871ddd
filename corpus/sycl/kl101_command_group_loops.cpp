// Loops on the host side of a command group, and kernels written as functors.
#include <sycl/sycl.hpp>
#include <vector>

struct AddOne {
  sycl::accessor<int, 1, sycl::access::mode::read_write> data;
  void operator()(sycl::id<1> i) const { data[i] += 1; }
};

void submit_many(sycl::queue &q, std::vector<std::vector<int>> &parts) {
  q.submit([&](sycl::handler &h) {
    // Host code inside the command group lambda still runs once per iteration of this loop.
    for (size_t p = 0; p < parts.size(); ++p) {
      sycl::buffer<int, 1> part(parts[p].data(), sycl::range<1>(parts[p].size())); // expect: KL101
      (void)part;
    }
    h.single_task([=]() {});
  });

  sycl::buffer<int, 1> whole(parts[0].data(), sycl::range<1>(parts[0].size()));
  for (int round = 0; round < 4; ++round) {
    q.submit([&](sycl::handler &h) {
      AddOne k{whole.get_access<sycl::access::mode::read_write>(h)}; // expect: KL104
      h.parallel_for(sycl::range<1>(parts[0].size()), k);
    });
  }
}

// A lambda defined in a loop but invoked once after it: the buffer is not built per iteration.
void deferred(sycl::queue &q, std::vector<float> &v) {
  auto make = [&]() { return sycl::buffer<float>(v.data(), sycl::range<1>(v.size())); };
  auto b = make();
  for (int i = 0; i < 3; ++i) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(v.size()), [=](sycl::id<1> j) { a[j] = 0.0f; });
    });
  }
}
